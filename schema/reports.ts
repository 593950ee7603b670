import { z } from 'zod';
import { ENTITIES, type RowOf } from './collections.ts';
import {
  REPORT_EPOCH, reportQueryBaseSchema, type ReportCollection, type ReportDimension, type TimeGrain,
} from './report-query.ts';

/**
 * Reports, defined once (issue 12): what a report asks (collection × time grain × one dimension ×
 * measure, with the collection's table filters), which rows count as spend, how a row falls into
 * a period and a group, and the aggregation itself. The worker runs `aggregateReport` over the
 * mirror (live, offline); the server answers `generate-report-from-query` in SQL and its tests
 * prove both give the same rows for the same data. §9: the default range is from the epoch to
 * now, and the interval (one bucket) is the whole span.
 */

// The query's words live in report-query.ts (a saved report's entity holds a query; see there).
export {
  REPORT_COLLECTIONS, REPORT_DIMENSIONS, REPORT_EPOCH, REPORT_MEASURES, TIME_GRAINS, reportQueryBaseSchema,
  type ReportCollection, type ReportDimension, type ReportMeasure, type TimeGrain,
} from './report-query.ts';

const isoDay = z.iso.date();

/** A report query as the API and the worker take it; dimension and collection must fit. */
export const reportQuerySchema = reportQueryBaseSchema.superRefine((q, ctx) => {
  if (!REPORT_SPECS[q.collection].dimensions.includes(q.dimension)) {
    ctx.addIssue({
      code: 'custom',
      path: ['dimension'],
      message: `${q.collection} cannot be grouped by ${q.dimension}; choose one of ${REPORT_SPECS[q.collection].dimensions.join(', ')}`,
    });
  }
  if (q.dimension === 'tracking_category' && !q.tracking_category_id) {
    ctx.addIssue({ code: 'custom', path: ['tracking_category_id'], message: 'tracking_category_id is required to group by tracking category' });
  }
  if (q.from && q.to && q.from > q.to) {
    ctx.addIssue({ code: 'custom', path: ['from'], message: 'from must be on or before to' });
  }
  if (q.filters) {
    const parsed = ENTITIES[q.collection].query.filter.safeParse(q.filters);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: 'custom', path: ['filters', ...issue.path] });
    }
  }
});
export type ReportQuery = z.infer<typeof reportQuerySchema>;

/** One result row: `period` is the bucket's first day (UTC), `key` the dimension's id (or name). */
export const reportRowSchema = z.object({
  period: isoDay,
  key: z.string().nullable(),
  /** null for counts, which are over rows whatever their currency. */
  currency: z.string().nullable(),
  /** Minor units for sums and averages; a number of rows for counts. */
  value: z.number().int(),
  /** How many rows make the value (what an average divides by). */
  count: z.number().int().nonnegative(),
});
export type ReportRow = z.infer<typeof reportRowSchema>;

export const reportResultSchema = z.object({ rows: z.array(reportRowSchema) });
export type ReportResult = z.infer<typeof reportResultSchema>;

/** A part of a row that falls into one group: a bill's line, or the whole row. */
export interface ReportPart {
  key: string | null;
  amount: number;
}

/** How one collection is reported; every field is what both the worker and the server's SQL follow. */
export interface ReportSpec<R> {
  /** The row's report date as an ISO date or date-time (its UTC day is the one that counts). */
  date: (row: R) => string;
  /** The date field's name (the server's SQL reads the same column). */
  dateField: string;
  money: (row: R) => { amount: number; currency: string };
  /** Whether the row counts at all (spend: not declined, not a draft…). */
  counts: (row: R) => boolean;
  dimensions: readonly ReportDimension[];
  /** The row's parts under a dimension (one part unless the row is split, as a bill's lines are). */
  parts: (row: R, dimension: ReportDimension, trackingCategoryId: string | undefined) => ReportPart[];
}

type Tx = RowOf<'transactions'>;
type Claim = RowOf<'reimbursements'>;
type Bill = RowOf<'bills'>;
type Card = RowOf<'cards'>;

/** §7 / issue 12: spend is what was authorised and not undone. */
export const SPEND_TRANSACTION_STATES: readonly Tx['state'][] = ['PENDING', 'CLEARED'];
/** A claim counts once submitted, unless it was turned down or withdrawn. */
export const REPORTED_CLAIM_STATUSES: readonly Claim['status'][] = ['SUBMITTED', 'APPROVED', 'PAID'];
/** A bill counts once submitted, unless it was rejected or canceled. */
export const REPORTED_BILL_STATUSES: readonly Bill['status'][] = [
  'PENDING_APPROVAL', 'APPROVED', 'SCHEDULED', 'PAID', 'RECONCILED', 'PAYMENT_FAILED',
];
/** A card counts unless terminated. */
export const REPORTED_CARD_STATUSES: readonly Card['status'][] = ['REQUESTED', 'SHIPPED', 'ACTIVE', 'LOCKED', 'SUSPENDED'];

