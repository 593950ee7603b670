import type { ReactNode } from 'react';
import type { ReportDimension, ReportMeasure, ReportRow, TimeGrain } from '../../../schema/reports.ts';
import { Chart } from './chart.tsx';
import { Skeleton } from '../../components/skeleton.tsx';
import { BILL_STATUS_LABELS } from '../../lib/bill-labels.ts';
import { STATUS_LABELS as CLAIM_STATUS_LABELS } from '../../lib/claim-labels.ts';
import { DISPLAY_LOCALE, formatCount, formatMoney } from '../../lib/format.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { measureText, NO_KEY_LABELS, periodLabel, periodsBetween, statusWords, timeSeries, todayUtc, type ReportView } from './report-model.ts';
import type { ReportState } from './use-report.ts';

/** The parts every report card is made of (the Reports page and dashboards share them). */


export const money = (currency: string | null) => (v: number) => (currency ? formatMoney(v, currency) : formatCount(v));
const compactCache = new Map<string, Intl.NumberFormat>();
/** "$12K" on an axis: the table beside the chart has the exact figure. */
export function compactMoney(currency: string | null): (v: number) => string {
  if (!currency) return (v) => formatCount(v);
  let f = compactCache.get(currency);
  if (!f) {
    f = new Intl.NumberFormat(DISPLAY_LOCALE, { style: 'currency', currency, notation: 'compact', maximumFractionDigits: 1 });
    compactCache.set(currency, f);
  }
  const unit = 10 ** (new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2);
  return (v) => f.format(v / unit);
}


/** A report's frame: title, what it shows, the chart and its table, and where it leads. */
export function ReportCard({ title, description, state, children, wide, actions }: {
  title: string; description: string; state: ReportState; children: (rows: ReportRow[], labels: Record<string, string>) => ReactNode; wide?: boolean; actions?: ReactNode;
}) {
  return (
    <section className={wide ? 'report-card wide' : 'report-card'} aria-label={title} aria-busy={state.state === 'loading'}>
      <header className="report-card-header">
        <h2>{title}</h2>
        <p className="muted">{description}</p>
        {actions}
      </header>
      {state.state === 'loading' && <Skeleton className="chart-skeleton" />}
      {state.state === 'error' && <p className="form-error">This report could not be computed: {state.message}</p>}
      {state.state === 'ready' && (state.answer.rows.length === 0 ? <p className="muted report-empty">Nothing to show for {title.toLowerCase()} in this range.</p> : children(state.answer.rows, state.answer.labels))}
    </section>
  );
}


/** The first period a report holds (a range from the epoch starts there, not in 1970). */
export function firstPeriod(rows: readonly ReportRow[]): string {
  return rows.reduce((m, r) => (r.period < m ? r.period : m), rows[0]?.period ?? todayUtc());
}

/** The rows of a report that has answered (none before). */
export const rowsOf = (state: ReportState): ReportRow[] => (state.state === 'ready' ? state.answer.rows : []);


/** A key's name under a dimension, from reference data (cards: the worker's label). */
export function keyLabel(view: ReportView, dimension: ReportDimension, key: string | null, reference: ReferenceView, labels: Record<string, string>): string {
  if (key === null) return NO_KEY_LABELS[dimension];
  const { names, data } = reference;
  switch (dimension) {
    case 'department': return names.department(key) || 'Unknown department';
    case 'location': return names.location(key) || 'Unknown location';
    case 'gl_account': return names.glAccount(key) || 'Unknown GL account';
    case 'user': return names.user(key) || 'Unknown person';
    case 'card': return labels[key] ?? 'Unknown card';
    case 'vendor': return data.vendors.find((v) => v.id === key)?.name ?? 'Unknown vendor';
    case 'tracking_category': {
      for (const c of data.tracking_categories) {
        const o = c.options.find((x) => x.id === key);
        if (o) return o.name;
      }
      return 'Unknown option';
    }
    case 'status':
      if (view === 'bills') return BILL_STATUS_LABELS[key as keyof typeof BILL_STATUS_LABELS] ?? statusWords(key);
      if (view === 'reimbursements') return CLAIM_STATUS_LABELS[key as keyof typeof CLAIM_STATUS_LABELS] ?? statusWords(key);
      return statusWords(key);
    default:
      return key;
  }
}

export interface TableRow {
  key: string;
  cells: string[];
  onOpen?: (() => void) | undefined;
}

/** A chart's data, as a table: what a screen reader reads, and what a reader copies. */
export function DataTable({ caption, head, rows, numeric = [1] }: { caption: string; head: string[]; rows: TableRow[]; numeric?: number[] }) {
  return (
    <div className="report-table-wrap" tabIndex={0} role="region" aria-label={`${caption} (table)`}>
      <table className="report-table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {head.map((h, i) => (
              <th key={h + i} scope="col" className={numeric.includes(i) ? 'num' : undefined}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key}>
              {r.cells.map((c, i) =>
                i === 0 ? (
                  <th key={i} scope="row">
                    {r.onOpen ? (
                      <button type="button" className="link-button" onClick={r.onOpen}>
                        {c}
                      </button>
                    ) : (
                      c
                    )}
                  </th>
                ) : (
                  <td key={i} className={numeric.includes(i) ? 'num' : undefined}>
                    {c}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** How many lines a time report draws before the rest are one "Everything else". */
export const TOP_SERIES = 5;

export interface TimeReportProps {
  rows: ReportRow[];
  labels: Record<string, string>;
  view: ReportView;
  dimension: ReportDimension;
  measure: ReportMeasure;
  grain: TimeGrain;
  /** The range shown: from (else the first period with rows) to `to`. */
  from: string | undefined;
  to: string;
  currency: string | null;
  chart: 'line' | 'bar' | 'table';
  reference: ReferenceView;
  caption: string;
}

/** A report over time, grouped by a dimension: its chart (unless a table is asked for) and its table. */
export function TimeReportBody({ rows, labels, view, dimension, measure, grain, from, to, currency, chart, reference, caption }: TimeReportProps) {
  const first = from ?? firstPeriod(rows);
  const periods = periodsBetween(first, to, grain);
  const { series } = timeSeries(rows, periods, measure === 'count' ? null : currency, TOP_SERIES, measure);
  const name = (s: { key: string | null; other?: boolean }) => (s.other ? 'Everything else' : keyLabel(view, dimension, s.key, reference, labels));
  const periodLabels = periods.map((p) => periodLabel(p, grain, DISPLAY_LOCALE));
  const exact = measure === 'count' ? formatCount : money(currency);
  return (
    <div className="report-body">
      {chart !== 'table' && (
        <Chart
          kind={chart === 'bar' && series.length === 1 ? 'bar' : 'line'}
          labels={periodLabels}
          series={series.map((s) => ({ label: name(s), values: s.values }))}
          format={measure === 'count' ? formatCount : compactMoney(currency)}
          summary={`${measureText(measure, dimension)} over time. The table that follows lists each period.`}
        />
      )}
      <DataTable
        caption={caption}
        head={['Period', ...series.map((s) => name(s))]}
        numeric={series.map((_, i) => i + 1)}
        rows={periods.map((p, i) => ({ key: p, cells: [periodLabels[i]!, ...series.map((s) => exact(s.values[i] ?? 0))] })).reverse()}
      />
    </div>
  );
}
