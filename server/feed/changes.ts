import { MIRRORED_COLLECTIONS, type MirroredCollection } from '../../schema/collections.ts';
import type { ChangesResponse } from '../../schema/sync-feed.ts';
import { COLLECTIONS } from '../domain/collections.ts';
import { highWater } from '../db/change-seq.ts';
import type { Queryable } from '../db/db.ts';
import type { ActingUser } from '../core/actor.ts';
import { visibilityEpoch, visibilityOf, type Viewer } from '../domain/visibility.ts';

function branch(collection: MirroredCollection, viewer: Viewer, params: unknown[], select: string): string {
  const { table, visibility } = COLLECTIONS[collection];
  const filter = visibility.where(viewer, 'r', params);
  return `SELECT ${select} FROM ${table} r WHERE r.business_id = $1 AND r.change_seq > $2${filter}`;
}

type ChangeRow = { collection: MirroredCollection; seq: number; id: string; deleted: boolean; doc: Record<string, unknown> };

/**
 * One page of the change feed: the caller's visible rows with change_seq > after, in seq order
 * across every mirrored collection. Each branch walks its (business_id, change_seq) index and
 * stops at `limit`, so a page costs O(limit) per collection, not O(table).
 *
 * The high water is read *before* the rows. Every seq ≤ it was committed at that moment (see
 * allocateSeqs), so when this page is the last one the checkpoint may jump to it: nothing
 * invisible-to-us or not-yet-committed can hide below it.
 */
export async function readChanges(
  db: Queryable,
  user: ActingUser,
  req: { after: number; limit: number },
): Promise<ChangesResponse> {
  const high = await highWater(db, user.business_id);
  // The epoch hashes the team, so the feed always reads it (not only when a rule needs it).
  const vis = await visibilityOf(db, user);
  const viewer: Viewer = { user, team: vis };
  const params: unknown[] = [user.business_id, req.after, req.limit + 1];
  const select = (c: MirroredCollection) =>
    `'${c}' AS collection, r.change_seq AS seq, r.id::text AS id, r.deleted, CASE WHEN r.deleted THEN NULL ELSE ${COLLECTIONS[c].docSql} END AS doc`;
  const branches = MIRRORED_COLLECTIONS.map(
    (c) => `(${branch(c, viewer, params, select(c))} ORDER BY r.change_seq LIMIT $3)`,
  );
  const rows = await db.query<ChangeRow>(`${branches.join(' UNION ALL ')} ORDER BY seq LIMIT $3`, params);
  const hasMore = rows.length > req.limit;
  const page = hasMore ? rows.slice(0, req.limit) : rows;
  const lastSeq = page.at(-1)?.seq ?? req.after;
  const response: ChangesResponse = {
    changes: page.map((r) => ({ collection: r.collection, seq: Number(r.seq), id: r.id, deleted: r.deleted, doc: r.doc })),
    checkpoint: hasMore ? Number(lastSeq) : Math.max(Number(lastSeq), high, req.after),
    has_more: hasMore,
    high_water: Math.max(high, Number(lastSeq)),
    visibility_epoch: visibilityEpoch(user, vis),
  };
  if (req.after === 0) response.total = await countVisible(db, user.business_id, viewer);
  return response;
}

async function countVisible(db: Queryable, businessId: string, viewer: Viewer): Promise<number> {
  const params: unknown[] = [businessId, 0];
  const branches = MIRRORED_COLLECTIONS.map((c) => `(${branch(c, viewer, params, 'count(*) AS n')})`);
  const rows = await db.query<{ total: number }>(`SELECT sum(n)::int8 AS total FROM (${branches.join(' UNION ALL ')}) x`, params);
  return Number(rows[0]?.total ?? 0);
}