const whole = (key: string | null, amount: number): ReportPart[] => [{ key, amount }];

const transactionSpec: ReportSpec<Tx> = {
  date: (t) => t.occurred_at,
  dateField: 'occurred_at',
  money: (t) => ({ amount: t.amount, currency: t.currency }),
  counts: (t) => SPEND_TRANSACTION_STATES.includes(t.state),
  dimensions: ['none', 'department', 'location', 'merchant', 'gl_account', 'tracking_category', 'user', 'card', 'status'],
  parts: (t, d, tc) => {
    switch (d) {
      case 'department': return whole(t.department_id, t.amount);
      case 'location': return whole(t.location_id, t.amount);
      case 'merchant': return whole(t.merchant_name, t.amount);
      case 'gl_account': return whole(t.gl_account_id, t.amount);
      case 'tracking_category': return whole((tc && t.tracking[tc]) || null, t.amount);
      case 'user': return whole(t.user_id, t.amount);
      case 'card': return whole(t.card_id, t.amount);
      case 'status': return whole(t.state, t.amount);
      default: return whole(null, t.amount);
    }
  },
};

const claimSpec: ReportSpec<Claim> = {
  date: (r) => r.transaction_date,
  dateField: 'transaction_date',
  money: (r) => ({ amount: r.amount, currency: r.currency }),
  counts: (r) => REPORTED_CLAIM_STATUSES.includes(r.status),
  dimensions: ['none', 'department', 'merchant', 'gl_account', 'user', 'status'],
  parts: (r, d) => {
    switch (d) {
      case 'department': return whole(r.department_id, r.amount);
      case 'merchant': return whole(r.merchant, r.amount);
      case 'gl_account': return whole(r.gl_account_id, r.amount);
      case 'user': return whole(r.user_id, r.amount);
      case 'status': return whole(r.status, r.amount);
      default: return whole(null, r.amount);
    }
  },
};

/** A bill's coding is per line: grouped by a coding dimension, each line goes to its own group. */
const byLine = (b: Bill, key: (l: Bill['line_items'][number]) => string | null): ReportPart[] =>
  b.line_items.map((l) => ({ key: key(l), amount: l.amount }));

const billSpec: ReportSpec<Bill> = {
  date: (b) => b.invoice_date,
  dateField: 'invoice_date',
  money: (b) => ({ amount: b.amount, currency: b.currency }),
  counts: (b) => REPORTED_BILL_STATUSES.includes(b.status),
  dimensions: ['none', 'department', 'location', 'gl_account', 'tracking_category', 'user', 'vendor', 'status'],
  parts: (b, d, tc) => {
    switch (d) {
      case 'department': return byLine(b, (l) => l.department_id);
      case 'location': return byLine(b, (l) => l.location_id);
      case 'gl_account': return byLine(b, (l) => l.gl_account_id);
      case 'tracking_category': return byLine(b, (l) => (tc && l.tracking[tc]) || null);
      case 'user': return whole(b.created_by, b.amount);
      case 'vendor': return whole(b.vendor_id, b.amount);
      case 'status': return whole(b.status, b.amount);
      default: return whole(null, b.amount);
    }
  },
};

const cardSpec: ReportSpec<Card> = {
  date: (c) => c.created_at,
  dateField: 'created_at',
  // A card's money is its spending limit.
  money: (c) => ({ amount: c.limit.amount, currency: c.limit.currency }),
  counts: (c) => REPORTED_CARD_STATUSES.includes(c.status),
  dimensions: ['none', 'department', 'location', 'user', 'status'],
  parts: (c, d) => {
    switch (d) {
      case 'department': return whole(c.department_id, c.limit.amount);
      case 'location': return whole(c.location_id, c.limit.amount);
      case 'user': return whole(c.user_id, c.limit.amount);
      case 'status': return whole(c.status, c.limit.amount);
      default: return whole(null, c.limit.amount);
    }
  },
};

export type ReportRowOf<C extends ReportCollection> = RowOf<C>;

export const REPORT_SPECS: { readonly [C in ReportCollection]: ReportSpec<RowOf<C>> } = {
  transactions: transactionSpec,
  reimbursements: claimSpec,
  bills: billSpec,
  cards: cardSpec,
};

/** The UTC day (YYYY-MM-DD) of an ISO date or date-time. */
export function utcDay(value: string): string {
  if (value.length === 10) return value;
  if (value.endsWith('Z')) return value.slice(0, 10);
  const t = Date.parse(value);
  return Number.isNaN(t) ? value.slice(0, 10) : new Date(t).toISOString().slice(0, 10);
}

