import { randomUUID } from 'node:crypto';
import { MAX_THREAD_COMMENTS, type Comment, type CommentSubjectType } from '../../../schema/api/calls-comments.ts';
import { isAdmin } from '../../../schema/roles.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { notifyOfComment } from './comment-notifications.ts';
import { businessSubject, unfitMentions, visibleSubject, type CommentSubject } from './subjects.ts';

/**
 * Comment threads (issue 29, schema/api/calls-comments.ts): read and written by whoever may see
 * the item (subjects.ts), oldest first; the client's `id` makes a retried create answer the stored
 * comment; the author or an admin deletes (kept as a row with deleted_at, gone from the thread).
 * Every new comment notifies, in its own transaction, its mentions and the item's owner.
 */

/** A stored comment as the wire shape minus `can_delete` (that depends on who reads). */
type Stored = Omit<Comment, 'can_delete'> & { business_id: string };

const COMMENT_SQL = `SELECT c.id::text, c.business_id::text, c.subject_type, c.subject_id::text, c.author_id::text, c.workflow_id::text, c.body,
    CASE WHEN c.author_id IS NOT NULL THEN trim(a.first_name || ' ' || a.last_name) ELSE 'Workflow: ' || coalesce(w.name, 'deleted') END AS author_name,
    coalesce((SELECT jsonb_agg(jsonb_build_object('user_id', m.id::text, 'name', trim(m.first_name || ' ' || m.last_name))
                               ORDER BY array_position(c.mention_ids, m.id))
                FROM spend_users m WHERE m.id = ANY(c.mention_ids) AND m.business_id = c.business_id), '[]'::jsonb) AS mentions,
    ll_iso(c.created_at) AS created_at
  FROM comments c LEFT JOIN spend_users a ON a.id = c.author_id LEFT JOIN workflows w ON w.id = c.workflow_id`;

const wire = (c: Stored, user: ActingUser): Comment => {
  const { business_id: _b, ...rest } = c;
  return { ...rest, can_delete: (c.author_id !== null && c.author_id === user.id) || isAdmin(user) };
};

async function subjectOrNotFound(db: Queryable, user: ActingUser, type: CommentSubjectType, id: string): Promise<CommentSubject> {
  const subject = await visibleSubject(db, user, type, id);
  if (!subject) throw new ApiError('REQUEST_7004');
  return subject;
}

export async function listComments(db: Queryable, user: ActingUser, type: CommentSubjectType, subjectId: string): Promise<{ data: Comment[]; total: number }> {
  await subjectOrNotFound(db, user, type, subjectId);
  const where = 'c.business_id = $1 AND c.subject_type = $2 AND c.subject_id = $3 AND c.deleted_at IS NULL';
  const params = [user.business_id, type, subjectId];
  const rows = await db.query<Stored>(`${COMMENT_SQL} WHERE ${where} ORDER BY c.created_at, c.id LIMIT ${MAX_THREAD_COMMENTS}`, params);
  const [count] = await db.query<{ n: number | string }>(`SELECT count(*) AS n FROM comments c WHERE ${where}`, params);
  return { data: rows.map((r) => wire(r, user)), total: Number(count?.n ?? 0) };
}

const storedById = async (db: Queryable, id: string) => (await db.query<Stored>(`${COMMENT_SQL} WHERE c.id = $1`, [id]))[0] ?? null;

/** Who writes: a person, or a workflow (no author; named "Workflow: <name>"). */
export type CommentAuthor = { user_id: string; workflow_id?: undefined } | { user_id?: undefined; workflow_id: string };

export type NewComment = { id: string; subject: CommentSubject; body: string; mention_ids: readonly string[]; author: CommentAuthor };

/**
 * Inserts the comment and notifies; if `id` is taken, answers the stored one when it is the same
 * author's on the same item (a retry, or a racing twin: ON CONFLICT waits for the other writer's
 * commit and then reads its row), else 409 COMMENT_7003. Only the insert that made the row notifies.
 */
