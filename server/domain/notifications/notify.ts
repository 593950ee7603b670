import type { Notification, NotificationKind, NotificationSubjectType } from '../../../schema/entities/notification.ts';
import { NOTIFICATION_BODY_MAX, NOTIFICATION_TITLE_MAX } from '../../../schema/entities/notification.ts';
import { foldEmail } from '../../auth/email-address.ts';
import { enqueueMail, type TemplatedMail } from '../../mail/outbox.ts';
import type { MailTemplateName } from '../../mail/templates.ts';
import { enqueueChatPosts } from '../../chat/outbox.ts';
import { enqueuePushes } from '../../push/outbox.ts';
import { CHAT_LINK_PATH } from '../../chat/links.ts';
import { currentScope } from '../../core/workflow-scope.ts';
import { allocateSeqs, announceChange } from '../../db/change-seq.ts';
import type { Queryable } from '../../db/db.ts';
import { COLLECTIONS } from '../collections.ts';

/**
 * Issue 29: the one way a notification is made. Every producer (an approval step opening, a
 * decision, a comment or mention, a reminder, a workflow's `notify`, the transaction threshold)
 * calls `notify` inside the write that caused it, so the notification exists exactly when the
 * event committed. Per person and event at most once: `event_key` (e.g. `approval:<id>:waiting`)
 * is unique per owner in the table, and a repeat inserts nothing and mails nothing. Nobody is
 * notified of their own action (`actor_id` = `owner_id`), nor a person who is not active. Each new
 * row is also mailed through the mail layer (server/mail/, a template per kind, with the request's links from the
 * workflow scope) unless the person muted that kind (notification_preferences.email_muted).
 */
export type NewNotification = {
  owner_id: string;
  kind: NotificationKind;
  title: string;
  body?: string;
  subject_type?: NotificationSubjectType | null;
  subject_id?: string | null;
  /** In-app path, starting with `/`. */
  path: string;
  actor_id?: string | null;
  /** What event this is, unique per person: `approval:<approval id>:waiting`, `comment:<id>:mention`, … */
  event_key: string;
};

const DOC = COLLECTIONS.notifications.docSql;

const clip = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);

type Recipient = { id: string; email: string; muted: string[] | null };

export async function notify(
  tx: Queryable, businessId: string, items: readonly NewNotification[], at: string, opts: { mail?: boolean } = {},
): Promise<Notification[]> {
  const wanted = items.filter((n) => n.owner_id !== n.actor_id);
  if (wanted.length === 0) return [];
  const ids = [...new Set(wanted.map((n) => n.owner_id))];
  const people = await tx.query<Recipient>(
    `SELECT u.id::text, u.email, p.email_muted AS muted FROM spend_users u
       LEFT JOIN notification_preferences p ON p.business_id = u.business_id AND p.user_id = u.id
      WHERE u.business_id = $1 AND u.id = ANY($2::uuid[]) AND u.status = 'ACTIVE' AND NOT u.deleted`,
    [businessId, ids],
  );
  const byId = new Map(people.map((p) => [p.id, p]));
  const live = wanted.filter((n) => byId.has(n.owner_id));
  if (live.length === 0) return [];
  const range = await allocateSeqs(tx, businessId, live.length);
  if (!range) return [];
  const made: Notification[] = [];
  const fresh: NewNotification[] = [];
  let seq = range.last - live.length;
  for (const n of live) {
    seq += 1;
    const rows = await tx.query<{ doc: Notification }>(
      `INSERT INTO notifications AS r (id, business_id, owner_id, kind, title, body, subject_type, subject_id, path, actor_id, event_key, created_at, updated_at, change_seq)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, $13)
       ON CONFLICT (business_id, owner_id, event_key) DO NOTHING
       RETURNING ${DOC} AS doc`,
      [crypto.randomUUID(), businessId, n.owner_id, n.kind, clip(n.title, NOTIFICATION_TITLE_MAX), clip(n.body ?? '', NOTIFICATION_BODY_MAX),
        n.subject_type ?? null, n.subject_id ?? null, n.path, n.actor_id ?? null, n.event_key, at, seq],
    );
    if (rows[0]) { made.push(rows[0].doc); fresh.push(n); }
  }
  if (made.length > 0) await announceChange(tx, businessId, range.last);
  if (opts.mail !== false) await mailThem(tx, made, byId);
  // Issue 32: approval requests and rejections also go to the business's Slack / Teams channels (server/chat/).
  await enqueueChatPosts(tx, businessId, fresh, currentScope().link(CHAT_LINK_PATH));
  // Issue 32: and to the owner's subscribed browsers (Web Push, server/push/).
  await enqueuePushes(tx, businessId, made);
  return made;
}

/** Each notification kind's mail template (server/mail/templates.ts): every kind has its own words. */
const MAIL_TEMPLATE = {
  approval_waiting: 'approval_waiting', approved: 'approved', rejected: 'rejected', missing_items: 'reminder',
  mention: 'mention', comment: 'comment', workflow: 'workflow', large_transaction: 'large_transaction',
} as const satisfies Record<NotificationKind, MailTemplateName>;

function mailOf(n: Notification, link: string): TemplatedMail {
  return { template: MAIL_TEMPLATE[n.kind], values: { title: n.title, details: n.body, link } };
}

async function mailThem(tx: Queryable, made: readonly Notification[], people: ReadonlyMap<string, Recipient>): Promise<void> {
  const scope = currentScope();
  for (const n of made) {
    const p = people.get(n.owner_id);
    if (!p || (p.muted ?? []).includes(n.kind)) continue;
    await enqueueMail(scope.mail ?? { devOutbox: false }, tx, { to: foldEmail(p.email), ...mailOf(n, scope.link(n.path)) });
  }
}
