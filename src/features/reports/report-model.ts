import type { ReportDimension, ReportMeasure, ReportRow, TimeGrain } from '../../../schema/reports.ts';

/**
 * The Reports page's model, pure (tested in Node): URL state, date ranges, the chart series and
 * the tables built from the worker's report rows, and where a click on a group leads. The URL
 * state's parser is `search-params.ts` (the route's, in the first load); re-exported here.
 */
export {
  DEFAULT_RANGE, parseReportsSearch, RANGES, REPORT_VIEWS, reportsSearchSchema,
  type RangePreset, type ReportView, type ReportsSearch,
} from './search-params.ts';
import type { RangePreset, ReportView } from './search-params.ts';

export const VIEW_LABELS: Record<ReportView, string> = {
  transactions: 'Card spend',
  reimbursements: 'Reimbursements',
  bills: 'Bills',
  cards: 'Cards',
};

export const RANGE_LABELS: Record<RangePreset, string> = {
  this_month: 'This month',
  last_month: 'Last month',
  last_90_days: 'Last 90 days',
  this_quarter: 'This quarter',
  this_year: 'This year',
  last_12_months: 'Last 12 months',
  all: 'All time',
  custom: 'Custom range',
};

export const GRAIN_LABELS: Record<TimeGrain, string> = {
  day: 'Daily', week: 'Weekly', month: 'Monthly', quarter: 'Quarterly', year: 'Yearly', span: 'Whole range',
};

export const DIMENSION_LABELS: Record<ReportDimension, string> = {
  none: 'Nothing (total)',
  department: 'Department',
  location: 'Location',
  merchant: 'Merchant',
  gl_account: 'GL account',
  tracking_category: 'Tracking category',
  user: 'Person',
  card: 'Card',
  vendor: 'Vendor',
  status: 'Status',
};

export const MEASURE_LABELS: Record<ReportMeasure, string> = { sum: 'Total amount', count: 'Number of items', average: 'Average amount' };

/** "Total amount by department"; "Total amount" when the report is not grouped. */
export const measureText = (measure: ReportMeasure, dimension: ReportDimension): string =>
  dimension === 'none' ? MEASURE_LABELS[measure] : `${MEASURE_LABELS[measure]} by ${DIMENSION_LABELS[dimension].toLowerCase()}`;

const iso = (d: Date) => d.toISOString().slice(0, 10);

/** Today as a UTC day (reports' days are UTC). */
export const todayUtc = (): string => iso(new Date());
const utc = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d));

/**
 * A preset's first and last day (UTC, inclusive), from `today`. `all` starts at the epoch (§9)
 * and, like every preset, ends today; `custom` takes from/to as given (either may be missing).
 */
export function rangeDates(preset: RangePreset, today: string, custom: { from?: string; to?: string } = {}): { from?: string; to: string } {
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const month = m - 1;
  switch (preset) {
    case 'this_month':
      return { from: iso(utc(y, month, 1)), to: today };
    case 'last_month':
      return { from: iso(utc(y, month - 1, 1)), to: iso(utc(y, month, 0)) };
    case 'last_90_days':
      return { from: iso(utc(y, month, d - 89)), to: today };
    case 'this_quarter':
      return { from: iso(utc(y, month - (month % 3), 1)), to: today };
    case 'this_year':
      return { from: iso(utc(y, 0, 1)), to: today };
    case 'last_12_months':
      return { from: iso(utc(y, month - 11, 1)), to: today };
    case 'all':
      return { to: today };
    case 'custom':
      return { ...(custom.from ? { from: custom.from } : {}), to: custom.to ?? today };
  }
}

/** The grain a range reads best in when the URL names none: ~7–90 points. */
export function defaultGrain(from: string | undefined, to: string): TimeGrain {
  if (!from) return 'month';
  const days = (Date.parse(to) - Date.parse(from)) / 86_400_000;
  if (days <= 45) return 'day';
  if (days <= 120) return 'week';
  if (days <= 1100) return 'month';
  return 'quarter';
}

