import { z } from 'zod';
import { queryTerms, type TransactionFilter, type TransactionSort } from '../../schema/transaction-query.ts';
import type { Queryable } from '../db/db.ts';
import { COLLECTIONS, writeMirrored } from './collections.ts';
import { decodeCursor, encodeCursor } from '../core/cursor.ts';
import type { Visibility } from './visibility.ts';
import { visibleUsersClause } from './visibility.ts';

/**
 * Transaction filtering, sorting and keyset paging in SQL, meaning exactly what
 * schema/transaction-query.ts means on the client (same filter fields, same sort tie-breaks).
 */

export type Dir = 'ASC' | 'DESC';
export type SortCol = { expr: string; dir: Dir; cast: string; value: z.ZodType };

const microIso = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
const OCCURRED = (dir: Dir): SortCol => ({ expr: 'r.occurred_at', dir, cast: 'timestamptz', value: microIso });
const ID = (dir: Dir): SortCol => ({ expr: 'r.id', dir, cast: 'uuid', value: z.uuid() });
const AMOUNT = (dir: Dir): SortCol => ({ expr: 'r.amount', dir, cast: 'int8', value: z.number().int().refine(Number.isSafeInteger) });
const MERCHANT: SortCol = { expr: 'r.merchant_name', dir: 'ASC', cast: 'text', value: z.string() };

/** Ties break newest first, then by id, as compareTransactions does. */
const SORTS: Record<TransactionSort, SortCol[]> = {
  occurred_desc: [OCCURRED('DESC'), ID('DESC')],
  occurred_asc: [OCCURRED('ASC'), ID('ASC')],
  amount_desc: [AMOUNT('DESC'), OCCURRED('DESC'), ID('DESC')],
  amount_asc: [AMOUNT('ASC'), OCCURRED('DESC'), ID('DESC')],
  merchant_asc: [MERCHANT, OCCURRED('DESC'), ID('DESC')],
};

/** LIKE treats % _ and \ specially; a search term is literal text. */
export const escapeLike = (term: string) => term.replace(/[\\%_]/g, (m) => `\\${m}`);

const utcDay = (p: number) => `(($${p}::date)::timestamp AT TIME ZONE 'UTC')`;

/** WHERE conditions (joined with AND) for a filter; values are pushed onto params. */
export function filterConditions(f: TransactionFilter, params: unknown[]): string[] {
  const out: string[] = [];
  const add = (value: unknown, sql: (p: number) => string) => {
    params.push(value);
    out.push(sql(params.length));
  };
  // Every term must appear somewhere in the maintained search text (AND of ILIKE-style matches;
  // search_text and terms are both lower-case, so plain LIKE suffices).
  for (const term of queryTerms(f.q)) add(`%${escapeLike(term)}%`, (p) => `r.search_text LIKE $${p}`);
  if (f.user_ids?.length) add(f.user_ids, (p) => `r.user_id = ANY($${p}::uuid[])`);
  if (f.card_ids?.length) add(f.card_ids, (p) => `r.card_id = ANY($${p}::uuid[])`);
  if (f.department_ids?.length) add(f.department_ids, (p) => `r.department_id = ANY($${p}::uuid[])`);
  if (f.location_ids?.length) add(f.location_ids, (p) => `r.location_id = ANY($${p}::uuid[])`);
  if (f.gl_account_ids?.length) add(f.gl_account_ids, (p) => `r.gl_account_id = ANY($${p}::uuid[])`);
  if (f.merchant !== undefined) add(f.merchant, (p) => `r.merchant_name = $${p}`);
  if (f.states?.length) add(f.states, (p) => `r.state = ANY($${p}::text[])`);
  if (f.currency !== undefined) add(f.currency, (p) => `r.currency = $${p}`);
  if (f.amount_min !== undefined) add(f.amount_min, (p) => `r.amount >= $${p}`);
  if (f.amount_max !== undefined) add(f.amount_max, (p) => `r.amount <= $${p}`);
  if (f.from) add(f.from, (p) => `r.occurred_at >= ${utcDay(p)}`);
  if (f.to) add(f.to, (p) => `r.occurred_at < ${utcDay(p)} + interval '1 day'`);
  if (f.missing_coding === true) out.push('r.gl_account_id IS NULL');
  if (f.missing_coding === false) out.push('r.gl_account_id IS NOT NULL');
  const hasReceipt = `EXISTS (SELECT 1 FROM transaction_receipts tr JOIN receipts rc ON rc.id = tr.receipt_id
    WHERE tr.transaction_id = r.id AND NOT rc.deleted)`;
  if (f.missing_receipt === true) out.push(`NOT ${hasReceipt}`);
  if (f.missing_receipt === false) out.push(hasReceipt);
  if (f.held === true) out.push(`r.fraud_status = 'FLAGGED'`);
  if (f.held === false) out.push(`r.fraud_status IS DISTINCT FROM 'FLAGGED'`);
  return out;
}

/**
 * "After the cursor row" for a mixed-direction sort: (a > x) OR (a = x AND b < y) OR ...
 * When every column runs the same way a row comparison says the same and uses the index.
 */
export function keysetCondition(cols: SortCol[], values: unknown[], params: unknown[]): string {
  const refs = cols.map((col, i) => {
    params.push(values[i]);
    return `$${params.length}::${col.cast}`;
  });
  if (cols.every((c) => c.dir === cols[0]!.dir)) {
    const op = cols[0]!.dir === 'DESC' ? '<' : '>';
    return `(${cols.map((c) => c.expr).join(', ')}) ${op} (${refs.join(', ')})`;
  }
  const ors = cols.map((col, i) => {
    const eqs = cols.slice(0, i).map((c, j) => `${c.expr} = ${refs[j]}`);
    return `(${[...eqs, `${col.expr} ${col.dir === 'DESC' ? '<' : '>'} ${refs[i]}`].join(' AND ')})`;
  });
  return `(${ors.join(' OR ')})`;
}

