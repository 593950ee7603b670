import type { SendMail } from '../../domain/bill-approvals.ts';
import { isAdmin } from '../../../schema/roles.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import { ERROR_CATALOGUE } from '../../../schema/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { missingItemCount } from './missing-items.ts';

/**
 * POST /v1/auth/expense-policies/reminders (issue 29, admins): one mail per person listing how
 * many items they have missing and a link to their list. At most one per person and UTC day: the
 * `missing_item_reminders` row (primary key business, user, day) is inserted before the mail, and
 * a racing second request meets that key (it waits on the first's transaction, then inserts
 * nothing), so it mails nothing and answers POLICY_7004 for that person. Someone with nothing
 * missing is skipped with POLICY_7005; an unknown id or another business's person with
 * REQUEST_7004 (the same answer, so nothing says whether the id exists elsewhere).
 */
export type ReminderAnswer = {
  reminded: { user_id: string; item_count: number }[];
  skipped: { user_id: string; code: 'POLICY_7004' | 'POLICY_7005' | 'REQUEST_7004'; message: string }[];
};

export async function sendReminders(
  tx: Queryable, user: ActingUser, userIds: readonly string[], now: Date, send: SendMail,
): Promise<ReminderAnswer> {
  if (!isAdmin(user)) throw new ApiError('POLICY_7002', 'Only an admin can send missing-item reminders.');
  const out: ReminderAnswer = { reminded: [], skipped: [] };
  const day = now.toISOString().slice(0, 10);
  const skip = (user_id: string, code: ReminderAnswer['skipped'][number]['code'], message: string = ERROR_CATALOGUE[code].message) =>
    out.skipped.push({ user_id, code, message });
  for (const id of [...new Set(userIds)]) {
    const [person] = await tx.query<{ email: string; first_name: string }>(
      'SELECT email, first_name FROM spend_users WHERE business_id = $1 AND id = $2 AND NOT deleted',
      [user.business_id, id],
    );
    if (!person) {
      skip(id, 'REQUEST_7004', 'No such person in this business.');
      continue;
    }
    const count = await missingItemCount(tx, user.business_id, id);
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
    await send(person.email, reminderSubject(count), reminderBody(person.first_name, count, send.link('/missing-items')));
    out.reminded.push({ user_id: id, item_count: count });
  }
  return out;
}

const items = (n: number) => `${n} ${n === 1 ? 'item' : 'items'}`;

export const reminderSubject = (count: number) => `You have ${items(count)} missing a receipt, memo or coding`;

export function reminderBody(firstName: string, count: number, link: string): string {
  const hello = firstName.trim() ? `Hi ${firstName.trim()},` : 'Hi,';
  return `${hello} ${items(count)} of your card transactions and claims still ${count === 1 ? 'needs' : 'need'} something your company's `
    + `expense policy asks for (a receipt, a memo or coding). Go through them one at a time here: ${link}`;
}
