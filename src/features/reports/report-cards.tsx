import { useMemo } from 'react';
import { useNavigate } from '@tanstack/react-router';
import type { ReportDimension, ReportRow } from '../../../schema/reports.ts';
import { DISPLAY_LOCALE, formatCount } from '../../lib/format.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { Chart } from './chart.tsx';
import { DIMENSION_LABELS, drillDown, GRAIN_LABELS, periodLabel, periodsBetween, shareText, timeSeries, topGroups, VIEW_LABELS, type ReportView } from './report-model.ts';
import { periodRange, type CardProps } from './report-frame.ts';
import { compactMoney, DataTable, firstPeriod, keyLabel, money, ReportCard, rowsOf } from './report-parts.tsx';
import { useReport, type ReportState } from './use-report.ts';

/**
 * The Reports page's standard cards (issue 12): the amount over time, the breakdowns of each view,
 * and the month-end to-do list; each chart with its table, a click opening the matching rows.
 */

/** How many groups a "top" chart shows before folding the rest into "Everything else". */
const TOP = 8;

/** A sum report's rows with their item counts as values: counts of one currency (issue 25). */
const countsOf = (rows: readonly ReportRow[]): ReportRow[] => rows.map((r) => ({ ...r, value: r.count }));

/** The breakdowns every view shows, most useful first. */
export function standardBreakdowns(view: ReportView): ReportDimension[] {
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

export function OverTime({ frame, currency, client, version, base }: CardProps & { currency: string | null }) {
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
          const target = drillDown(frame.view, 'none', null, { ...periodRange(periods, i, frame), currency });
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

export function Breakdown({ dimension, frame, currency, client, version, base, reference }: CardProps & { dimension: ReportDimension; currency: string | null; reference: ReferenceView }) {
  const navigate = useNavigate();
  const state = useReport(client, base(dimension, 'sum', 'span'), version);
  const title = BREAKDOWN_TITLES[dimension] ?? DIMENSION_LABELS[dimension];
  return (
    <ReportCard title={title} description={`${currency ? `Total in ${currency}` : 'Total'}, ${frame.rangeText}. Click a bar or a row to see its items.`} state={state}>
      {(rows, labels) => {
        const { groups, other, total } = topGroups(rows, currency, TOP);
        const name = (key: string | null) => keyLabel(frame.view, dimension, key, reference, labels);
        const open = (key: string | null) => {
          const target = drillDown(frame.view, dimension, key, { ...(frame.from ? { from: frame.from } : {}), to: frame.to, currency }, key ? name(key) : undefined);
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
export function MissingItems({ frame, currency, client, version, base }: CardProps & { currency: string | null }) {
  const navigate = useNavigate();
  // Sum reports: one row per period and currency, whose count is that currency's items (issue 25).
  const receipts = useReport(client, base('none', 'sum', frame.grain, { missing_receipt: true }), version);
  const coding = useReport(client, base('none', 'sum', frame.grain, { missing_coding: true }), version);
  const state: ReportState = receipts.state !== 'ready' ? receipts : coding;
  return (
    <ReportCard title="Missing receipts and coding" description={`Card transactions${currency ? ` in ${currency}` : ''} still missing a receipt or a GL account (pending and cleared), ${GRAIN_LABELS[frame.grain].toLowerCase()}.`} state={state}>
      {() => {
        if (receipts.state !== 'ready' || coding.state !== 'ready') return null;
        const from = frame.from ?? firstPeriod([...rowsOf(receipts), ...rowsOf(coding)]);
        const periods = periodsBetween(from, frame.to, frame.grain);
        const r = timeSeries(countsOf(receipts.answer.rows), periods, currency, 1, 'count').series[0]?.values ?? periods.map(() => 0);
        const c = timeSeries(countsOf(coding.answer.rows), periods, currency, 1, 'count').series[0]?.values ?? periods.map(() => 0);
        const labels = periods.map((p) => periodLabel(p, frame.grain, DISPLAY_LOCALE));
        const open = (i: number, what: 'missing_receipt' | 'missing_coding') =>
          void navigate({ to: '/transactions', search: { ...periodRange(periods, i, frame), states: 'PENDING,CLEARED', ...(currency ? { currency } : {}), [what]: true } as never });
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