export type TransactionPageRequest = {
  filter: TransactionFilter;
  sort: TransactionSort;
  pageSize: number;
  start?: string | undefined;
  includeCount: boolean;
};

export async function queryTransactions(db: Queryable, businessId: string, vis: Visibility, req: TransactionPageRequest) {
  const cols = SORTS[req.sort];
  const params: unknown[] = [businessId];
  const base = ['r.business_id = $1', 'NOT r.deleted', ...filterConditions(req.filter, params)];
  const where = base.join(' AND ') + visibleUsersClause(vis, 'r', params);
  // Issue 33: a team (several people) by date walks each person's transactions_user index.
  const team = !vis.all && vis.userIds.length > 1 && cols[0]!.expr === 'r.occurred_at' ? params.length : null;
  const wantCount = req.includeCount || req.pageSize === 0;
  const total = wantCount ? await countWhere(db, where, [...params]) : undefined;
  if (req.pageSize === 0) return { data: [], page: { next: null }, total_count: total };

  let pageWhere = where;
  let keyset = '';
  if (req.start) {
    const values = decodeCursor(req.start, req.sort, z.tuple(cols.map((c) => c.value) as [z.ZodType]), 'start');
    keyset = ` AND ${keysetCondition(cols, values, params)}`;
    pageWhere += keyset;
  }
  params.push(req.pageSize + 1);
  const order = cols.map((c) => `${c.expr} ${c.dir}`).join(', ');
  const limit = `$${params.length}`;
  if (team !== null) pageWhere = `r.id IN (${perPersonPage(base.join(' AND ') + keyset, team, order, limit)})`;
  const keys = cols.map((c, i) => (c.cast === 'timestamptz' ? `${ISO_US(c.expr)} AS k${i}` : `${c.expr} AS k${i}`));
  const rows = await db.query<Record<string, unknown> & { doc: unknown }>(
    `SELECT ${COLLECTIONS.transactions.docSql} AS doc, ${keys.join(', ')} FROM transactions r
      WHERE ${pageWhere} ORDER BY ${order} LIMIT ${limit}`,
    params,
  );
  const more = rows.length > req.pageSize;
  const page = more ? rows.slice(0, req.pageSize) : rows;
  const last = page.at(-1);
  const next = more && last ? encodeCursor(req.sort, cols.map((_, i) => last[`k${i}`] as string | number)) : null;
  return { data: page.map((r) => r.doc), page: { next }, ...(total === undefined ? {} : { total_count: total }) };
}

/**
 * The ids of a team's page by date (issue 33): each person's first `limit` rows down
 * transactions_user (business_id, user_id, occurred_at DESC, id DESC), the best `limit` of those.
 * `user_id = ANY(team)` left the planner two plans, reading the business's newest-first index and
 * dropping everyone else's rows, or fetching every row of the team and sorting them: both grow
 * with the table. `team` is the parameter number of the team's ids.
 */
function perPersonPage(where: string, team: number, order: string, limit: string): string {
  return `SELECT r.id FROM unnest($${team}::uuid[]) AS v(user_id) CROSS JOIN LATERAL (
      SELECT r.id, r.occurred_at FROM transactions r WHERE ${where} AND r.user_id = v.user_id ORDER BY ${order} LIMIT ${limit}) r
    ORDER BY ${order} LIMIT ${limit}`;
}

/** Microsecond ISO text: cursors must round-trip the stored timestamp exactly. */
export const ISO_US = (expr: string) => `to_char(${expr} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

async function countWhere(db: Queryable, where: string, params: unknown[]): Promise<number> {
  const rows = await db.query<{ n: number }>(`SELECT count(*) AS n FROM transactions r WHERE ${where}`, params);
  return Number(rows[0]?.n ?? 0);
}

/** One visible, live transaction as its wire doc (FOR UPDATE inside writes), or null. */
export async function findTransaction(
  db: Queryable,
  businessId: string,
  vis: Visibility,
  id: string,
  lock = false,
): Promise<Record<string, unknown> | null> {
  const params: unknown[] = [businessId, id];
  const rows = await db.query<{ doc: Record<string, unknown> }>(
    `SELECT ${COLLECTIONS.transactions.docSql} AS doc FROM transactions r
      WHERE r.business_id = $1 AND r.id = $2 AND NOT r.deleted${visibleUsersClause(vis, 'r', params)}${lock ? ' FOR UPDATE' : ''}`,
    params,
  );
  return rows[0]?.doc ?? null;
}

/**
 * Stamps transactions with fresh change seqs (receipts attached or detached: the wire doc's
 * `receipt_ids` changed), so the feed carries them. Inside `tx`, through writeMirrored.
 */
export async function touchTransactions(tx: Queryable, businessId: string, ids: readonly string[]): Promise<number | null> {
  if (ids.length === 0) return null;
  return writeMirrored(tx, businessId, ids.length, async ({ seqs }) => {
    await tx.query(
      `UPDATE transactions r SET change_seq = $3 + src.ord - 1, updated_at = now()
         FROM unnest($2::uuid[]) WITH ORDINALITY AS src(id, ord)
        WHERE r.business_id = $1 AND r.id = src.id`,
      [businessId, ids, seqs.first],
    );
    return seqs.last;
  });
}