const DAY_MS = 86_400_000;

/**
 * The first day of the bucket holding `day` (UTC): weeks start on Monday (ISO 8601, as
 * PostgreSQL's date_trunc('week')), quarters on Jan/Apr/Jul/Oct 1; `span` buckets start at `from`.
 */
export function bucketStart(day: string, grain: TimeGrain, from: string = REPORT_EPOCH): string {
  switch (grain) {
    case 'day':
      return day;
    case 'month':
      return `${day.slice(0, 7)}-01`;
    case 'year':
      return `${day.slice(0, 4)}-01-01`;
    case 'quarter': {
      const month = Number(day.slice(5, 7));
      const first = month - ((month - 1) % 3);
      return `${day.slice(0, 4)}-${String(first).padStart(2, '0')}-01`;
    }
    case 'week': {
      const t = Date.parse(`${day}T00:00:00Z`);
      const weekday = (new Date(t).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
      return new Date(t - weekday * DAY_MS).toISOString().slice(0, 10);
    }
    case 'span':
      return from;
  }
}

/** A report's range: §9's defaults (the epoch, today in UTC). */
export function reportRange(q: Pick<ReportQuery, 'from' | 'to'>, now: Date = new Date()): { from: string; to: string } {
  return { from: q.from ?? REPORT_EPOCH, to: q.to ?? now.toISOString().slice(0, 10) };
}

/**
 * An average in whole minor units: the sum over the count, rounded half away from zero
 * (PostgreSQL's round(numeric)), so the worker and the server agree to the unit.
 */
export function averageOf(sum: number, count: number): number {
  if (count === 0) return 0;
  const q = Math.abs(sum) / count;
  const r = Math.floor(q + 0.5);
  return sum < 0 ? -r : r;
}

/** The order of a report's rows: period, then key (no key last), then currency. */
export function compareReportRows(a: ReportRow, b: ReportRow): number {
  if (a.period !== b.period) return a.period < b.period ? -1 : 1;
  if (a.key !== b.key) {
    if (a.key === null) return 1;
    if (b.key === null) return -1;
    return a.key < b.key ? -1 : 1;
  }
  const ac = a.currency ?? '';
  const bc = b.currency ?? '';
  return ac === bc ? 0 : ac < bc ? -1 : 1;
}

interface Group {
  period: string;
  key: string | null;
  currency: string | null;
  sum: number;
  count: number;
}

/**
 * The report over rows the collection's filters already matched (the worker's query engine and
 * the server's SQL filter them the same way). Rows outside the range or not counting are skipped.
 * Counts are per row and group, whatever the currency; sums and averages one row per currency.
 */
export function aggregateReport<C extends ReportCollection>(
  rows: Iterable<RowOf<C>>,
  q: Omit<ReportQuery, 'filters'> & { collection: C },
  now: Date = new Date(),
): ReportRow[] {
  const spec = REPORT_SPECS[q.collection] as ReportSpec<RowOf<C>>;
  const { from, to } = reportRange(q, now);
  const perCurrency = q.measure !== 'count';
  const groups = new Map<string, Group>();
  // Many rows share a day: the bucket is computed once per distinct day.
  const buckets = new Map<string, string>();
  for (const row of rows) {
    if (!spec.counts(row)) continue;
    const day = utcDay(spec.date(row));
    if (day < from || day > to) continue;
    let period = buckets.get(day);
    if (period === undefined) {
      period = bucketStart(day, q.time_grain, from);
      buckets.set(day, period);
    }
    const currency = perCurrency ? spec.money(row).currency : null;
    const parts = spec.parts(row, q.dimension, q.tracking_category_id);
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      // A split row counts once per group it reaches, however many of its lines land there.
      if (i > 0 && parts.slice(0, i).some((p) => p.key === part.key)) {
        groups.get(groupKey(period, part.key, currency))!.sum += part.amount;
        continue;
      }
      const id = groupKey(period, part.key, currency);
      const g = groups.get(id);
      if (g) {
        g.sum += part.amount;
        g.count += 1;
      } else groups.set(id, { period, key: part.key, currency, sum: part.amount, count: 1 });
    }
  }
  const out: ReportRow[] = [];
  for (const g of groups.values()) {
    const value = q.measure === 'count' ? g.count : q.measure === 'sum' ? g.sum : averageOf(g.sum, g.count);
    out.push({ period: g.period, key: g.key, currency: g.currency, value, count: g.count });
  }
  return out.sort(compareReportRows);
}

const groupKey = (period: string, key: string | null, currency: string | null) =>
  `${period}\u0000${key ?? '\u0001'}\u0000${currency ?? ''}`;
