import { z } from 'zod';
import { BILL_STATUSES, type Bill, type BillFilter, type BillSort, type BillStatus } from '../../schema/entities/bill.ts';
import type { BillQuery } from '../../schema/api/calls-bill-query.ts';
import { decodeCursor, encodeCursor } from '../core/cursor.ts';
import type { Queryable } from '../db/db.ts';
import { BILL_DOC } from './bills.ts';
import type { Page, PageRequest } from './newest-first-page.ts';
import { pageByIndex, type IndexPage, type IndexRequest } from './page-index.ts';
import { billFilterConditions } from './reporting/sources.ts';
import { ISO_US, keysetCondition, type Dir, type SortCol } from './transaction-sql.ts';

/**
 * Issue 32: the server-side bill query (§7 `bill-query-v2/list`, `/pagination`, the export job).
 * The filter is the worker's (`billFilterSchema`, in SQL once: reporting/sources.ts
 * `billFilterConditions`); the sorts are compareBills's, tie-breaks included, so a page here holds
 * the rows the Bills screen shows in the same order. Who reads: bill managers, the whole business
 * (as `bills.list`); the routes check that before any of this runs.
 */

const microIso = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
const DUE = (dir: Dir): SortCol => ({ expr: 'r.due_date', dir, cast: 'date', value: z.iso.date() });
const AMOUNT = (dir: Dir): SortCol => ({ expr: 'r.amount', dir, cast: 'int8', value: z.number().int().refine(Number.isSafeInteger) });
const CREATED: SortCol = { expr: 'r.created_at', dir: 'DESC', cast: 'timestamptz', value: microIso };
/** compareBills breaks every tie by id ascending. */
const ID: SortCol = { expr: 'r.id', dir: 'ASC', cast: 'uuid', value: z.uuid() };

const SORTS: Record<BillSort, SortCol[]> = {
  due_date_asc: [DUE('ASC'), ID],
  due_date_desc: [DUE('DESC'), ID],
  amount_desc: [AMOUNT('DESC'), DUE('ASC'), ID],
  amount_asc: [AMOUNT('ASC'), DUE('ASC'), ID],
  created_desc: [CREATED, ID],
};

/** The cursor text of a sort column (timestamps to the microsecond, dates as ISO days). */
const keyText = (c: SortCol) => (c.cast === 'timestamptz' ? ISO_US(c.expr) : c.cast === 'date' ? `${c.expr}::text` : c.cast === 'uuid' ? `${c.expr}::text` : c.expr);

/** The business's live bills matching `filter`, as conditions over alias `r` with their params. */
function billWhere(businessId: string, filter: BillFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [businessId];
  const conds = ['r.business_id = $1', 'NOT r.deleted', ...billFilterConditions(filter, params)];
  return { where: conds.join(' AND '), params };
}

/** A keyset page in the query's sort; a zero-size page answers the count only (§7). */
export async function billQueryPage(db: Queryable, businessId: string, query: BillQuery, req: PageRequest): Promise<Page<Bill>> {
  const cols = SORTS[query.sort];
  const { where, params } = billWhere(businessId, query.filters);
  const wantCount = req.includeCount || req.pageSize === 0;
  const total = wantCount
    ? Number((await db.query<{ n: number }>(`SELECT count(*) AS n FROM bills r WHERE ${where}`, [...params]))[0]?.n ?? 0)
    : undefined;
  if (req.pageSize === 0) return { data: [], page: { next: null }, total_count: total };
  let pageWhere = where;
  if (req.start) {
    const values = decodeCursor(req.start, `bills:${query.sort}`, z.tuple(cols.map((c) => c.value) as [z.ZodType]));
    pageWhere += ` AND ${keysetCondition(cols, values, params)}`;
  }
  params.push(req.pageSize + 1);
  const rows = await db.query<{ doc: Bill } & Record<string, unknown>>(
    `SELECT ${BILL_DOC} AS doc, ${cols.map((c, i) => `${keyText(c)} AS k${i}`).join(', ')} FROM bills r
      WHERE ${pageWhere} ORDER BY ${cols.map((c) => `${c.expr} ${c.dir}`).join(', ')} LIMIT $${params.length}`,
    params,
  );
  const more = rows.length > req.pageSize;
  const page = more ? rows.slice(0, req.pageSize) : rows;
  const last = page.at(-1);
  const next = more && last ? encodeCursor(`bills:${query.sort}`, cols.map((_, i) => last[`k${i}`] as string | number)) : null;
  return { data: page.map((r) => r.doc), page: { next }, ...(total === undefined ? {} : { total_count: total }) };
}

/** The statuses a query's totals add up: the filter's, or every status but CANCELED. */
export const totalledStatuses = (filter: BillFilter): BillStatus[] =>
  filter.statuses?.length ? BILL_STATUSES.filter((s) => filter.statuses!.includes(s)) : BILL_STATUSES.filter((s) => s !== 'CANCELED');

export type BillTotals = { statuses: BillStatus[]; by_currency: { currency: string; amount: number; count: number }[] };

/** The matching bills' sums per currency, over the statuses totalledStatuses names. */
export async function billTotals(db: Queryable, businessId: string, filter: BillFilter): Promise<BillTotals> {
  const { where, params } = billWhere(businessId, filter);
  const statuses = totalledStatuses(filter);
  const rows = await db.query<{ currency: string; amount: number | string; count: number }>(
    `SELECT r.currency, sum(r.amount)::int8 AS amount, count(*)::int AS count FROM bills r
      WHERE ${where} AND r.status = ANY($${params.push(statuses)}::text[]) GROUP BY r.currency ORDER BY r.currency`,
    params,
  );
  return { statuses, by_currency: rows.map((r) => ({ currency: r.currency, amount: Number(r.amount), count: Number(r.count) })) };
}

/** §5 page-index form: the clamped page, the count and the totals. */
export async function billQueryByIndex(
  db: Queryable, businessId: string, query: BillQuery, req: IndexRequest,
): Promise<IndexPage<Bill> & { totals: BillTotals }> {
  const { where, params } = billWhere(businessId, query.filters);
  const orderBy = SORTS[query.sort].map((c) => `${c.expr} ${c.dir}`).join(', ');
  const page = await pageByIndex<Bill>(db, { from: 'bills r', doc: BILL_DOC, where, params, orderBy }, req);
  return { ...page, totals: await billTotals(db, businessId, query.filters) };
}
