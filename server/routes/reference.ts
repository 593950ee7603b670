import { z } from 'zod';
import {
  listDepartments,
  listGlAccounts,
  listLocations,
  listTrackingCategories,
  listUsers,
} from '../../schema/api/calls.ts';
import type { MirroredCollection } from '../../schema/collections.ts';
import type { pageQuerySchema } from '../../schema/paging.ts';
import { COLLECTIONS } from '../domain/collections.ts';
import type { Queryable } from '../db/db.ts';
import { viewerFor } from '../domain/visibility.ts';
import type { ActingUser } from '../core/actor.ts';
import { decodeCursor, encodeCursor } from '../core/cursor.ts';
import { actorOf, ok, type DomainHandlers, type Handler } from '../http/handler.ts';

type PageQuery = z.output<typeof pageQuerySchema>;

const keyShape = z.tuple([z.string(), z.uuid()]);

/**
 * One page of a reference collection, keyset-paged on (sort key, id), filtered by the
 * collection's visibility rule (the directory and chart of accounts: the whole business).
 */
export async function listCollection(db: Queryable, user: ActingUser, collection: MirroredCollection, q: PageQuery) {
  const { table, docSql, sortKey: key, visibility } = COLLECTIONS[collection];
  const params: unknown[] = [user.business_id];
  let where = 'r.business_id = $1 AND NOT r.deleted';
  where += visibility.where(await viewerFor(db, user, [visibility]), 'r', params);
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

type ReferenceList =
  | typeof listDepartments | typeof listLocations | typeof listGlAccounts
  | typeof listTrackingCategories | typeof listUsers;

/** Every reference list is the same keyset page over its collection. */
const listHandler =
  (collection: MirroredCollection): Handler<ReferenceList> =>
  async (ctx) =>
    ok(await listCollection(ctx.db, actorOf(ctx).user, collection, ctx.input.query));

export const referenceHandlers = {
  [listDepartments.id]: listHandler('departments'),
  [listLocations.id]: listHandler('locations'),
  [listGlAccounts.id]: listHandler('gl_accounts'),
  [listTrackingCategories.id]: listHandler('tracking_categories'),
  [listUsers.id]: listHandler('users'),
} satisfies DomainHandlers;
