import { z } from 'zod';
import { decodeCursor, encodeCursor } from '../core/cursor.ts';
import type { Queryable } from '../db/db.ts';

/** A §7 page request (page_size, start cursor, include_count). */
export type PageRequest = { pageSize: number; start?: string | undefined; includeCount: boolean };
export type Page<T> = { data: T[]; page: { next: string | null }; total_count?: number };

/**
 * A keyset order, newest first: its cursor's sort name, the key columns (each read as text for the
 * cursor and compared under its SQL cast), the cursor's shape. Default: created_at, then id.
 */
export type KeysetOrder = { sort: string; keys: readonly { column: string; text: string; cast: string }[]; cursor: z.ZodType };
/** Newest `column` (a timestamptz of the row aliased `r`) first, then id: the cursor `[ISO time, id]`. */
export function newestByTime(sort: string, column: string): KeysetOrder {
  return {
    sort,
    keys: [
      { column: `r.${column}`, text: `to_char(r.${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`, cast: 'timestamptz' },
      { column: 'r.id', text: 'r.id::text', cast: 'uuid' },
    ],
    cursor: z.tuple([z.string().min(1), z.uuid()]),
  };
}
const CREATED_DESC = newestByTime('created_desc', 'created_at');

/**
 * A keyset page of `table` (alias `r`) newest first, by `order` (created_at, id unless given):
 * `where` and `params` select the rows (the caller's filters and visibility), `doc` builds each
 * row's wire shape. A zero-size page answers the count only (§7); the count is also sent when asked for.
 */
export async function newestFirstPage<T>(
  db: Queryable,
  spec: { table: string; doc: string; where: string; params: unknown[]; order?: KeysetOrder },
  req: PageRequest,
): Promise<Page<T>> {
  const order = spec.order ?? CREATED_DESC;
  const params = [...spec.params];
  const wantCount = req.includeCount || req.pageSize === 0;
  const total = wantCount
    ? Number((await db.query<{ n: number }>(`SELECT count(*) AS n FROM ${spec.table} r WHERE ${spec.where}`, [...params]))[0]?.n ?? 0)
    : undefined;
  if (req.pageSize === 0) return { data: [], page: { next: null }, total_count: total };
  let pageWhere = spec.where;
  if (req.start) {
    const values = decodeCursor(req.start, order.sort, order.cursor) as string[];
    const after = order.keys.map((k, i) => `$${params.push(values[i])}::${k.cast}`).join(', ');
    pageWhere += ` AND (${order.keys.map((k) => k.column).join(', ')}) < (${after})`;
  }
  params.push(req.pageSize + 1);
  const rows = await db.query<{ doc: T } & Record<string, string>>(
    `SELECT ${spec.doc} AS doc, ${order.keys.map((k, i) => `${k.text} AS k${i}`).join(', ')}
       FROM ${spec.table} r WHERE ${pageWhere}
      ORDER BY ${order.keys.map((k) => `${k.column} DESC`).join(', ')} LIMIT $${params.length}`,
    params,
  );
  const more = rows.length > req.pageSize;
  const page = more ? rows.slice(0, req.pageSize) : rows;
  const last = page.at(-1);
  const next = more && last ? encodeCursor(order.sort, order.keys.map((_, i) => last[`k${i}`]!)) : null;
  return { data: page.map((r) => r.doc), page: { next }, ...(total === undefined ? {} : { total_count: total }) };
}
