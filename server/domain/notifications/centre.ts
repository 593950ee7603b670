import { NOTIFICATION_KINDS, type Notification, type NotificationFilter, type NotificationKind } from '../../../schema/entities/notification.ts';
import type { NotificationPreferences } from '../../../schema/api/calls-notifications.ts';
import { queryTerms } from '../../../schema/transaction-query.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { COLLECTIONS, writeMirrored } from '../collections.ts';
import { newestFirstPage } from '../newest-first-page.ts';
import { escapeLike } from '../transaction-sql.ts';

/**
 * The notifications centre's reads and writes (issue 29, NOTIFICATION_CALLS). Everything here is
 * the caller's own: `owner_id` is always the caller, admins included (the entity's `self`
 * visibility), so another person's or another business's id is simply unknown (404 REQUEST_7004).
 * Notifications are made only by `notify()` (notify.ts); this file lists them, marks them read and
 * keeps the person's mail preferences.
 */
const DOC = COLLECTIONS.notifications.docSql;

export type NotificationPageRequest = { filter: NotificationFilter; pageSize: number; start?: string | undefined; includeCount: boolean };

/** §7 keyset list of the caller's notifications, newest first, and their unread total whatever the filter. */
export async function listOwnNotifications(db: Queryable, user: ActingUser, req: NotificationPageRequest) {
  const params: unknown[] = [user.business_id, user.id];
  const conds = ['r.business_id = $1', 'r.owner_id = $2', 'NOT r.deleted'];
  const f = req.filter;
  if (f.unread !== undefined) conds.push(f.unread ? 'r.read_at IS NULL' : 'r.read_at IS NOT NULL');
  if (f.kinds?.length) conds.push(`r.kind = ANY($${params.push(f.kinds)}::text[])`);
  for (const term of queryTerms(f.q)) conds.push(`lower(r.title || ' ' || r.body) LIKE $${params.push(`%${escapeLike(term)}%`)}`);
  const page = await newestFirstPage<Notification>(db, { table: 'notifications', doc: DOC, where: conds.join(' AND '), params }, req);
  return { ...page, unread_count: await unreadCount(db, user) };
}

export async function unreadCount(db: Queryable, user: Pick<ActingUser, 'id' | 'business_id'>): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    'SELECT count(*) AS n FROM notifications WHERE business_id = $1 AND owner_id = $2 AND read_at IS NULL AND NOT deleted',
    [user.business_id, user.id],
  );
  return Number(row?.n ?? 0);
}

/**
 * Marks the caller's notifications read, all or nothing: if any id is not one of theirs (unknown,
 * someone else's, another business's) the call is 404 and nothing changes, without saying which
 * (that would tell what exists). One already read keeps its `read_at` and its seq (idempotent);
 * each row that changes takes its own seq. `change_seq` is the last seq written, 0 when none was.
 * Seqs are reserved only for the rows that were unread when looked at: a racing mark of the same
 * rows leaves a harmless gap in the counter, never a row without a seq.
 */
export async function markOwnRead(tx: Queryable, user: ActingUser, ids: readonly string[], now: Date): Promise<{ data: Notification[]; change_seq: number }> {
  const unique = [...new Set(ids)];
  const found = await tx.query<{ id: string; unread: boolean }>(
    `SELECT id::text, read_at IS NULL AS unread FROM notifications
      WHERE business_id = $1 AND owner_id = $2 AND id = ANY($3::uuid[]) AND NOT deleted`,
    [user.business_id, user.id, unique],
  );
  if (found.length !== unique.length) {
    throw new ApiError('REQUEST_7004', `${unique.length - found.length} of these ${unique.length} notifications were not found.`);
  }
  const unread = found.filter((r) => r.unread).map((r) => r.id);
  let changeSeq = 0;
  if (unread.length > 0) {
    changeSeq = await writeMirrored(tx, user.business_id, unread.length, async ({ seqs }) => {
      const at = now.toISOString();
      const rows = await tx.query<{ change_seq: number }>(
        `UPDATE notifications r SET read_at = $4, updated_at = $4, change_seq = $5 + u.ord
           FROM unnest($3::uuid[]) WITH ORDINALITY AS u(id, ord)
          WHERE r.business_id = $1 AND r.owner_id = $2 AND r.id = u.id AND r.read_at IS NULL
          RETURNING r.change_seq`,
        [user.business_id, user.id, unread, at, seqs.first - 1],
      );
      return rows.reduce((max, r) => Math.max(max, Number(r.change_seq)), 0);
    });
  }
  const data = await tx.query<{ doc: Notification }>(
    `SELECT ${DOC} AS doc FROM notifications r WHERE r.business_id = $1 AND r.owner_id = $2 AND r.id = ANY($3::uuid[])
      ORDER BY r.created_at DESC, r.id DESC`,
    [user.business_id, user.id, unique],
  );
  return { data: data.map((r) => r.doc), change_seq: changeSeq };
}

const preferencesOf = (muted: readonly string[]): NotificationPreferences => ({
  email: Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, !muted.includes(k)])) as NotificationPreferences['email'],
});

/** The caller's mail preferences: no row means every kind is mailed. */
export async function getPreferences(db: Queryable, user: ActingUser): Promise<NotificationPreferences> {
  const [row] = await db.query<{ email_muted: string[] }>(
    'SELECT email_muted FROM notification_preferences WHERE business_id = $1 AND user_id = $2', [user.business_id, user.id],
  );
  return preferencesOf(row?.email_muted ?? []);
}

/**
 * Changes only the kinds named (false mutes a kind's mail, true unmutes it), in one upsert, so two
 * racing edits of different kinds both land. The muted list is kept sorted and without repeats.
 */
export async function putPreferences(
  db: Queryable, user: ActingUser, email: Partial<Record<NotificationKind, boolean>>,
): Promise<NotificationPreferences> {
  const entries = Object.entries(email) as [NotificationKind, boolean][];
  const mute = entries.filter(([, on]) => !on).map(([k]) => k).sort();
  const unmute = entries.filter(([, on]) => on).map(([k]) => k);
  const [row] = await db.query<{ email_muted: string[] }>(
    `INSERT INTO notification_preferences AS p (business_id, user_id, email_muted, updated_at) VALUES ($1, $2, $3::text[], now())
     ON CONFLICT (business_id, user_id) DO UPDATE SET updated_at = now(), email_muted = ARRAY(
       SELECT DISTINCT k FROM unnest(p.email_muted || $3::text[]) AS k WHERE NOT (k = ANY($4::text[])) ORDER BY k)
     RETURNING email_muted`,
    [user.business_id, user.id, mute, unmute],
  );
  return preferencesOf(row?.email_muted ?? []);
}