/** Every bucket start from `from` to `to` for the grain, so a period without rows still shows (as zero). */
export function periodsBetween(from: string, to: string, grain: TimeGrain): string[] {
  if (grain === 'span') return [from];
  const out: string[] = [];
  let [y, m, d] = from.split('-').map(Number) as [number, number, number];
  // Align the start to its bucket.
  if (grain === 'week') {
    const t = utc(y, m - 1, d);
    t.setUTCDate(t.getUTCDate() - ((t.getUTCDay() + 6) % 7));
    [y, m, d] = [t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate()];
  } else if (grain !== 'day') {
    d = 1;
    if (grain === 'quarter') m -= (m - 1) % 3;
    if (grain === 'year') m = 1;
  }
  const cursor = utc(y, m - 1, d);
  const limit = 2000; // a day grain over years is cut rather than hanging the page
  while (iso(cursor) <= to && out.length < limit) {
    out.push(iso(cursor));
    if (grain === 'day') cursor.setUTCDate(cursor.getUTCDate() + 1);
    else if (grain === 'week') cursor.setUTCDate(cursor.getUTCDate() + 7);
    else if (grain === 'month') cursor.setUTCMonth(cursor.getUTCMonth() + 1);
    else if (grain === 'quarter') cursor.setUTCMonth(cursor.getUTCMonth() + 3);
    else cursor.setUTCFullYear(cursor.getUTCFullYear() + 1);
  }
  return out;
}

/** The currencies a report holds, the one with most rows first (what the charts show by default). */
export function currenciesOf(rows: readonly ReportRow[]): string[] {
  const counts = new Map<string, number>();
  for (const r of rows) if (r.currency) counts.set(r.currency, (counts.get(r.currency) ?? 0) + r.count);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([c]) => c);
}

/** Rows of one currency (counts carry none and are all kept). */
const inCurrency = (rows: readonly ReportRow[], currency: string | null) => rows.filter((r) => r.currency === null || r.currency === currency);

export interface Group {
  key: string | null;
  value: number;
  count: number;
}

/** The groups of a whole-range report, largest first, the rest folded into `other` beyond `top`. */
export function topGroups(rows: readonly ReportRow[], currency: string | null, top: number): { groups: Group[]; other: Group | null; total: number } {
  const byKey = new Map<string | null, Group>();
  for (const r of inCurrency(rows, currency)) {
    const g = byKey.get(r.key) ?? { key: r.key, value: 0, count: 0 };
    g.value += r.value;
    g.count += r.count;
    byKey.set(r.key, g);
  }
  const all = [...byKey.values()].sort((a, b) => b.value - a.value || b.count - a.count);
  const total = all.reduce((s, g) => s + g.value, 0);
  const groups = all.slice(0, top);
  const rest = all.slice(top);
  const other = rest.length === 0 ? null : rest.reduce<Group>((o, g) => ({ key: null, value: o.value + g.value, count: o.count + g.count }), { key: null, value: 0, count: 0 });
  return { groups, other, total };
}

export interface Series {
  key: string | null;
  values: number[];
  total: number;
}

/**
 * A time report as chart series: one per key (the `top` largest; the rest summed as one series
 * with key `other`), a value per period (zero where there were no rows). Averages are not
 * summable, so a report of averages keeps its `top` keys only.
 */
export function timeSeries(
  rows: readonly ReportRow[],
  periods: readonly string[],
  currency: string | null,
  top: number,
  measure: ReportMeasure,
): { series: (Series & { other?: boolean })[] } {
  const index = new Map(periods.map((p, i) => [p, i]));
  const byKey = new Map<string | null, Series>();
  for (const r of inCurrency(rows, currency)) {
    const i = index.get(r.period);
    if (i === undefined) continue;
    let s = byKey.get(r.key);
    if (!s) {
      s = { key: r.key, values: new Array<number>(periods.length).fill(0), total: 0 };
      byKey.set(r.key, s);
    }
    s.values[i] = (s.values[i] ?? 0) + r.value;
    s.total += measure === 'average' ? r.count : r.value;
  }
  const all = [...byKey.values()].sort((a, b) => b.total - a.total);
  const kept = all.slice(0, top);
  const rest = all.slice(top);
  if (rest.length === 0 || measure === 'average') return { series: kept };
  const other = { key: null, values: periods.map((_, i) => rest.reduce((s, x) => s + (x.values[i] ?? 0), 0)), total: rest.reduce((s, x) => s + x.total, 0), other: true };
  return { series: [...kept, other] };
}

/** The status tab of the reimbursements and bills lists that shows a status (their URL words). */
const CLAIM_TABS: Record<string, string> = { DRAFT: 'draft', SUBMITTED: 'submitted', APPROVED: 'approved', PAID: 'paid', REJECTED: 'rejected' };
const BILL_TABS: Record<string, string> = {
  DRAFT: 'drafts', PENDING_APPROVAL: 'pending', APPROVED: 'ready', SCHEDULED: 'scheduled', PAID: 'paid', RECONCILED: 'paid',
  PAYMENT_FAILED: 'failed', REJECTED: 'rejected', CANCELED: 'canceled',
};

