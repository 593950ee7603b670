import { MIRRORED_COLLECTIONS, type MirroredCollection } from '../../schema/collections.ts';
import { backfillStageOf, type BackfillCursor, type BackfillStage, type ChangesQuery, type ChangesResponse } from '../../schema/sync-feed.ts';
import { COLLECTIONS } from '../domain/collections.ts';
import { SYNC_BATCH_DEFAULT } from '../../schema/constants.ts';
import { highWater } from '../db/change-seq.ts';
import type { Queryable } from '../db/db.ts';
import type { ActingUser } from '../core/actor.ts';
import type { FeedPageQuery } from '../core/deps.ts';
import { visibilityEpoch, visibilityOf, type Viewer } from '../domain/visibility.ts';
import { delegationEpochBasis } from '../domain/delegations.ts';

function branch(collection: MirroredCollection, viewer: Viewer, params: unknown[], select: string, seqs = 'r.change_seq > $2'): string {
  const { table, visibility } = COLLECTIONS[collection];
  const filter = visibility.where(viewer, 'r', params);
  return `SELECT ${select} FROM ${table} r WHERE r.business_id = $1 AND ${seqs}${filter}`;
}

/**
 * A branch of a page: its rows with a seq in `seqs`, in seq order `dir`, at most $3 of them.
 * A rule that is a set of people (a manager's team: `VisibilitySql.users`) on a table with a
 * per-person feed index (`feedByPerson`: migration 088) walks each person's index for up to $3 rows and keeps the best
 * $3 of those: filtering the business's feed index by `user_id = ANY(team)` read every row of the
 * business down to the page's last (or the planner fetched all the team's rows and sorted them),
 * issue 33. One person is an equality on that index (visibleUsersClause), which needs no walk per person.
 */
function orderedBranch(collection: MirroredCollection, viewer: Viewer, params: unknown[], select: string, seqs: string, dir: 'ASC' | 'DESC'): string {
  const { table, visibility, feedByPerson } = COLLECTIONS[collection];
  const team = feedByPerson ? (visibility.users?.(viewer) ?? null) : null;
  if (!team || team.length < 2) return `(${branch(collection, viewer, params, select, seqs)} ORDER BY r.change_seq ${dir} LIMIT $3)`;
  const users = `$${params.push(team)}::uuid[]`;
  return `(SELECT b.* FROM unnest(${users}) AS v(user_id) CROSS JOIN LATERAL (
      SELECT ${select} FROM ${table} r WHERE r.business_id = $1 AND r.user_id = v.user_id AND ${seqs}
       ORDER BY r.change_seq ${dir} LIMIT $3) b ORDER BY b.seq ${dir} LIMIT $3)`;
}

/** What a branch selects: the row's key and place, never its doc (see withDocs). */
const keySelect = (c: MirroredCollection) => `'${c}' AS collection, r.change_seq AS seq, r.id::text AS id, r.deleted, r.ctid AS tid`;

/**
 * Builds the docs of a page's rows only once the page is chosen. Each branch stops at the page's
 * limit, so a page of 2,000 read up to 2,001 rows from every collection; building every one's
 * jsonb (with the transactions' receipt-id subquery) before the outer ORDER BY … LIMIT dropped
 * most of them, and sorting the wide rows spilled to disk: about 2/3 of a backfill page's time
 * at 100k. The picked rows are found again by ctid (same statement, same snapshot: a TID scan).
 */
function withDocs(branches: string[], order: string, docs: DocForm): string {
  const built = MIRRORED_COLLECTIONS.map(
    (c) => `WHEN '${c}' THEN (SELECT ${COLLECTIONS[c].docSql} FROM ${COLLECTIONS[c].table} r WHERE r.ctid = p.tid)`,
  ).join(' ');
  const cast = docs === 'text' ? '::text' : '';
  // The doc is a subplan, so PostgreSQL computes it after the sort, for the rows the limit keeps.
  return `WITH p AS MATERIALIZED (${branches.join(' UNION ALL ')})
    SELECT p.*, (CASE WHEN p.deleted THEN NULL ELSE CASE p.collection ${built} END END)${cast} AS doc FROM p ORDER BY ${order} LIMIT $3`;
}

/**
 * How a page's docs leave PostgreSQL: parsed objects (`jsonb`), or their JSON text (`text`),
 * which the HTTP answer splices in as it is (readChangesJson): the driver never parses 2,000
 * docs a page only for the answer to stringify them again.
 */
type DocForm = 'jsonb' | 'text';

type ChangeRow = { collection: MirroredCollection; seq: number; id: string; deleted: boolean; doc: unknown };

type FeedQuery = FeedPageQuery;

/** A page as read: its rows with their docs in the page's DocForm, and the rest of the answer. */
type RawPage = { changes: ChangeRow[]; meta: Omit<ChangesResponse, 'changes'>; next: FeedQuery | null };

