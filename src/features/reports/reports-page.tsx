import { useCallback, useMemo, useState } from 'react';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { bucketCount, MAX_REPORT_BUCKETS, REPORT_EPOCH, REPORT_SPECS, type ReportDimension, type ReportMeasure, type ReportQuery, type TimeGrain } from '../../../schema/reports.ts';
import { canManageBillPayAccounting } from '../../../schema/roles.ts';
import { Button } from '../../components/button.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { SelectField, type SelectOption } from '../../components/select-field.tsx';
import { Skeleton } from '../../components/skeleton.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { DISPLAY_LOCALE, formatCount, formatMoney } from '../../lib/format.ts';
import { useReferenceData, type ReferenceView } from '../../lib/reference-data.ts';
import { isPartial } from '../../lib/sync-status-text.ts';
import { Chart } from './chart.tsx';
import {
  currenciesOf, defaultGrain, INCLUDED_TEXT, DIMENSION_LABELS, drillDown, GRAIN_LABELS, MEASURE_LABELS, measureText, periodLabel, periodsBetween,
  overviewTiles, RANGE_LABELS, RANGES, rangeDates, REPORT_VIEWS, shareText, timeSeries, todayUtc, topGroups, VIEW_LABELS,
  type RangePreset, type ReportsSearch, type ReportView, DEFAULT_RANGE,
} from './report-model.ts';
import { useReport, type ReportState } from './use-report.ts';
import { DashboardStrip, DashboardView, SaveReportDialog } from './dashboards.tsx';
import { compactMoney, DataTable, firstPeriod, rowsOf, keyLabel, money, ReportCard, TimeReportBody } from './report-parts.tsx';

const routeApi = getRouteApi('/_app/reports');

/** How many groups a "top" chart shows before folding the rest into "Everything else". */
const TOP = 8;


/** The user's choices, resolved: range, grain and the currency the charts show. */
interface Frame {
  view: ReportView;
  from: string | undefined;
  to: string;
  grain: TimeGrain;
  rangeText: string;
}

/**
 * Issue 12: /reports. Every figure is computed in the data worker over this device's mirror
 * (schema/reports.ts), so reports open at once, offline, and follow edits as they are made. Each
 * chart has its table beside it; a click on a bar, a point or a row opens the matching rows.
 */