/**
 * Where a click on a group (or a period) of a report leads: the matching rows in their table.
 * `range.currency`: the currency the figure clicked is of; the transactions list opens with its
 * Currency filter set, so its rows and total are the figure's (issue 25).
 */
export function drillDown(
  view: ReportView,
  dimension: ReportDimension,
  key: string | null,
  range: { from?: string; to: string; currency?: string | null },
  label?: string,
): { to: string; search: Record<string, string | boolean> } | null {
  const dates = { ...(range.from ? { from: range.from } : {}), to: range.to, ...(range.currency && view === 'transactions' ? { currency: range.currency } : {}) };
  if (view === 'transactions') {
    const spend = { ...dates, states: 'PENDING,CLEARED' };
    switch (dimension) {
      case 'none': return { to: '/transactions', search: spend };
      case 'department': return key ? { to: '/transactions', search: { ...spend, department_ids: key } } : null;
      case 'location': return key ? { to: '/transactions', search: { ...spend, location_ids: key } } : null;
      case 'user': return key ? { to: '/transactions', search: { ...spend, user_ids: key } } : null;
      case 'card': return key ? { to: '/transactions', search: { ...spend, card_ids: key } } : null;
      case 'gl_account': return key ? { to: '/transactions', search: { ...spend, gl_account_ids: key } } : { to: '/transactions', search: { ...spend, missing_coding: true } };
      case 'merchant': return key ? { to: '/transactions', search: { ...spend, merchant: key } } : null;
      case 'status': return key ? { to: '/transactions', search: { ...dates, states: key } } : null;
      default: return null;
    }
  }
  // The other lists filter by their status tabs (and bills by text, which covers the vendor's name).
  if (view === 'reimbursements') {
    const tab = key && CLAIM_TABS[key];
    return dimension === 'status' && tab ? { to: '/reimbursements', search: { status: tab } } : null;
  }
  if (view === 'bills') {
    const tab = key && BILL_TABS[key];
    if (dimension === 'status' && tab) return { to: '/bills', search: { status: tab } };
    if (dimension === 'vendor' && label) return { to: '/bills', search: { q: label } };
    return null;
  }
  if (dimension === 'status' && key) return { to: '/cards', search: { view: 'managed', statuses: key } };
  if (dimension === 'department' && key) return { to: '/cards', search: { view: 'managed', department_ids: key } };
  if (dimension === 'user' && key) return { to: '/cards', search: { view: 'managed', user_ids: key } };
  return null;
}

const monthShort = (locale: string) => new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' });
const dayShort = (locale: string) => new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** How a period reads on an axis and in a table: "Nov 27", "Week of Nov 23", "Nov 2026", "Q4 2026", "2026". */
export function periodLabel(period: string, grain: TimeGrain, locale = 'en-US'): string {
  const date = new Date(`${period}T00:00:00Z`);
  switch (grain) {
    case 'day': return dayShort(locale).format(date);
    case 'week': return `Week of ${dayShort(locale).format(date)}`;
    case 'month': return monthShort(locale).format(date);
    case 'quarter': return `Q${Math.floor(date.getUTCMonth() / 3) + 1} ${date.getUTCFullYear()}`;
    case 'year': return String(date.getUTCFullYear());
    case 'span': return 'Whole range';
  }
}

/** "PENDING_APPROVAL" → "Pending approval": a status word no list has its own label for. */
export const statusWords = (status: string): string => {
  const words = status.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** What a missing key means under a dimension ("No department", "Uncoded"…). */
export const NO_KEY_LABELS: Record<ReportDimension, string> = {
  none: 'Total',
  department: 'No department',
  location: 'No location',
  merchant: 'No merchant',
  gl_account: 'Uncoded',
  tracking_category: 'Not tracked',
  user: 'Nobody',
  card: 'No card',
  vendor: 'No vendor',
  status: 'No status',
};

/** A share of a total as "42%" ("<1%" for a sliver, "–" when there is no total). */
export function shareText(value: number, total: number): string {
  if (total === 0) return '–';
  const pct = (value / total) * 100;
  if (pct > 0 && pct < 1) return '<1%';
  return `${Math.round(pct)}%`;
}


/** The overview's tiles (issue 25): one currency's amount, count and average, and what they include. */
export { INCLUDED_TEXT, overviewTiles, type OverviewTiles } from '../../../schema/report-tiles.ts';
