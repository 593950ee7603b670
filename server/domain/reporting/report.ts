import {
  averageOf, compareReportRows, REPORT_SPECS, REPORTED_BILL_STATUSES, REPORTED_CARD_STATUSES, REPORTED_CLAIM_STATUSES,
  reportRange, SPEND_TRANSACTION_STATES, type ReportCollection, type ReportDimension, type ReportQuery, type ReportRow,
  type TimeGrain,
} from '../../../schema/reports.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { rowSource } from './sources.ts';

/**
 * `generate-report-from-query` in SQL (issue 12): the same rows as schema/reports.ts
 * `aggregateReport` over the same data (report-agreement.test.ts holds them to it), computed by
 * one GROUP BY over the collection's table with its filters and the caller's visibility: sums and
 * counts in SQL, the average from them with the shared `averageOf`, the order `compareReportRows`.
 * A month × department report over 100k transactions is one range scan of transactions_newest.
 */

/** More groups than this is a report nobody can read: narrow the range or choose a coarser grain. */
export const MAX_REPORT_ROWS = 20_000;

/** How one collection's REPORT_SPECS entry reads in SQL (alias `r`; a bill's lines `li`). */
interface SqlSpec {
  /** The report date's UTC day, as a date. */
  day: string;
  /** Range conditions on the indexed column, for `$from` / `$to` inclusive UTC days. */
  range: (from: string, to: string) => string;
  status: string;
  counted: readonly string[];
  amount: string;
  currency: string;
  keys: Partial<Record<ReportDimension, string>>;
  /** Dimensions under which each line is its own part (the bill's coding is per line). */
  byLine?: readonly ReportDimension[];
  lineAmount?: string;
}

const timestampRange = (col: string) => (from: string, to: string) =>
  `${col} >= (${from}::date)::timestamp AT TIME ZONE 'UTC' AND ${col} < (${to}::date + 1)::timestamp AT TIME ZONE 'UTC'`;
const dateRange = (col: string) => (from: string, to: string) => `${col} BETWEEN ${from}::date AND ${to}::date`;
/** `(tc && row.tracking[tc]) || null` of the spec; TC is the tracking category's parameter. */
const TRACKING = (alias: string) => `nullif(${alias}.tracking ->> $TC, '')`;

const SQL_SPECS: Record<ReportCollection, SqlSpec> = {
  transactions: {
    day: `(r.occurred_at AT TIME ZONE 'UTC')::date`,
    range: timestampRange('r.occurred_at'),
    status: 'r.state',
    counted: SPEND_TRANSACTION_STATES,
    amount: 'r.amount',
    currency: 'r.currency',
    keys: {
      department: 'r.department_id::text', location: 'r.location_id::text', merchant: 'r.merchant_name',
      gl_account: 'r.gl_account_id::text', tracking_category: TRACKING('r'), user: 'r.user_id::text', card: 'r.card_id::text',
      status: 'r.state',
    },
  },
  reimbursements: {
    day: 'r.transaction_date',
    range: dateRange('r.transaction_date'),
    status: 'r.status',
    counted: REPORTED_CLAIM_STATUSES,
    amount: 'r.amount',
    currency: 'r.currency',
    keys: {
      department: 'r.department_id::text', merchant: 'r.merchant', gl_account: 'r.gl_account_id::text', user: 'r.user_id::text',
      status: 'r.status',
    },
  },
  bills: {
    day: 'r.invoice_date',
    range: dateRange('r.invoice_date'),
    status: 'r.status',
    counted: REPORTED_BILL_STATUSES,
    amount: 'r.amount',
    currency: 'r.currency',
    keys: {
      department: 'li.department_id::text', location: 'li.location_id::text', gl_account: 'li.gl_account_id::text',
      tracking_category: TRACKING('li'), user: 'r.created_by::text', vendor: 'r.vendor_id::text', status: 'r.status',
    },
    byLine: ['department', 'location', 'gl_account', 'tracking_category'],
    lineAmount: 'li.amount',
  },
  cards: {
    day: `(r.created_at AT TIME ZONE 'UTC')::date`,
    range: timestampRange('r.created_at'),
    status: 'r.status',
    counted: REPORTED_CARD_STATUSES,
    amount: 'r.limit_amount',
    currency: 'r.limit_currency',
    keys: { department: 'r.department_id::text', location: 'r.location_id::text', user: 'r.user_id::text', status: 'r.status' },
  },
};

/** The bucket's first day (schema bucketStart): weeks from Monday, as date_trunc('week') counts them. */
function bucketSql(day: string, grain: TimeGrain, fromParam: string): string {
  if (grain === 'day') return day;
  if (grain === 'span') return `${fromParam}::date`;
  return `date_trunc('${grain}', (${day})::timestamp)::date`;
}

/** The report for `user` (their visible rows only); `now` fixes §9's default to-date. */
export async function generateReport(db: Queryable, user: ActingUser, q: ReportQuery, now: Date): Promise<ReportRow[]> {
  const spec = SQL_SPECS[q.collection];
  if (!REPORT_SPECS[q.collection].dimensions.includes(q.dimension)) {
    throw new ApiError('REQUEST_7001', `${q.collection} cannot be grouped by ${q.dimension}`);
  }
  const source = await rowSource(db, user, q.collection, q.filters);
  const params = source.params;
  const { from, to } = reportRange(q, now);
  const fromParam = `$${params.push(from)}`;
  const toParam = `$${params.push(to)}`;
  const split = spec.byLine?.includes(q.dimension) ?? false;
  let key = q.dimension === 'none' ? 'NULL::text' : spec.keys[q.dimension]!;
  if (key.includes('$TC')) key = key.replace('$TC', `$${params.push(q.tracking_category_id ?? '')}`);
  const currency = q.measure === 'count' ? 'NULL::text' : spec.currency;
  const amount = split ? spec.lineAmount! : spec.amount;
  // A split bill counts once per group it reaches, however many of its lines land there.
  const count = split ? 'count(DISTINCT r.id)' : 'count(*)';
  const fromSql = split ? `${source.from} JOIN bill_line_items li ON li.bill_id = r.id` : source.from;
  const where = [
    source.where,
    `${spec.status} = ANY($${params.push(spec.counted)}::text[])`,
    spec.range(fromParam, toParam),
  ].join(' AND ');
  params.push(MAX_REPORT_ROWS + 1);
  const rows = await db.query<{ period: string; key: string | null; currency: string | null; sum: string; n: number | string }>(
    `SELECT to_char(${bucketSql(spec.day, q.time_grain, fromParam)}, 'YYYY-MM-DD') AS period, ${key} AS key, ${currency} AS currency,
            sum(${amount})::text AS sum, ${count} AS n
       FROM ${fromSql} WHERE ${where}
      GROUP BY 1, 2, 3 LIMIT $${params.length}`,
    params,
  );
  if (rows.length > MAX_REPORT_ROWS) {
    throw new ApiError(
      'REQUEST_7001',
      `This report has more than ${MAX_REPORT_ROWS.toLocaleString('en-US')} rows; narrow the dates or choose a coarser time grain.`,
    );
  }
  return rows.map((r) => toReportRow(r, q.measure)).sort(compareReportRows);
}

function toReportRow(r: { period: string; key: string | null; currency: string | null; sum: string; n: number | string }, measure: ReportQuery['measure']): ReportRow {
  const sum = Number(r.sum);
  const count = Number(r.n);
  const value = measure === 'count' ? count : measure === 'sum' ? sum : averageOf(sum, count);
  return { period: r.period, key: r.key, currency: r.currency, value, count };
}
