import type { Comment } from '../../../schema/api/calls-comments.ts';
import type { Queryable } from '../../db/db.ts';
import { notify, type NewNotification } from '../notifications/notify.ts';
import type { CommentSubject } from './subjects.ts';

/**
 * A new comment's notifications (issue 29), through the one producer `notify()` in the comment's
 * own transaction: each mentioned person gets `mention` ("Maya Chen mentioned you on Delta Air
 * Lines · $120.00", the comment as body); the item's owner gets `comment` unless they wrote it or
 * were mentioned (one notification per person per comment). The event keys
 * `comment:<id>:mention` / `comment:<id>:comment` make a retried write notify nobody twice.
 */
export function commentNotifications(subject: CommentSubject, c: Pick<Comment, 'id' | 'author_id' | 'author_name' | 'body' | 'mentions'>): NewNotification[] {
  const common = { body: c.body, subject_type: subject.type, subject_id: subject.id, path: subject.path, actor_id: c.author_id };
  const mentioned = new Set(c.mentions.map((m) => m.user_id));
  const out: NewNotification[] = [...mentioned]
    .filter((id) => id !== c.author_id)
    .map((owner_id) => ({ ...common, owner_id, kind: 'mention', title: `${c.author_name} mentioned you on ${subject.label}`, event_key: `comment:${c.id}:mention` }));
  const owner = subject.owner_id;
  if (owner && owner !== c.author_id && !mentioned.has(owner)) {
    out.push({ ...common, owner_id: owner, kind: 'comment', title: `${c.author_name} commented on ${subject.label}`, event_key: `comment:${c.id}:comment` });
  }
  return out;
}

export async function notifyOfComment(tx: Queryable, businessId: string, subject: CommentSubject, c: Parameters<typeof commentNotifications>[1], now: Date): Promise<void> {
  await notify(tx, businessId, commentNotifications(subject, c), now.toISOString());
}
