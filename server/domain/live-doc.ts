/**
 * The one lookup of a business's live (not deleted) row as its wire doc: the `find*` of every
 * domain whose table keeps `business_id`, `id` and `deleted`. `doc` is SQL over the alias `r`
 * (a collection's `docSql`, or the domain's own doc). Another business's row, a deleted one and
 * an unknown id all answer 404 REQUEST_7004 with `notFound`; `lock` takes the row FOR UPDATE.
 * `findVisibleDoc` is the same lookup narrowed to the rows the caller may see (`visibleUsersClause`
 * over the row's `user_id`), answering null so the caller picks its refusal.
 */
import type { Queryable } from '../db/db.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError, validationError } from '../core/errors.ts';
import { visibleUsersClause, type Visibility } from './visibility.ts';

export type LiveDocTable = { table: string; doc: string; notFound: string };

export async function findLiveDoc<T>(db: Queryable, of: LiveDocTable, businessId: string, id: string, lock = false): Promise<T> {
  const rows = await db.query<{ doc: T }>(
    `SELECT ${of.doc} AS doc FROM ${of.table} r WHERE r.business_id = $1 AND r.id = $2 AND NOT r.deleted${lock ? ' FOR UPDATE' : ''}`,
    [businessId, id],
  );
  if (!rows[0]) throw new ApiError('REQUEST_7004', of.notFound);
  return rows[0].doc;
}

export async function findVisibleDoc<T>(
  db: Queryable, of: { table: string; doc: string }, businessId: string, vis: Visibility, id: string, lock = false,
): Promise<T | null> {
  const params: unknown[] = [businessId, id];
  const rows = await db.query<{ doc: T }>(
    `SELECT ${of.doc} AS doc FROM ${of.table} r
      WHERE r.business_id = $1 AND r.id = $2 AND NOT r.deleted${visibleUsersClause(vis, 'r', params)}${lock ? ' FOR UPDATE' : ''}`,
    params,
  );
  return rows[0]?.doc ?? null;
}

/**
 * A create under a client id that is already stored (an offline create resent after a lost
 * answer): the caller's own live row of `table` (by `created_by`) answers `findOwn()`; an id of
 * another business's or another user's row, or of a deleted one, is refused on `id` naming
 * `noun`, so a client id is never a way to reach a row. Null when the id is new.
 */
export async function createdBefore<T>(
  db: Queryable, user: ActingUser, id: string, of: { table: string; noun: string }, findOwn: () => Promise<T>,
): Promise<T | null> {
  const [existing] = await db.query<{ business_id: string; created_by: string; deleted: boolean }>(
    `SELECT business_id::text, created_by::text, deleted FROM ${of.table} WHERE id = $1`,
    [id],
  );
  if (!existing) return null;
  if (existing.business_id === user.business_id && existing.created_by === user.id && !existing.deleted) return findOwn();
  throw validationError({ id: `id is already used by another ${of.noun}` });
}
