import type { Hono } from 'hono';
import { z } from 'zod';
import {
  listCards,
  listDepartments,
  listGlAccounts,
  listLocations,
  listTrackingCategories,
  listUsers,
} from '../../schema/api/calls.ts';
import type { MirroredCollection } from '../../schema/sync-feed.ts';
import type { pageQuerySchema } from '../../schema/paging.ts';
import type { Queryable } from '../db/db.ts';
import { visibilityOf, visibleUsersClause } from '../domain/visibility.ts';
import { DOC_SQL, TABLE } from '../feed/docs.ts';
import type { ActingUser } from '../http/actor.ts';
import { decodeCursor, encodeCursor } from '../http/cursor.ts';
import type { AppDeps } from '../http/deps.ts';
import { actorOf, ok, register } from '../http/register.ts';

type PageQuery = z.output<typeof pageQuerySchema>;

/** How each reference list is ordered (a text key, then id for a total order). */
const SORT_KEY: Partial<Record<MirroredCollection, string>> = {
  departments: 'lower(r.name)',
  locations: 'lower(r.name)',
  gl_accounts: 'r.code',
  tracking_categories: 'lower(r.name)',
  users: `lower(r.first_name || ' ' || r.last_name)`,
  cards: 'lower(r.display_name)',
};
const keyShape = z.tuple([z.string(), z.uuid()]);

/**
 * One page of a reference collection, keyset-paged on (sort key, id). Cards follow the caller's
 * card visibility; the other lists are the business's directory and chart of accounts.
 */
export async function listCollection(db: Queryable, user: ActingUser, collection: MirroredCollection, q: PageQuery) {
  const key = SORT_KEY[collection] ?? 'r.id::text';
  const params: unknown[] = [user.business_id];
  let where = 'r.business_id = $1 AND NOT r.deleted';
  if (collection === 'cards') where += visibleUsersClause(await visibilityOf(db, user), 'r', params);
  const countWhere = where;
  const countParams = [...params];
  if (q.start) {
    const [k, id] = decodeCursor(q.start, collection, keyShape) as [string, string];
    params.push(k, id);
    where += ` AND (${key}, r.id) > ($${params.length - 1}, $${params.length}::uuid)`;
  }
  const wantCount = q.include_count === true || q.page_size === 0;
  const total = wantCount ? await countRows(db, TABLE[collection], countWhere, countParams) : undefined;
  if (q.page_size === 0) return { data: [], page: { next: null }, total_count: total };
  params.push(q.page_size + 1);
  const rows = await db.query<{ doc: unknown; k: string; id: string }>(
    `SELECT ${DOC_SQL[collection]} AS doc, ${key} AS k, r.id::text AS id FROM ${TABLE[collection]} r
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

export function registerReferenceRoutes(app: Hono, deps: AppDeps): void {
  const lists = [
    [listDepartments, 'departments'],
    [listLocations, 'locations'],
    [listGlAccounts, 'gl_accounts'],
    [listTrackingCategories, 'tracking_categories'],
    [listUsers, 'users'],
    [listCards, 'cards'],
  ] as const;
  for (const [call, collection] of lists) {
    register(app, deps, call, async (ctx) =>
      ok(await listCollection(ctx.db, actorOf(ctx).user, collection, ctx.input.query)),
    );
  }
}
