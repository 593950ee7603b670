import { SelectField } from '../../components/select-field.tsx';
import { GRAIN_LABELS, RANGE_LABELS, RANGES, VIEW_LABELS, DEFAULT_RANGE, type RangePreset, type ReportsSearch, type ReportView } from './report-model.ts';
import type { TimeGrain } from '../../../schema/reports.ts';
import type { Frame } from './report-frame.ts';

export interface ReportControlsProps {
  search: ReportsSearch;
  set: (patch: Partial<ReportsSearch>) => void;
  frame: Frame;
  preset: RangePreset;
  /** The views this user may report on. */
  views: readonly ReportView[];
  /** The intervals the range allows. */
  grains: readonly TimeGrain[];
  /** The currencies the totals hold, and the one shown. */
  currencies: readonly string[];
  currency: string | null;
  /** On a dashboard: only the range and the currency apply. */
  onDashboard: boolean;
}

/** The page's settings: the data, the range (a custom one by its dates), the interval and the currency. */
export function ReportControls({ search, set, frame, preset, views, grains, currencies, currency, onDashboard }: ReportControlsProps) {
  const { view, from, to, grain } = frame;
  return (
    <div className="report-controls" role="group" aria-label="Report settings">
      {!onDashboard && (
      <fieldset className="segmented">
        <legend className="sr-only">Data</legend>
        {views.map((v) => (
          <label key={v}>
            <input
              type="radio"
              name="report-view"
              value={v}
              checked={v === view}
              onChange={() => set({ view: v === 'transactions' ? undefined : v, currency: undefined, dimension: undefined, tracking: undefined })}
            />
            <span>{VIEW_LABELS[v]}</span>
          </label>
        ))}
      </fieldset>
      )}
      <span className="spacer" />
      <SelectField
        variant="filter"
        label="Range"
        value={preset}
        options={RANGES.map((r) => ({ value: r, label: RANGE_LABELS[r] }))}
        onChange={(v) => set({ range: v === DEFAULT_RANGE ? undefined : (v as RangePreset), ...(v === 'custom' ? { from: from ?? undefined, to } : { from: undefined, to: undefined }) })}
      />
      {preset === 'custom' && (
        <>
          <label className="filter">
            <span className="filter-label">From</span>
            <input type="date" value={search.from ?? ''} max={search.to} onChange={(e) => set({ from: e.target.value || undefined })} />
          </label>
          <label className="filter">
            <span className="filter-label">To</span>
            <input type="date" value={search.to ?? ''} min={search.from} onChange={(e) => set({ to: e.target.value || undefined })} />
          </label>
        </>
      )}
      {!onDashboard && (
      <SelectField
        variant="filter"
        label="Interval"
        value={grain}
        options={grains.map((g) => ({ value: g, label: GRAIN_LABELS[g] }))}
        onChange={(v) => set({ grain: v as TimeGrain })}
      />
      )}
      {currencies.length > 1 && currency && (
        <SelectField variant="filter" label="Currency" value={currency} options={currencies.map((c) => ({ value: c, label: c }))} onChange={(v) => set({ currency: v })} />
      )}
    </div>
  );
}