export function ReportsPage() {
  const search = routeApi.useSearch();
  const navigate = routeApi.useNavigate();
  const client = useDataClient();
  const dataVersion = useAppState((s) => s.dataVersion);
  const partial = useAppState((s) => isPartial(s.status));
  const user = useAppState((s) => s.session?.user ?? null);
  const reference = useReferenceData(client, useAppState((s) => s.referenceVersion));

  const views = REPORT_VIEWS.filter((v) => v !== 'bills' || (user !== null && canManageBillPayAccounting(user)));
  const view: ReportView = search.view && views.includes(search.view) ? search.view : 'transactions';
  const preset: RangePreset = search.range ?? DEFAULT_RANGE;
  const today = todayUtc();
  const { from, to } = rangeDates(preset, today, { from: search.from, to: search.to });
  // Intervals that would make more periods than a report may have (daily since the epoch) are not offered.
  const grains = (['day', 'week', 'month', 'quarter', 'year'] as const).filter((g) => bucketCount(from ?? REPORT_EPOCH, to, g) <= MAX_REPORT_BUCKETS);
  const grain = search.grain && grains.includes(search.grain as (typeof grains)[number]) ? search.grain : defaultGrain(from, to);
  const frame: Frame = { view, from, to, grain, rangeText: preset === 'custom' ? `${from ?? 'the start'} to ${to}` : RANGE_LABELS[preset].toLowerCase() };

  const dashboards = reference.data.dashboards;
  const dashboard = search.dashboard ? dashboards.find((d) => d.id === search.dashboard) : undefined;

  const set = useCallback(
    (patch: Partial<ReportsSearch>) => void navigate({ search: (prev: ReportsSearch) => ({ ...prev, ...patch }), replace: true }),
    [navigate],
  );

  const base = useCallback(
    (dimension: ReportDimension, measure: ReportMeasure, g: TimeGrain, filters?: Record<string, unknown>): ReportQuery => ({
      collection: view, time_grain: g, dimension, measure, ...(from ? { from } : {}), to, ...(filters ? { filters } : {}),
    }),
    [view, from, to],
  );

  // The totals first: they give the currencies every other chart can show.
  const totals = useReport(client, base('none', 'sum', 'span'), dataVersion);
  const currencies = totals.state === 'ready' ? currenciesOf(totals.answer.rows) : [];
  const currency = search.currency && currencies.includes(search.currency) ? search.currency : (currencies[0] ?? null);

  return (
    <div className="reports">
      <div className="page-header">
        <div>
          {dashboard ? (
            <>
              <Link to="/reports" className="back-link">
                ← Reports
              </Link>
              <h1>{dashboard.name}</h1>
            </>
          ) : (
            <h1>Reports</h1>
          )}
          <p className="muted page-subtitle">Computed on this device from your synced data, so they open instantly and work offline.</p>
        </div>
      </div>
      <DashboardStrip dashboards={dashboards} current={dashboard?.id} />
      <div className="report-controls" role="group" aria-label="Report settings">
        {!dashboard && (
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
        {!dashboard && (
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
      {partial && (
        <p className="notice" role="status">
          Only part of your data is on this device yet, so these figures are partial. They fill in as the download finishes.
        </p>
      )}
      {search.dashboard && !dashboard ? (
        <EmptyState title="This dashboard is not on this device">
          <p>
            It was deleted, or it belongs to someone else. <Link to="/reports">Back to Reports</Link>
          </p>
        </EmptyState>
      ) : dashboard ? (
        <DashboardView
          client={client}
          dashboard={dashboard}
          reports={reference.data.saved_reports}
          range={{ from, to, text: frame.rangeText }}
          currency={currency}
          version={dataVersion}
          reference={reference}
          onDeleted={() => void navigate({ search: {}, replace: true })}
        />
      ) : (
        <>
      <Overview state={totals} currency={currency} frame={frame} client={client} version={dataVersion} base={base} />
        {totals.state === 'ready' && totals.answer.rows.length === 0 ? (
          <EmptyState title={`No ${VIEW_LABELS[view].toLowerCase()} in ${frame.rangeText}`}>
            <p>Choose a longer range, or another kind of data above. Reports count what this device holds: {INCLUDED_TEXT[view]}.</p>
          </EmptyState>
        ) : (
          <div className="report-grid">
            <OverTime frame={frame} currency={currency} client={client} version={dataVersion} base={base} />
            {standardBreakdowns(view).map((dimension) => (
              <Breakdown key={dimension} dimension={dimension} frame={frame} currency={currency} client={client} version={dataVersion} base={base} reference={reference} />
            ))}
            {view === 'transactions' && <MissingItems frame={frame} client={client} version={dataVersion} base={base} />}
            <CustomReport search={search} set={set} frame={frame} currency={currency} client={client} version={dataVersion} base={base} reference={reference} />
          </div>
        )}
        </>
      )}
    </div>
  );
}

/** The breakdowns every view shows, most useful first. */
function standardBreakdowns(view: ReportView): ReportDimension[] {
  switch (view) {
    case 'transactions': return ['department', 'merchant', 'gl_account'];
    case 'reimbursements': return ['user', 'gl_account'];
    case 'bills': return ['vendor', 'gl_account'];
    case 'cards': return ['status', 'department'];
  }
}

const BREAKDOWN_TITLES: Partial<Record<ReportDimension, string>> = {
  department: 'By department',
  merchant: 'Top merchants',
  gl_account: 'Top categories',
  user: 'By person',
  vendor: 'Top vendors',
  status: 'By status',
};

type Base = (dimension: ReportDimension, measure: ReportMeasure, grain: TimeGrain, filters?: Record<string, unknown>) => ReportQuery;
interface CardProps {
  frame: Frame;
  client: ReturnType<typeof useDataClient>;
  version: number;
  base: Base;
}

function Overview({ state, currency, frame, client, version, base }: CardProps & { state: ReportState; currency: string | null }) {
  const receipts = useReport(client, frame.view === 'transactions' ? base('none', 'count', 'span', { missing_receipt: true }) : null, version);
  const coding = useReport(client, frame.view === 'transactions' || frame.view === 'reimbursements' ? base('gl_account', 'count', 'span') : null, version);
  if (state.state === 'loading') return <div className="kpis"><Skeleton className="kpi" /><Skeleton className="kpi" /><Skeleton className="kpi" /></div>;
  if (state.state === 'error') return <p className="form-error">These figures could not be computed: {state.message}</p>;
  const tiles = overviewTiles(state.answer.rows, currency, frame.view);
  const range = { ...(frame.from ? { from: frame.from } : {}), to: frame.to };
  const uncoded = coding.state === 'ready' ? coding.answer.rows.find((r) => r.key === null)?.value ?? 0 : null;
  const missingReceipts = receipts.state === 'ready' ? receipts.answer.rows[0]?.value ?? 0 : null;
  return (
    <div className="kpi-block">
    <dl className="kpis" aria-describedby="kpi-scope">
      <Kpi label={tiles.amountLabel} value={currency && tiles.sum !== null ? formatMoney(tiles.sum, currency) : '–'} />
      <Kpi label={tiles.countLabel} value={formatCount(tiles.count)} />
      <Kpi label={tiles.averageLabel} value={currency && tiles.average !== null ? formatMoney(tiles.average, currency) : '–'} />
      {missingReceipts !== null && (
        <Kpi
          label="Missing receipts"
          value={formatCount(missingReceipts)}
          link={missingReceipts > 0 ? { to: '/transactions', search: { ...range, states: 'PENDING,CLEARED', missing_receipt: true } } : undefined}
        />
      )}
      {uncoded !== null && (
        <Kpi
          label="Missing coding"
          value={formatCount(uncoded)}
          link={uncoded > 0 && frame.view === 'transactions' ? { to: '/transactions', search: { ...range, states: 'PENDING,CLEARED', missing_coding: true } } : undefined}
        />
      )}
    </dl>
    <p className="kpi-scope muted" id="kpi-scope" data-testid="kpi-scope">
      {tiles.scope}
      {(missingReceipts !== null || uncoded !== null) && ' Missing receipts and coding count every currency.'}
    </p>
    </div>
  );
}

function Kpi({ label, value, link }: { label: string; value: string; link?: { to: string; search: Record<string, unknown> } | undefined }) {
  return (
    <div className="kpi">
      <dt>{label}</dt>
      <dd>
        {link ? (
          <Link to={link.to} search={link.search as never} className="kpi-link">
            {value}
          </Link>
        ) : (
          value
        )}
      </dd>
    </div>
  );
}

function OverTime({ frame, currency, client, version, base }: CardProps & { currency: string | null }) {
  const navigate = useNavigate();
  const state = useReport(client, base('none', 'sum', frame.grain), version);
  const periods = useMemo(() => periodsBetween(frame.from ?? firstPeriod(rowsOf(state)), frame.to, frame.grain), [frame.from, frame.to, frame.grain, state]);
  const what = frame.view === 'transactions' ? 'Spend' : frame.view === 'cards' ? 'New card limits' : VIEW_LABELS[frame.view];
  return (
    <ReportCard title={`${what} over time`} description={`${GRAIN_LABELS[frame.grain]}, ${frame.rangeText}${currency ? `, ${currency}` : ''}.`} state={state} wide>
      {(rows) => {
        const { series } = timeSeries(rows, periods, currency, 1, 'sum');
        const values = series[0]?.values ?? periods.map(() => 0);
        const labels = periods.map((p) => periodLabel(p, frame.grain, DISPLAY_LOCALE));
        const open = (i: number) => {
          const target = drillDown(frame.view, 'none', null, periodRange(periods, i, frame));
          if (target) void navigate({ to: target.to, search: target.search as never });
        };
        return (
          <div className="report-body">
            <Chart
              kind={periods.length > 24 ? 'line' : 'bar'}
              labels={labels}
              series={[{ label: what, values }]}
              format={compactMoney(currency)}
              summary={`${what} ${GRAIN_LABELS[frame.grain].toLowerCase()}, ${frame.rangeText}: ${periods.length} periods. The table that follows lists each.`}
              onSelect={frame.view === 'transactions' ? open : undefined}
            />
            <DataTable
              caption={`${what} by period`}
              head={['Period', currency ? `Amount (${currency})` : 'Amount']}
              rows={periods.map((p, i) => ({ key: p, cells: [labels[i]!, money(currency)(values[i] ?? 0)], onOpen: frame.view === 'transactions' ? () => open(i) : undefined })).reverse()}
            />
          </div>
        );
      }}
    </ReportCard>
  );
}

/** A period's own date range, clipped to the report's. */
function periodRange(periods: readonly string[], i: number, frame: Frame): { from?: string; to: string } {
  const start = periods[i]!;
  const next = periods[i + 1];
  const end = next ? new Date(Date.parse(`${next}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10) : frame.to;
  return { from: frame.from && frame.from > start ? frame.from : start, to: end < frame.to ? end : frame.to };
}

function Breakdown({ dimension, frame, currency, client, version, base, reference }: CardProps & { dimension: ReportDimension; currency: string | null; reference: ReferenceView }) {
  const navigate = useNavigate();
  const state = useReport(client, base(dimension, 'sum', 'span'), version);
  const title = BREAKDOWN_TITLES[dimension] ?? DIMENSION_LABELS[dimension];
  return (
    <ReportCard title={title} description={`${currency ? `Total in ${currency}` : 'Total'}, ${frame.rangeText}. Click a bar or a row to see its items.`} state={state}>
      {(rows, labels) => {
        const { groups, other, total } = topGroups(rows, currency, TOP);
        const name = (key: string | null) => keyLabel(frame.view, dimension, key, reference, labels);
        const open = (key: string | null) => {
          const target = drillDown(frame.view, dimension, key, { ...(frame.from ? { from: frame.from } : {}), to: frame.to }, key ? name(key) : undefined);
          if (target) void navigate({ to: target.to, search: target.search as never });
        };
        const canOpen = (key: string | null) => drillDown(frame.view, dimension, key, { to: frame.to }, key ? name(key) : undefined) !== null;
        const shown = other ? [...groups, other] : groups;
        const names = [...groups.map((g) => name(g.key)), ...(other ? ['Everything else'] : [])];
        return (
          <div className="report-body">
            <Chart
              kind="hbar"
              labels={names}
              series={[{ label: title, values: shown.map((g) => g.value) }]}
              format={compactMoney(currency)}
              summary={`${title}, ${frame.rangeText}: the largest is ${names[0] ?? 'none'}. The table that follows lists each with its share.`}
              onSelect={(i) => i < groups.length && canOpen(groups[i]!.key) && open(groups[i]!.key)}
            />
            <DataTable
              caption={title}
              head={[DIMENSION_LABELS[dimension], 'Amount', 'Items', 'Share']}
              numeric={[1, 2, 3]}
              rows={shown.map((g, i) => ({
                key: `${i < groups.length ? g.key : 'other'}`,
                cells: [names[i]!, money(currency)(g.value), formatCount(g.count), shareText(g.value, total)],
                onOpen: i < groups.length && canOpen(g.key) ? () => open(g.key) : undefined,
              }))}
            />
          </div>
        );
      }}
    </ReportCard>
  );
}

/** Missing receipts and missing coding over time: the month-end to-do list. */
function MissingItems({ frame, client, version, base }: CardProps) {
  const navigate = useNavigate();
  const receipts = useReport(client, base('none', 'count', frame.grain, { missing_receipt: true }), version);
  const coding = useReport(client, base('none', 'count', frame.grain, { missing_coding: true }), version);
  const state: ReportState = receipts.state !== 'ready' ? receipts : coding;
  return (
    <ReportCard title="Missing receipts and coding" description={`Card transactions still missing a receipt or a GL account, ${GRAIN_LABELS[frame.grain].toLowerCase()}.`} state={state}>
      {() => {
        if (receipts.state !== 'ready' || coding.state !== 'ready') return null;
        const from = frame.from ?? firstPeriod([...rowsOf(receipts), ...rowsOf(coding)]);
        const periods = periodsBetween(from, frame.to, frame.grain);
        const r = timeSeries(receipts.answer.rows, periods, null, 1, 'count').series[0]?.values ?? periods.map(() => 0);
        const c = timeSeries(coding.answer.rows, periods, null, 1, 'count').series[0]?.values ?? periods.map(() => 0);
        const labels = periods.map((p) => periodLabel(p, frame.grain, DISPLAY_LOCALE));
        const open = (i: number, what: 'missing_receipt' | 'missing_coding') =>
          void navigate({ to: '/transactions', search: { ...periodRange(periods, i, frame), states: 'PENDING,CLEARED', [what]: true } as never });
        return (
          <div className="report-body">
            <Chart
              kind="line"
              labels={labels}
              series={[{ label: 'Missing receipts', values: r }, { label: 'Missing coding', values: c }]}
              format={formatCount}
              summary={`Transactions missing receipts and coding ${GRAIN_LABELS[frame.grain].toLowerCase()}, ${frame.rangeText}. The table that follows lists each period.`}
            />
            <DataTable
              caption="Missing receipts and coding by period"
              head={['Period', 'Missing receipts', 'Missing coding']}
              numeric={[1, 2]}
              rows={periods.map((p, i) => ({
                key: p,
                cells: [labels[i]!, formatCount(r[i] ?? 0), formatCount(c[i] ?? 0)],
                onOpen: (r[i] ?? 0) > 0 ? () => open(i, 'missing_receipt') : (c[i] ?? 0) > 0 ? () => open(i, 'missing_coding') : undefined,
              })).reverse()}
            />
          </div>
        );
      }}
    </ReportCard>
  );
}

/** Any grouping the data allows, over time: the report a finance lead builds for their question. */
function CustomReport({ search, set, frame, currency, client, version, base, reference }: CardProps & {
  search: ReportsSearch; set: (p: Partial<ReportsSearch>) => void; currency: string | null; reference: ReferenceView;
}) {
  const [saving, setSaving] = useState(false);
  const allowed = REPORT_SPECS[frame.view].dimensions.filter((d) => d !== 'tracking_category' || reference.data.tracking_categories.length > 0);
  const dimension = search.dimension && allowed.includes(search.dimension) ? search.dimension : allowed.find((d) => d !== 'none') ?? 'none';
  const measure = search.measure ?? 'sum';
  const tracking = dimension === 'tracking_category' ? (search.tracking ?? reference.data.tracking_categories[0]?.id) : undefined;
  const plain = base(dimension, measure, frame.grain);
  const query = tracking ? { ...plain, tracking_category_id: tracking } : plain;
  const state = useReport(client, dimension === 'tracking_category' && !tracking ? null : query, version);
  const dimensionOptions: SelectOption[] = allowed.map((d) => ({ value: d, label: DIMENSION_LABELS[d] }));
  return (
    <ReportCard title="Custom report" description={`${measureText(measure, dimension)}, ${GRAIN_LABELS[frame.grain].toLowerCase()}, ${frame.rangeText}.`} state={state} wide>
      {(rows, labels) => {
        return (
          <>
            <div className="report-builder" role="group" aria-label="Custom report">
              <SelectField variant="filter" label="Group by" value={dimension} options={dimensionOptions} onChange={(v) => set({ dimension: v as ReportDimension })} />
              {dimension === 'tracking_category' && (
                <SelectField
                  variant="filter"
                  label="Category"
                  value={tracking ?? ''}
                  options={reference.data.tracking_categories.map((c) => ({ value: c.id, label: c.name }))}
                  onChange={(v) => set({ tracking: v })}
                />
              )}
              <SelectField
                variant="filter"
                label="Measure"
                value={measure}
                options={(['sum', 'count', 'average'] as const).map((m) => ({ value: m, label: MEASURE_LABELS[m] }))}
                onChange={(v) => set({ measure: v === 'sum' ? undefined : (v as ReportMeasure) })}
              />
              <span className="spacer" />
              <Button onClick={() => setSaving(true)}>Save to dashboard</Button>
            </div>
            {saving && (
              <SaveReportDialog
                client={client}
                query={query}
                suggestedName={measureText(measure, dimension)}
                dashboards={reference.data.dashboards}
                onClose={() => setSaving(false)}
                onSaved={(id) => {
                  setSaving(false);
                  set({ dashboard: id });
                }}
              />
            )}
            <TimeReportBody
              rows={rows}
              labels={labels}
              view={frame.view}
              dimension={dimension}
              measure={measure}
              grain={frame.grain}
              from={frame.from}
              to={frame.to}
              currency={currency}
              chart="line"
              reference={reference}
              caption="Custom report"
            />
          </>
        );
      }}
    </ReportCard>
  );
}

