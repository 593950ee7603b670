import { applyStatus } from '../../schema/commands/reimbursement.ts';
import { reimbursementSchema, type Reimbursement } from '../../schema/entities/reimbursement.ts';
import { checkAction, isSettled, settlesAt, type PaymentMethod } from '../../schema/reimbursement-rules.ts';
import { isAdmin } from '../../schema/roles.ts';
import { assertMoneyMovementAllowed, assertPayrollReimbursementEligible } from '../auth/guards.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError, refuse } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { COLLECTIONS, writeMirrored } from './collections.ts';
import { payBack, payOut } from './operating-payments.ts';
import { storeReimbursement } from './reimbursements.ts';

/**
 * Paying approved claims (issue 9), admins only, through a simulated ledger (`ledger_entries`,
 * migration 009; server-only, never mirrored). A payment is one PAYMENT entry of the claim's amount
 * to its claimant; it settles PAYMENT_SETTLEMENT_DAYS (3) after it was made. Until then
 * cancel-payment writes a REVERSAL (the negative amount) and the claim goes back to APPROVED; a
 * settled payment is final.
 *
 * Issue 30: every ledger_entries row has its journal entry. The PAYMENT moves the claim's amount
 * from the business's primary OPERATING account of the claim's currency to EMPLOYEE_PAYMENTS (key
 * `reimbursement-payment:<ledger_entries.id>`); no such account, or not enough in it, refuses the
 * payment TREASURY_7004 naming the account and the available amount, and nothing is written. The
 * REVERSAL gives it back to the account it came from (`reimbursement-payment:<payment id>:reversal`).
 *
 * Money moves once, at three levels: the Idempotency-Key (a repeat replays the first answer); the
 * status machine read under the claim's lock after the business row's (a second payment finds
 * PAID and is refused naming it); and the unique index of at most one unreversed payment per
 * claim (and one reversal per payment), which holds whatever the code above does.
 */

const CLAIM_DOC = COLLECTIONS.reimbursements.docSql;
const ADMINS_ONLY_PAYMENT = 'Only an admin can pay a reimbursement or cancel its payment.';

function assertPayer(user: ActingUser): void {
  if (!isAdmin(user)) throw new ApiError('FORBIDDEN_7003', ADMINS_ONLY_PAYMENT);
}

async function claimForPayment(tx: Queryable, businessId: string, id: string): Promise<Reimbursement> {
  const [row] = await tx.query<{ doc: Reimbursement }>(
    `SELECT ${CLAIM_DOC} AS doc FROM reimbursements r WHERE r.business_id = $1 AND r.id = $2 AND NOT r.deleted FOR UPDATE`,
    [businessId, id],
  );
  if (!row) throw new ApiError('REQUEST_7004');
  return reimbursementSchema.parse(row.doc);
}

/** APPROVED → PAID: one PAYMENT ledger entry (ACH, or payroll when the claimant has a payroll currency). */
export async function payReimbursement(
  tx: Queryable, user: ActingUser, id: string, method: PaymentMethod, now: Date,
): Promise<Reimbursement> {
  assertPayer(user);
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const claim = await claimForPayment(tx, user.business_id, id);
    refuse(checkAction('pay', claim.status));
    const [payee] = await tx.query<{ payroll_currency: string | null; ofac_status: string | null }>(
      `SELECT u.payroll_currency, i.ofac_status FROM spend_users u JOIN identities i ON i.id = u.identity_id WHERE u.id = $1`,
      [claim.user_id],
    );
    if (!payee) throw new ApiError('REQUEST_7004');
    assertMoneyMovementAllowed(payee);
    if (method === 'PAYROLL') assertPayrollReimbursementEligible(payee);
    const paymentId = crypto.randomUUID();
    await payOut(tx, {
      businessId: user.business_id, currency: claim.currency, amount: claim.amount, to: 'EMPLOYEE_PAYMENTS', kind: 'REIMBURSEMENT_PAYMENT',
      key: `reimbursement-payment:${paymentId}`, at: now, memo: `Reimbursement ${method === 'PAYROLL' ? 'by payroll' : 'by ACH'}`,
      source: { type: 'reimbursement', id: claim.id }, createdBy: user.id,
    });
    await tx.query(
      `INSERT INTO ledger_entries (id, business_id, reimbursement_id, user_id, kind, method, amount, currency, created_by, created_at, settles_at)
       VALUES ($1, $2, $3, $4, 'PAYMENT', $5, $6, $7, $8, $9, $10)`,
      [paymentId, user.business_id, claim.id, claim.user_id, method, claim.amount, claim.currency, user.id,
        now.toISOString(), settlesAt(now).toISOString()],
    );
    return storeReimbursement(tx, applyStatus({ ...claim, change_seq: seqs.last, updated_at: now.toISOString() }, 'PAID'));
  });
}

/** PAID → APPROVED while the payment has not settled: a REVERSAL entry; the payment is marked reversed. */
export async function cancelPayment(tx: Queryable, user: ActingUser, id: string, now: Date): Promise<Reimbursement> {
  assertPayer(user);
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const claim = await claimForPayment(tx, user.business_id, id);
    refuse(checkAction('cancelPayment', claim.status));
    const [payment] = await tx.query<{ id: string; method: string; amount: number; currency: string; settles_at: string }>(
      `SELECT id::text, method, amount, currency, ll_iso(settles_at) AS settles_at FROM ledger_entries
        WHERE business_id = $1 AND reimbursement_id = $2 AND kind = 'PAYMENT' AND NOT reversed FOR UPDATE`,
      [user.business_id, claim.id],
    );
    if (!payment) throw new ApiError('REQUEST_7001', 'This reimbursement has no payment to cancel.');
    if (isSettled(new Date(payment.settles_at), now)) {
      throw new ApiError('REQUEST_7001', `This payment settled on ${payment.settles_at.slice(0, 10)} and can no longer be canceled.`);
    }
    await tx.query('UPDATE ledger_entries SET reversed = true WHERE id = $1', [payment.id]);
    await payBack(tx, {
      businessId: user.business_id, sentKey: `reimbursement-payment:${payment.id}`, from: 'EMPLOYEE_PAYMENTS', kind: 'REIMBURSEMENT_REVERSAL',
      key: `reimbursement-payment:${payment.id}:reversal`, at: now, memo: 'Reimbursement payment canceled',
      source: { type: 'reimbursement', id: claim.id }, createdBy: user.id,
    });
    await tx.query(
      `INSERT INTO ledger_entries (id, business_id, reimbursement_id, user_id, kind, method, amount, currency, reverses_id, created_by, created_at, settles_at)
       VALUES ($1, $2, $3, $4, 'REVERSAL', $5, $6, $7, $8, $9, $10, $10)`,
      [crypto.randomUUID(), user.business_id, claim.id, claim.user_id, payment.method, -Number(payment.amount), payment.currency,
        payment.id, user.id, now.toISOString()],
    );
    return storeReimbursement(tx, applyStatus({ ...claim, change_seq: seqs.last, updated_at: now.toISOString() }, 'APPROVED'));
  });
}
