import type { Bill } from '../../schema/entities/bill.ts';
import { checkBillAction } from '../../schema/bill-rules.ts';
import { nextApprovers } from '../../schema/approval-policy.ts';
import { formatMoney } from '../../schema/money.ts';
import { mailDate, type MailTemplateName, type MailTemplateValues } from '../mail/templates.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError, refuse } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { stateOf } from './approval-policies.ts';
import type { ApprovalInstance } from '../../schema/api/calls-approval-policies.ts';
import { cancelOpenApproval } from './approval-rows.ts';
import { findBill } from './bills.ts';

/**
 * Bills in approval chains (issue 11): submitting opens the chain's first approval
 * (`openBillApproval`, domain/bills.ts), the chain's last approval moves the bill PENDING_APPROVAL → APPROVED and a
 * rejection → REJECTED with the reason (domain/approvals.ts calls `decideBill`), canceling a bill
 * cancels its open approval, and `remindNextApprovers` mails the open step's approvers. The
 * callers reserved the seqs (writeMirrored) and hold the business row's lock.
 */

/** A canceled bill's open approval (and its chain) → CANCELED; `seq` stamps the approval. */
export const cancelBillApproval = (tx: Queryable, businessId: string, billId: string, seq: number, at: string) =>
  cancelOpenApproval(tx, { id: billId, business_id: businessId, updated_at: at }, seq);

/**
 * The chain completed on `decision`: APPROVED (who completed it, when) or REJECTED with the
 * reason, stamped with `seq`. Refused, naming the status, when the bill is no longer awaiting
 * approval (it cannot be: canceling it cancels its approval, but the machine says so anyway).
 */
export async function decideBill(
  tx: Queryable, user: ActingUser, billId: string, decision: { status: 'APPROVED' } | { status: 'REJECTED'; reason: string },
  seq: number, at: string,
): Promise<Bill> {
  const bill = await findBill(tx, user.business_id, billId, true);
  refuse(checkBillAction(decision.status === 'APPROVED' ? 'approve' : 'reject', bill.status));
  if (decision.status === 'APPROVED') {
    await tx.query(
      `UPDATE bills SET status = 'APPROVED', approved_by = $3, approved_at = $4, rejection_reason = NULL, change_seq = $5, updated_at = $4
        WHERE business_id = $1 AND id = $2`,
      [user.business_id, billId, user.id, at, seq],
    );
  } else {
    await tx.query(
      `UPDATE bills SET status = 'REJECTED', rejection_reason = $3, change_seq = $4, updated_at = $5 WHERE business_id = $1 AND id = $2`,
      [user.business_id, billId, decision.reason, seq, at],
    );
  }
  return findBill(tx, user.business_id, billId);
}

/** An approver is reminded of one approval at most once an hour, whoever asks. */
const REMINDER_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The mail port (routes pass server/http/mail-links.ts `mailer(ctx)`): injected so the domain sends
 * nothing itself; a mail is one of the mail layer's templates with its typed values (a missing one
 * throws MailTemplateError at enqueue); `link` makes an app path the absolute link a mail must carry.
 */
export type SendMail = (<K extends MailTemplateName>(to: string, template: K, values: MailTemplateValues[K]) => Promise<void>) & {
  link(path: string): string;
};

export type Reminder = { bill_id: string; approval_id: string; reminded_user_ids: string[] };

const pad = (n: number) => String(n).padStart(2, '0');
const hhmm = (d: Date) => `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;

/**
 * remind-next-approvers for one bill: a mail to each approver of the open step who has not
 * approved it yet and was not reminded of this approval in the last hour, and an
 * `approval_reminders` row each. A bill whose approvers were all reminded within the hour is
 * refused (naming when they can be reminded again), so a repeated click never mails twice.
 */
export async function remindNextApprovers(tx: Queryable, user: ActingUser, billId: string, now: Date, send: SendMail): Promise<Reminder> {
  const bill = await findBill(tx, user.business_id, billId, true);
  refuse(checkBillAction('remindApprovers', bill.status));
  const [open] = await tx.query<{ id: string; instance: ApprovalInstance | null }>(
    `SELECT r.id::text, (SELECT jsonb_build_object('id', i.id, 'status', i.status, 'requester_id', i.requester_id, 'steps', i.steps)
                           FROM approval_instances i WHERE i.id = r.instance_id) AS instance
       FROM approvals r WHERE r.business_id = $1 AND r.object_id = $2 AND r.status = 'PENDING' FOR UPDATE OF r`,
    [user.business_id, billId],
  );
  if (!open?.instance) throw new ApiError('REQUEST_7001', 'This bill has no open approval step to remind anyone of.');
  const waiting = nextApprovers(stateOf(open.instance));
  const since = new Date(now.getTime() - REMINDER_INTERVAL_MS).toISOString();
  const recent = await tx.query<{ approver_id: string; last: string }>(
    `SELECT approver_id::text, ll_iso(max(reminded_at)) AS last FROM approval_reminders
      WHERE approval_id = $1 AND reminded_at > $2 GROUP BY approver_id`,
    [open.id, since],
  );
  const remindedRecently = new Set(recent.map((r) => r.approver_id));
  const due = waiting.filter((id) => !remindedRecently.has(id));
  if (due.length === 0) {
    const last = recent.map((r) => Date.parse(r.last)).reduce((a, b) => Math.max(a, b), 0);
    const again = last > 0 ? ` after ${hhmm(new Date(last + REMINDER_INTERVAL_MS))}` : ' later';
    throw new ApiError('REQUEST_7001', `This bill's approvers were reminded less than an hour ago; you can remind them again${again}.`);
  }
  const people = await tx.query<{ id: string; email: string }>(
    `SELECT id::text, email FROM spend_users WHERE business_id = $1 AND id = ANY($2::uuid[]) AND NOT deleted ORDER BY email`,
    [user.business_id, due],
  );
  const at = now.toISOString();
  const [vendor] = await tx.query<{ name: string }>('SELECT name FROM vendors WHERE business_id = $1 AND id = $2', [user.business_id, bill.vendor_id]);
  const [by] = await tx.query<{ name: string }>(`SELECT trim(first_name || ' ' || last_name) AS name FROM spend_users WHERE id = $1`, [user.id]);
  const mail = {
    vendor: vendor?.name ?? '', invoice: bill.invoice_number, amount: formatMoney(bill.amount, bill.currency), due: mailDate(bill.due_date),
    reminded_by: by?.name || 'Your finance team', link: send.link(`/approvals?type=bills&open=${open.id}`),
  };
  for (const p of people) {
    await tx.query(
      `INSERT INTO approval_reminders (id, business_id, approval_id, approver_id, reminded_by, reminded_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [crypto.randomUUID(), user.business_id, open.id, p.id, user.id, at],
    );
    await send(p.email, 'bill_approval_reminder', mail);
  }
  return { bill_id: billId, approval_id: open.id, reminded_user_ids: people.map((p) => p.id) };
}
