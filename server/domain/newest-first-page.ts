import { z } from 'zod';
import { decodeCursor, encodeCursor } from '../core/cursor.ts';
import type { Queryable } from '../db/db.ts';

/** A §7 page request (page_size, start cursor, include_count). */
export type PageRequest = { pageSize: number; start?: string | undefined; includeCount: boolean };
export type Page<T> = { data: T[]; page: { next: string | null }; total_count?: number };

const SORT = 'created_desc';
const cursorShape = z.tuple([z.string().min(1), z.uuid()]);

/**
 * A keyset page of `table` (alias `r`) newest first, by (created_at, id): `where` and `params`
 * select the rows (the caller's filters and visibility), `doc` builds each row's wire shape. A
 * zero-size page answers the count only (§7); the count is also sent when asked for.
 */
export async function newestFirstPage<T>(
  db: Queryable,
  spec: { table: string; doc: string; where: string; params: unknown[] },
  req: PageRequest,
): Promise<Page<T>> {
  const params = [...spec.params];
  const wantCount = req.includeCount || req.pageSize === 0;
  const total = wantCount
    ? Number((await db.query<{ n: number }>(`SELECT count(*) AS n FROM ${spec.table} r WHERE ${spec.where}`, [...params]))[0]?.n ?? 0)
    : undefined;
  if (req.pageSize === 0) return { data: [], page: { next: null }, total_count: total };
  let pageWhere = spec.where;
  if (req.start) {
    const [created, id] = decodeCursor(req.start, SORT, cursorShape) as [string, string];
    pageWhere += ` AND (r.created_at, r.id) < ($${params.push(created)}::timestamptz, $${params.push(id)}::uuid)`;
  }
  params.push(req.pageSize + 1);
  const rows = await db.query<{ doc: T; k0: string; k1: string }>(
    `SELECT ${spec.doc} AS doc, to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS k0, r.id::text AS k1
       FROM ${spec.table} r WHERE ${pageWhere}
      ORDER BY r.created_at DESC, r.id DESC LIMIT $${params.length}`,
    params,
  );
  const more = rows.length > req.pageSize;
  const page = more ? rows.slice(0, req.pageSize) : rows;
  const last = page.at(-1);
  const next = more && last ? encodeCursor(SORT, [last.k0, last.k1]) : null;
  return { data: page.map((r) => r.doc), page: { next }, ...(total === undefined ? {} : { total_count: total }) };
}