/**
 * One page of the change feed: the caller's visible rows with change_seq > after, in seq order
 * across every mirrored collection. Each branch walks its (business_id, change_seq) index and
 * stops at `limit`, so a page costs O(limit) per collection, not O(table).
 *
 * The high water is read *before* the rows. Every seq ≤ it was committed at that moment (see
 * allocateSeqs), so when this page is the last one the checkpoint may jump to it: nothing
 * invisible-to-us or not-yet-committed can hide below it.
 */
export async function readChanges(db: Queryable, user: ActingUser, req: FeedQuery): Promise<ChangesResponse> {
  const page = await readPage(db, user, req, 'jsonb');
  return { changes: page.changes.map((r) => ({ ...r, doc: r.doc as Record<string, unknown> | null })), ...page.meta };
}

/**
 * readChanges as the HTTP answer's JSON text, and the query of the page after it (null when
 * there is none). The docs are PostgreSQL's own JSON text, spliced in: the text parses to exactly
 * readChanges's value (feed/json.test.ts), only its whitespace differs.
 */
export async function readChangesJson(db: Queryable, user: ActingUser, req: FeedQuery): Promise<{ text: string; next: FeedQuery | null }> {
  const page = await readPage(db, user, req, 'text');
  const rows = page.changes.map(
    (r) => `{"collection":${JSON.stringify(r.collection)},"seq":${r.seq},"id":${JSON.stringify(r.id)},"deleted":${r.deleted},"doc":${(r.doc as string | null) ?? 'null'}}`,
  );
  return { text: `{"changes":[${rows.join(',')}],${JSON.stringify(page.meta).slice(1)}`, next: page.next };
}

async function readPage(db: Queryable, user: ActingUser, req: FeedQuery, docs: DocForm): Promise<RawPage> {
  if (req.backfill) return readBackfill(db, user, { limit: req.limit, cursor: cursorOf(req) }, docs);
  const high = await highWater(db, user.business_id);
  // The epoch hashes the team, so the feed always reads it (not only when a rule needs it).
  const vis = await visibilityOf(db, user);
  const viewer: Viewer = { user, team: vis };
  const params: unknown[] = [user.business_id, req.after, req.limit + 1];
  const branches = MIRRORED_COLLECTIONS.map((c) => orderedBranch(c, viewer, params, keySelect(c), 'r.change_seq > $2', 'ASC'));
  const rows = await db.query<ChangeRow>(withDocs(branches, 'p.seq', docs), params);
  const hasMore = rows.length > req.limit;
  const page = hasMore ? rows.slice(0, req.limit) : rows;
  const lastSeq = page.at(-1)?.seq ?? req.after;
  const meta: RawPage['meta'] = {
    checkpoint: hasMore ? Number(lastSeq) : Math.max(Number(lastSeq), high, req.after),
    has_more: hasMore,
    high_water: Math.max(high, Number(lastSeq)),
    visibility_epoch: visibilityEpoch(user, vis, await delegationEpochBasis(db, user)),
  };
  if (req.after === 0) meta.total = await countVisible(db, user.business_id, viewer);
  return {
    changes: page.map((r) => ({ collection: r.collection, seq: Number(r.seq), id: r.id, deleted: r.deleted, doc: r.doc })),
    meta,
    next: hasMore ? { after: meta.checkpoint, limit: req.limit } : null,
  };
}

const cursorOf = (q: Partial<Pick<ChangesQuery, 'top' | 'stage' | 'before'>>): BackfillCursor | null =>
  q.top !== undefined && q.stage !== undefined && q.before !== undefined ? { top: q.top, stage: q.stage, before: q.before } : null;

const STAGE_RANK: Record<BackfillStage, number> = { reference: 0, queried: 1 };
const STAGE_OF_RANK: readonly BackfillStage[] = ['reference', 'queried'];

/**
 * One page of the first mirror's backfill walk (schema/sync-feed.ts): visible live rows with
 * change_seq ≤ top, reference collections first, each stage newest seq first, after the cursor.
 * Each branch walks its (business_id, change_seq) index backwards from its bound and stops at
 * `limit` (a branch of a stage the cursor has passed is not queried), so a page costs O(limit)
 * per collection, like the forward feed.
 *
 * Consistent with the forward feed: a row written after the walk began has a seq > top, so the
 * walk skips it and the forward pull from `after=top` brings it (tombstones included). A row the
 * walk sends has not changed since top was read, so it is the row as it stood at top.
 */
