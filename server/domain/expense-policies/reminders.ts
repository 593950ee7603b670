import type { SendMail } from '../../domain/bill-approvals.ts';
import { isAdmin } from '../../../schema/roles.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import { ERROR_CATALOGUE } from '../../../schema/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { notify } from '../notifications/notify.ts';
import { missingItemsTotal } from './missing-items.ts';

/**
 * POST /v1/auth/expense-policies/reminders (issue 29, admins): one mail per person (template
 * `missing_items_reminder`) with how many items they have missing, their total, and a link to their list. At most one per person and UTC day: the
 * `missing_item_reminders` row (primary key business, user, day) is inserted before the mail, and
 * a racing second request meets that key (it waits on the first's transaction, then inserts
 * nothing), so it mails nothing and answers POLICY_7004 for that person. Someone with nothing
 * missing is skipped with POLICY_7005; an unknown id or another business's person with
 * REQUEST_7004 (the same answer, so nothing says whether the id exists elsewhere).
 *
 * Each reminder is also an in-app notification (`notify`, kind `missing_items`, event
 * `reminder:<day>`, path /missing-items) made with `mail: false`: the one mail is this one, whose
 * link carries a `missing-items-restricted` token (`linkFor`: wizard-token.ts
 * `mintReminderLinkToken`, in the fragment) that the notification must never hold. A person who
 * muted `missing_items` mail gets the notification only (no mail, so no token is minted).
 */
/** The reminder's link for an active person: the wizard with its restricted token in the fragment. */
export type ReminderLinkFor = (person: { user_id: string; identity_id: string }) => Promise<string>;

export type ReminderAnswer = {
  reminded: { user_id: string; item_count: number }[];
  skipped: { user_id: string; code: 'POLICY_7004' | 'POLICY_7005' | 'REQUEST_7004'; message: string }[];
};

export async function sendReminders(
  tx: Queryable, user: ActingUser, userIds: readonly string[], now: Date, send: SendMail, linkFor: ReminderLinkFor,
): Promise<ReminderAnswer> {
  if (!isAdmin(user)) throw new ApiError('POLICY_7002', 'Only an admin can send missing-item reminders.');
  const out: ReminderAnswer = { reminded: [], skipped: [] };
  const day = now.toISOString().slice(0, 10);
  const skip = (user_id: string, code: ReminderAnswer['skipped'][number]['code'], message: string = ERROR_CATALOGUE[code].message) =>
    out.skipped.push({ user_id, code, message });
  for (const id of [...new Set(userIds)]) {
    const [person] = await tx.query<Person>(
      `SELECT u.email, u.first_name, u.identity_id::text, u.status = 'ACTIVE' AS active, coalesce('missing_items' = ANY(p.email_muted), false) AS muted
         FROM spend_users u LEFT JOIN notification_preferences p ON p.business_id = u.business_id AND p.user_id = u.id
        WHERE u.business_id = $1 AND u.id = $2 AND NOT u.deleted`,
      [user.business_id, id],
    );
    if (!person) {
      skip(id, 'REQUEST_7004', 'No such person in this business.');
      continue;
    }
    const { count, total } = await missingItemsTotal(tx, user.business_id, id);
    if (count === 0) {
      skip(id, 'POLICY_7005');
      continue;
    }
    const inserted = await tx.query(
      `INSERT INTO missing_item_reminders (business_id, user_id, day, sent_by, item_count, sent_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (business_id, user_id, day) DO NOTHING RETURNING user_id`,
      [user.business_id, id, day, user.id, count, now.toISOString()],
    );
    if (inserted.length === 0) {
      skip(id, 'POLICY_7004');
      continue;
    }
    await notify(tx, user.business_id, [{
      owner_id: id, kind: 'missing_items', title: reminderSubject(count), body: notificationBody(count), path: '/missing-items',
      actor_id: user.id, event_key: `reminder:${day}`,
    }], now.toISOString(), { mail: false });
    if (!person.muted) {
      // A token only for someone who could sign in now; an invited or inactive person gets the plain link.
      const link = person.active ? await linkFor({ user_id: id, identity_id: person.identity_id }) : send.link('/missing-items');
      await send(person.email, 'missing_items_reminder', { first_name: person.first_name, count, total, link });
    }
    out.reminded.push({ user_id: id, item_count: count });
  }
  return out;
}

type Person = { email: string; first_name: string; identity_id: string; active: boolean; muted: boolean };

const items = (n: number) => `${n} ${n === 1 ? 'item' : 'items'}`;

export const reminderSubject = (count: number) => `You have ${items(count)} missing a receipt, memo or coding`;

const notificationBody = (count: number) =>
  `Your admin asked you to add what your company's expense policy asks for to ${items(count)}: a receipt, a memo or coding.`;
