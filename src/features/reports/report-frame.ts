import { bucketCount, MAX_REPORT_BUCKETS, REPORT_EPOCH, type ReportDimension, type ReportMeasure, type ReportQuery, type TimeGrain } from '../../../schema/reports.ts';
import type { useDataClient } from '../../data-access/data-context.tsx';
import { DEFAULT_RANGE, defaultGrain, RANGE_LABELS, rangeDates, type RangePreset, type ReportsSearch, type ReportView } from './report-model.ts';

/** The user's choices, resolved: range, grain and the currency the charts show. */
export interface Frame {
  view: ReportView;
  from: string | undefined;
  to: string;
  grain: TimeGrain;
  rangeText: string;
}

/**
 * The URL's choices resolved against what this user may see and what a report may hold: the
 * view (the first one when the URL names one not offered), the range's dates, the intervals the
 * range allows (daily since the epoch would be too many periods) and the one shown.
 */
export function resolveFrame(search: ReportsSearch, views: readonly ReportView[], today: string): { frame: Frame; preset: RangePreset; grains: TimeGrain[] } {
  const view: ReportView = search.view && views.includes(search.view) ? search.view : 'transactions';
  const preset: RangePreset = search.range ?? DEFAULT_RANGE;
  const { from, to } = rangeDates(preset, today, { from: search.from, to: search.to });
  const grains = (['day', 'week', 'month', 'quarter', 'year'] as const).filter((g) => bucketCount(from ?? REPORT_EPOCH, to, g) <= MAX_REPORT_BUCKETS);
  const grain = search.grain && (grains as readonly TimeGrain[]).includes(search.grain) ? search.grain : defaultGrain(from, to);
  const rangeText = preset === 'custom' ? `${from ?? 'the start'} to ${to}` : RANGE_LABELS[preset].toLowerCase();
  return { frame: { view, from, to, grain, rangeText }, preset, grains };
}

/** The page's query for a card: its view and range, with the card's grouping, measure, grain and filters. */
export type Base = (dimension: ReportDimension, measure: ReportMeasure, grain: TimeGrain, filters?: Record<string, unknown>) => ReportQuery;

/** What every card of the page is given. */
export interface CardProps {
  frame: Frame;
  client: ReturnType<typeof useDataClient>;
  version: number;
  base: Base;
}

/** A period's own date range, clipped to the report's. */
export function periodRange(periods: readonly string[], i: number, frame: Frame): { from?: string; to: string } {
  const start = periods[i]!;
  const next = periods[i + 1];
  const end = next ? new Date(Date.parse(`${next}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10) : frame.to;
  return { from: frame.from && frame.from > start ? frame.from : start, to: end < frame.to ? end : frame.to };
}
