import { z } from 'zod';
import type { MirroredCollection } from '../../schema/collections.ts';
import type { pageQuerySchema } from '../../schema/paging.ts';
import type { ActingUser } from '../core/actor.ts';
import { decodeCursor, encodeCursor } from '../core/cursor.ts';
import type { Queryable } from '../db/db.ts';
import { COLLECTIONS } from './collections.ts';
import { viewerFor } from './visibility.ts';

type PageQuery = z.output<typeof pageQuerySchema>;

/** A list's own filters: pushes its parameters and answers the SQL to AND in (`r` is the row). */
export type Narrow = (params: unknown[]) => string;

const keyShape = z.tuple([z.string(), z.uuid()]);

/**
 * One page of a reference collection, keyset-paged on (sort key, id), filtered by the
 * collection's visibility rule (the directory and chart of accounts: the whole business), and
 * by `narrow` when a list has filters of its own (vendors: status and text).
 */
export async function listCollection(
  db: Queryable, user: ActingUser, collection: MirroredCollection, q: PageQuery, narrow?: Narrow,
) {
  const { table, docSql, sortKey: key, visibility } = COLLECTIONS[collection];
  const params: unknown[] = [user.business_id];
  let where = 'r.business_id = $1 AND NOT r.deleted';
  where += visibility.where(await viewerFor(db, user, [visibility]), 'r', params);
  if (narrow) where += narrow(params);
  const countWhere = where;
  const countParams = [...params];
  if (q.start) {
    const [k, id] = decodeCursor(q.start, collection, keyShape) as [string, string];
    params.push(k, id);
    where += ` AND (${key}, r.id) > ($${params.length - 1}, $${params.length}::uuid)`;
  }
  const wantCount = q.include_count === true || q.page_size === 0;
  const total = wantCount ? await countRows(db, table, countWhere, countParams) : undefined;
  if (q.page_size === 0) return { data: [], page: { next: null }, total_count: total };
  params.push(q.page_size + 1);
  const rows = await db.query<{ doc: unknown; k: string; id: string }>(
    `SELECT ${docSql} AS doc, ${key} AS k, r.id::text AS id FROM ${table} r
      WHERE ${where} ORDER BY ${key}, r.id LIMIT $${params.length}`,
    params,
  );
  const more = rows.length > q.page_size;
  const page = more ? rows.slice(0, q.page_size) : rows;
  const last = page.at(-1);
  return {
    data: page.map((r) => r.doc),
    page: { next: more && last ? encodeCursor(collection, [last.k, last.id]) : null },
    ...(total === undefined ? {} : { total_count: total }),
  };
}

async function countRows(db: Queryable, table: string, where: string, params: unknown[]): Promise<number> {
  const rows = await db.query<{ n: number }>(`SELECT count(*) AS n FROM ${table} r WHERE ${where}`, params);
  return Number(rows[0]?.n ?? 0);
}