export async function writeComment(tx: Queryable, businessId: string, c: NewComment, now: Date): Promise<Stored> {
  const inserted = await tx.query<{ id: string }>(
    `INSERT INTO comments (id, business_id, subject_type, subject_id, author_id, workflow_id, body, mention_ids, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::uuid[], $9) ON CONFLICT (id) DO NOTHING RETURNING id::text`,
    [c.id, businessId, c.subject.type, c.subject.id, c.author.user_id ?? null, c.author.workflow_id ?? null, c.body, [...new Set(c.mention_ids)], now.toISOString()],
  );
  const stored = await storedById(tx, c.id);
  if (!stored) throw new ApiError('COMMENT_7003');
  if (inserted.length === 0) {
    const same = stored.business_id === businessId && stored.subject_type === c.subject.type && stored.subject_id === c.subject.id
      && stored.author_id === (c.author.user_id ?? null) && stored.workflow_id === (c.author.workflow_id ?? null);
    if (!same) throw new ApiError('COMMENT_7003');
    return stored;
  }
  await notifyOfComment(tx, businessId, c.subject, stored, now);
  return stored;
}

/** A replay answers the stored comment without checking its mentions again (they were checked when it was written). */
async function replayOf(db: Queryable, user: ActingUser, id: string | undefined, subject: CommentSubject): Promise<Stored | null> {
  if (!id) return null;
  const stored = await storedById(db, id);
  if (!stored) return null;
  const same = stored.business_id === user.business_id && stored.author_id === user.id && stored.subject_type === subject.type && stored.subject_id === subject.id;
  if (!same) throw new ApiError('COMMENT_7003');
  return stored;
}

export type CreateInput = { id?: string; subject_type: CommentSubjectType; subject_id: string; body: string; mention_ids?: string[] };

export async function createComment(tx: Queryable, user: ActingUser, input: CreateInput, now: Date): Promise<Comment> {
  const subject = await subjectOrNotFound(tx, user, input.subject_type, input.subject_id);
  const replay = await replayOf(tx, user, input.id, subject);
  if (replay) return wire(replay, user);
  const mentions = [...new Set(input.mention_ids ?? [])];
  const unfit = await unfitMentions(tx, subject, user.business_id, mentions);
  if (unfit.length > 0) {
    const errors = Object.fromEntries(unfit.map((u) => [`mention_ids.${mentions.indexOf(u.id)}`, `${u.name} ${u.why}.`]));
    const why = unfit.map((u) => `${u.name} ${u.why}`).join('; ');
    throw new ApiError('COMMENT_7002', `${why}, so they could not read your comment. Remove ${unfit.length === 1 ? 'the mention' : 'those mentions'}.`, errors);
  }
  const stored = await writeComment(tx, user.business_id, {
    id: input.id ?? randomUUID(), subject, body: input.body, mention_ids: mentions, author: { user_id: user.id },
  }, now);
  return wire(stored, user);
}

/** The author or an admin; a second delete answers the same; the item must still be visible to the caller. */
export async function deleteComment(tx: Queryable, user: ActingUser, id: string, now: Date): Promise<{ id: string; deleted: true }> {
  const [row] = await tx.query<{ subject_type: CommentSubjectType; subject_id: string; author_id: string | null; deleted: boolean }>(
    `SELECT subject_type, subject_id::text, author_id::text, deleted_at IS NOT NULL AS deleted FROM comments WHERE business_id = $1 AND id = $2 FOR UPDATE`,
    [user.business_id, id],
  );
  if (!row) throw new ApiError('REQUEST_7004');
  await subjectOrNotFound(tx, user, row.subject_type, row.subject_id);
  if (row.author_id !== user.id && !isAdmin(user)) throw new ApiError('COMMENT_7001');
  if (!row.deleted) {
    await tx.query('UPDATE comments SET deleted_at = $3, deleted_by = $4 WHERE business_id = $1 AND id = $2', [user.business_id, id, now.toISOString(), user.id]);
  }
  return { id, deleted: true };
}

/** A workflow's `comment` action: the item whatever anyone sees, no mentions, the workflow as author. */
export async function writeWorkflowComment(
  tx: Queryable, businessId: string, w: { id: string }, type: CommentSubjectType, subjectId: string, body: string, commentId: string, now: Date,
): Promise<Stored | null> {
  const subject = await businessSubject(tx, businessId, type, subjectId);
  if (!subject) return null;
  return writeComment(tx, businessId, { id: commentId, subject, body, mention_ids: [], author: { workflow_id: w.id } }, now);
}