async function readBackfill(db: Queryable, user: ActingUser, req: { limit: number; cursor: BackfillCursor | null }, docs: DocForm): Promise<RawPage> {
  const high = await highWater(db, user.business_id);
  const vis = await visibilityOf(db, user);
  const viewer: Viewer = { user, team: vis };
  // A top above the high water would let the forward pull skip seqs not yet committed.
  const top = Math.min(req.cursor?.top ?? high, high);
  const cursor: BackfillCursor = req.cursor ? { ...req.cursor, top } : { top, stage: 'reference', before: top + 1 };
  const q = backfillQuery(viewer, cursor, req.limit + 1, docs);
  const rows = q ? await db.query<ChangeRow & { rank: number }>(q.sql, q.params) : [];
  const hasMore = rows.length > req.limit;
  const page = hasMore ? rows.slice(0, req.limit) : rows;
  const last = page.at(-1);
  const meta: RawPage['meta'] = {
    checkpoint: top,
    has_more: hasMore,
    high_water: high,
    backfill: last ? { top, stage: STAGE_OF_RANK[Number(last.rank)] ?? cursor.stage, before: Number(last.seq) } : cursor,
    visibility_epoch: visibilityEpoch(user, vis, await delegationEpochBasis(db, user)),
  };
  if (!req.cursor) meta.total = await countVisible(db, user.business_id, viewer, top);
  return {
    changes: page.map((r) => ({ collection: r.collection, seq: Number(r.seq), id: r.id, deleted: false, doc: r.doc })),
    meta,
    next: hasMore && meta.backfill ? { after: 0, limit: nextLimit(req), backfill: true, ...meta.backfill } : null,
  };
}

/**
 * The limit the page after this one will be asked with (the prepared page must match it:
 * feed/page-cache.ts keys by limit). The puller asks a walk's first page at its floor and the
 * rest at its batch (sync/puller-reducer.ts `queryOf`, issue 33), so after a first page smaller
 * than the default batch the next one is expected at the default.
 */
const nextLimit = (req: { limit: number; cursor: BackfillCursor | null }): number =>
  req.cursor === null ? Math.max(req.limit, SYNC_BATCH_DEFAULT) : req.limit;

/** The backfill page's SQL (null when the cursor has passed every stage). */
function backfillQuery(viewer: Viewer, cursor: BackfillCursor, limit: number, docs: DocForm): { sql: string; params: unknown[] } | null {
  const params: unknown[] = [viewer.user.business_id, cursor.top, limit];
  const branches: string[] = [];
  for (const c of MIRRORED_COLLECTIONS) {
    const rank = STAGE_RANK[backfillStageOf(c)];
    const cursorRank = STAGE_RANK[cursor.stage];
    if (rank < cursorRank) continue; // a stage the walk has finished
    let seqs = 'r.change_seq <= $2 AND NOT r.deleted';
    if (rank === cursorRank) {
      params.push(cursor.before);
      seqs += ` AND r.change_seq < $${params.length}`;
    }
    branches.push(orderedBranch(c, viewer, params, `${rank} AS rank, ${keySelect(c)}`, seqs, 'DESC'));
  }
  return branches.length === 0
    ? null
    : { sql: withDocs(branches, 'p.rank, p.seq DESC', docs), params };
}

/** The SQL of a walk's first page as `userId` sees it, from `top` (tests and benches EXPLAIN it). */
export async function backfillFirstPageSql(db: Queryable, businessId: string, userId: string, top: number, limit: number): Promise<{ sql: string; params: unknown[] }> {
  const [user] = await db.query<ActingUser>(
    'SELECT id::text, business_id::text, role, is_manager, user_permissions, manager_id::text FROM spend_users WHERE id = $1 AND business_id = $2',
    [userId, businessId],
  );
  if (!user) throw new Error(`no user ${userId}`);
  return backfillQuery({ user, team: await visibilityOf(db, user) }, { top, stage: 'reference', before: top + 1 }, limit, 'jsonb')!;
}

/**
 * EXPLAIN of a walk's first page as `userId` sees it (tests: the plan walks the feed indexes;
 * bench/first-page-personas.ts: `options` 'ANALYZE, BUFFERS'). `options` is EXPLAIN's option list.
 */
export async function explainBackfill(db: Queryable, businessId: string, userId: string, top: number, limit: number, options = ''): Promise<string> {
  const q = await backfillFirstPageSql(db, businessId, userId, top, limit);
  const rows = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${options ? `(${options}) ` : ''}${q.sql}`, q.params);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

/** Visible rows with a seq in (0, top]: all of them without a top; live ones only with it (the walk's count). */
async function countVisible(db: Queryable, businessId: string, viewer: Viewer, top?: number): Promise<number> {
  const params: unknown[] = [businessId, top ?? 0];
  const seqs = top === undefined ? 'r.change_seq > $2' : 'r.change_seq <= $2 AND NOT r.deleted';
  const branches = MIRRORED_COLLECTIONS.map((c) => `(${branch(c, viewer, params, 'count(*) AS n', seqs)})`);
  const rows = await db.query<{ total: number }>(`SELECT sum(n)::int8 AS total FROM (${branches.join(' UNION ALL ')}) x`, params);
  return Number(rows[0]?.total ?? 0);
}
