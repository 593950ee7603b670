import { randomUUID } from 'node:crypto';
import type { Approval } from '../../schema/entities/approval.ts';
import type { BillPaymentRow } from '../../schema/api/calls-bills.ts';
import type { Bill, BillPaymentApproval } from '../../schema/entities/bill.ts';
import type { PayeeApproval } from '../../schema/entities/vendor.ts';
import { checkBillAction, nextPaymentAttempt, paymentKey } from '../../schema/bill-rules.ts';
import { railArrival, type PaymentRail } from '../../schema/payment-rails.ts';
import { vendorPaymentCheck, type VendorPaymentCheck } from '../../schema/vendor-rules.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError, refuse } from '../core/errors.ts';
import { assertBulkBills } from './bulk-bill-limit.ts';
import type { Queryable } from '../db/db.ts';
import { cancelOpenApproval, openApproval, policySaved } from './approval-rows.ts';
import { railColumns, rememberRail, resolveRail, storedRail } from './bill-rails.ts';
import { eachOnItsOwn } from './bulk-items.ts';
import { findBill } from './bills.ts';
import { writeMirrored } from './collections.ts';
import { payBack, payOut, payingAccount } from './operating-payments.ts';
import { assertMatchAllowsPayment } from './procurement/bill-match-store.ts';

/**
 * Paying bills (issue 11 §7, issue 25). Money only moves where it can: a bill is paid (now, on a
 * schedule, or on retry) only to a vendor whose bank account verified and whose payment method
 * carries the bill's currency (`vendorPaymentCheck`: ACH, USD); anything else is refused per bill
 * with BILL_PAY_7101 naming the vendor. Paying sends one attempt PENDING, keyed
 * paymentKey(bill, attempt), due to settle on its bank business day (`settles_on`: the payment
 * date plus DEFAULT_SETTLEMENT_DAYS on the Fed calendar); the bill is SCHEDULED meanwhile, never
 * PAID. The settlement job (bill-settlement.ts) makes the attempt SETTLED and the bill PAID on
 * that day, and sends bills scheduled for a later day when their day comes.
 *
 * Money moves once per bill, at three levels: the Idempotency-Key (a retried request replays the
 * first answer); the status and live attempt read under the bill's lock, taken after the business
 * row's (a second request finds the attempt in flight, or PAID, and is refused naming it); and
 * bill_payments' constraints (one row per (bill, attempt), its key paymentKey(bill, attempt), and
 * at most one live attempt per bill), which hold across API processes whatever the code above does.
 *
 * Issue 30, the ledger: an attempt sent (PENDING) holds its amount, OPERATING → PAYMENTS_IN_FLIGHT
 * (key `bill-payment:<attempt id>:send`, from the primary OPERATING account of the bill's
 * currency); not enough there refuses the bill TREASURY_7004 naming the account and the available
 * amount (pay-now and retry in its place, the settlement job marks it PAYMENT_FAILED with the
 * reason). Settled, PAYMENTS_IN_FLIGHT → VENDOR_PAYMENTS (`…:settle`, bill-settlement.ts); reversed
 * or failed, the money goes back to the account it came from (`…:return`, from PAYMENTS_IN_FLIGHT
 * while in flight, from VENDOR_PAYMENTS once settled). Mark-as-paid posts nothing: that money left
 * the business outside Ledgerline.
 */

export const attemptKey = (attemptId: string, step: 'send' | 'settle' | 'return') => `bill-payment:${attemptId}:${step}`;

const today = (now: Date) => now.toISOString().slice(0, 10);
const ALREADY_PAID = 'This bill already has a payment; it cannot be paid twice.';
const inFlight = (settlesOn: string) =>
  `This bill’s payment is already on its way (it settles on ${settlesOn}); it cannot be paid twice.`;

/** Postgres unique_violation: another process wrote the bill's live attempt first. */
const isUniqueViolation = (err: unknown) => typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';

/**
 * The bill's vendor as the payment rule reads it, share-locked so its bank account (and its payee
 * approval, issue 28) cannot change under the payment.
 */
async function vendorPayability(tx: Queryable, businessId: string, vendorId: string, currency: string): Promise<VendorPaymentCheck> {
  const [vendor] = await tx.query<{ name: string; has_account: boolean; verified_at: string | null; payee_approval: PayeeApproval | null }>(
    `SELECT name, bank_account_type IS NOT NULL AS has_account, ll_iso(bank_verified_at) AS verified_at, payee_approval
       FROM vendors WHERE business_id = $1 AND id = $2 FOR SHARE`,
    [businessId, vendorId],
  );
  if (!vendor) return vendorPaymentCheck(null, currency);
  const bank = vendor.has_account ? { verified_at: vendor.verified_at } : null;
  return vendorPaymentCheck({ name: vendor.name, bank_account: bank, payee_approval: vendor.payee_approval }, currency);
}

/**
 * BILL_PAY_7101 naming the vendor, when the bill's money cannot move to it; BILL_PAY_7102 when its
 * new payee details wait for (or were refused) the payee policy's approval (issue 28).
 */
export async function assertPayable(tx: Queryable, businessId: string, bill: Pick<Bill, 'vendor_id' | 'currency'>): Promise<void> {
  const check = await vendorPayability(tx, businessId, bill.vendor_id, bill.currency);
  if (!check.ok) throw new ApiError(check.reason === 'PAYEE_APPROVAL' ? 'BILL_PAY_7102' : 'BILL_PAY_7101', check.message);
}

/**
 * The live attempt's settlement day, when a payment is on its way (PENDING): cancel, schedule,
 * pay now and mark as paid wait for it, or the vendor could be paid twice.
 */
export async function pendingSettlement(tx: Queryable, billId: string): Promise<string | null> {
  const [row] = await tx.query<{ settles_on: string }>(
    `SELECT to_char(settles_on, 'YYYY-MM-DD') AS settles_on FROM bill_payments WHERE bill_id = $1 AND status = 'PENDING'`, [billId],
  );
  return row?.settles_on ?? null;
}

/**
 * Sends one payment attempt for a bill the caller has locked and checked: a PENDING row on `rail`
 * with its settlement day (schema/payment-rails.ts railArrival: ACH two bank business days, a
 * check the last of its 5–7, a wire the send day; a holiday or weekend send counts from the next),
 * and the bill SCHEDULED on `sendDay` with that attempt's number. A check takes the business's next
 * check number and is mailed now; a wire gets its UETR, and its fee leaves the operating account
 * for FEES in the send's own entry.
 */
export async function sendAttempt(
  tx: Queryable, businessId: string, bill: Pick<Bill, 'id' | 'amount' | 'currency' | 'payment_attempt'>, createdBy: string,
  sendDay: string, seq: number, at: string, rail: PaymentRail = 'ACH',
): Promise<void> {
  const attempt = nextPaymentAttempt(bill);
  const cols = await railColumns(tx, businessId, rail, bill.currency);
  // The funds first (the account locked), so a refusal writes nothing.
  await payingAccount(tx, businessId, bill.currency, bill.amount + cols.fee);
  const attemptId = randomUUID();
  try {
    await tx.query(
      `INSERT INTO bill_payments (id, business_id, bill_id, attempt, payment_key, amount, currency, status, created_by, settles_on, created_at, updated_at,
                                  rail, check_number, mailed_at, uetr, wire_fee)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'PENDING', $8, $9, $10, $10, $11, $12, CASE WHEN $12::int IS NULL THEN NULL ELSE $10::timestamptz END, $13, $14)`,
      [attemptId, businessId, bill.id, attempt, paymentKey(bill.id, attempt), bill.amount, bill.currency, createdBy,
        railArrival(rail, sendDay).latest, at, rail, cols.check_number, cols.uetr, cols.wire_fee],
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError('REQUEST_7001', ALREADY_PAID);
    throw err;
  }
  await payOut(tx, {
    businessId, currency: bill.currency, amount: bill.amount, to: 'PAYMENTS_IN_FLIGHT', kind: 'BILL_PAYMENT_SEND',
    key: attemptKey(attemptId, 'send'), at: new Date(at), effectiveDate: sendDay, memo: `Bill payment, attempt ${attempt}${railMemo(rail, cols.check_number)}`,
    source: { type: 'bill_payment', id: attemptId }, createdBy, fee: cols.fee,
  });
  await tx.query(
    `UPDATE bills SET status = 'SCHEDULED', payment_attempt = $3, payment_date = $4, paid_at = NULL, paid_manually = false,
            payment_failure_reason = NULL, payment_rail = $7, change_seq = $5, updated_at = $6
      WHERE business_id = $1 AND id = $2`,
    [businessId, bill.id, attempt, sendDay, seq, at, rail],
  );
}

const railMemo = (rail: PaymentRail, checkNumber: number | null) =>
  rail === 'CHECK' ? `, check ${checkNumber}` : rail === 'WIRE' ? ', wire' : '';

/**
 * Everything a payment of a locked bill needs besides its status: no attempt on its way, the
 * purchase-order match (issue 28: a mismatched bill waits for the match or an admin's override,
 * PROCUREMENT_7013) and a vendor payable on the rail (`rail`, else its default: BILL_PAY_7101 /
 * 7102 naming the field to fix). Answers the rail.
 */
export async function assertMayPay(tx: Queryable, businessId: string, bill: Bill, rail?: PaymentRail | null): Promise<PaymentRail> {
  const settlesOn = await pendingSettlement(tx, bill.id);
  if (settlesOn) throw new ApiError('REQUEST_7001', inFlight(settlesOn));
  assertMatchAllowsPayment(bill);
  return resolveRail(tx, businessId, bill, rail);
}

/** The ports a payment that may need approval uses: one more seq (the approval row's). */
export type PaymentSeqs = { bill: number; reserve: () => Promise<number> };

/**
 * One bill, paid now: a PENDING attempt sent today, the bill SCHEDULED until it settles. `action`:
 * pay-now (from APPROVED or SCHEDULED without an attempt on its way) or retry-payment (from
 * PAYMENT_FAILED: the failed attempt is not live, so the next attempt, with its new key, may be).
 * The vendor must be payable (BILL_PAY_7101 otherwise). Issue 28: while the business has a saved
 * vendor-payment policy, pay-now sends nothing: it asks for approval (`requestPaymentApproval`).
 */
export async function payOne(
  tx: Queryable, user: ActingUser, id: string, seq: number | PaymentSeqs, now: Date, action: 'payNow' | 'retryPayment' = 'payNow',
  asked?: PaymentRail,
): Promise<Bill> {
  const bill = await findBill(tx, user.business_id, id, true);
  refuse(checkBillAction(action, bill.status));
  const seqs = typeof seq === 'number' ? null : seq;
  if (action === 'payNow' && seqs && await policySaved(tx, user.business_id, 'vendor-payment')) {
    return requestPaymentApproval(tx, user, bill, { method: 'PAY_NOW', pay_on: today(now) }, seqs, now, asked);
  }
  // A retry goes on the rail the failed attempt was sent on, unless another is asked for.
  const rail = await assertMayPay(tx, user.business_id, bill, asked ?? (action === 'retryPayment' ? await storedRail(tx, id) : null));
  await sendAttempt(tx, user.business_id, bill, user.id, today(now), seqs?.bill ?? (seq as number), now.toISOString(), rail);
  return findBill(tx, user.business_id, id);
}

const BILL_APPROVAL_WORDS = (p: BillPaymentApproval) => (p.method === 'PAY_NOW' ? 'to pay it now' : `to schedule it for ${p.pay_on}`);

/**
 * Issue 28, vendor-payment policy: pay-now or schedule of a locked APPROVED (or SCHEDULED) bill
 * while the policy is saved. Nothing moves: the checks a payment makes run now (so a request
 * that could never be paid is refused at once, by the same codes), then the approval chain starts
 * from the policy (the payer is the requester, so the chain never names them) and the bill records
 * what was asked, PENDING. A second request while one waits is refused.
 */
export async function requestPaymentApproval(
  tx: Queryable, user: ActingUser, bill: Bill, ask: Pick<BillPaymentApproval, 'method' | 'pay_on'>, seqs: PaymentSeqs, now: Date,
  rail?: PaymentRail,
): Promise<Bill> {
  const waiting = bill.payment_approval;
  if (waiting?.status === 'PENDING') {
    throw new ApiError('REQUEST_7001', `This bill’s payment is already waiting for approval (asked ${BILL_APPROVAL_WORDS(waiting)}); it cannot be asked twice.`);
  }
  // The rail asked for is what the approvers approve: remembered for the send after the last approval.
  await rememberRail(tx, bill.id, await assertMayPay(tx, user.business_id, bill, rail));
  const at = now.toISOString();
  await openApproval(tx, {
    id: bill.id, business_id: user.business_id, user_id: user.id, updated_at: at, amount: bill.amount, currency: bill.currency,
    vendor_id: bill.vendor_id, entity_id: bill.entity_id,
  }, await seqs.reserve(), 'vendor-payment');
  const asked: BillPaymentApproval = { status: 'PENDING', ...ask, requested_by: user.id, requested_at: at, reason: null, decided_by: null };
  await tx.query(
    'UPDATE bills SET payment_approval = $3::jsonb, change_seq = $4, updated_at = $5 WHERE business_id = $1 AND id = $2',
    [user.business_id, bill.id, JSON.stringify(asked), seqs.bill, at],
  );
  return findBill(tx, user.business_id, bill.id);
}

/**
 * The vendor-payment chain completed (domain/approvals.ts, after the approval's and instance's
 * locks): approved, the payment asked for is made now, in this transaction, by the requester, with
 * every check a payment makes run again under the bill's lock (the status, no attempt on its way,
 * the purchase-order match PROCUREMENT_7013, the vendor BILL_PAY_7101/7102): a refusal refuses the
 * decision and the approval stays open. A schedule whose day has passed is sent at the next
 * settlement run. Rejected: the bill stays as it is and records the reason. Exactly once: the
 * approval row is decided once under its lock, `payment_approval` is cleared in the same write,
 * and bill_payments' constraints hold across processes.
 */
export async function decidePaymentApproval(
  tx: Queryable, user: ActingUser, approval: Approval, decision: { status: 'APPROVED' } | { status: 'REJECTED'; reason: string },
  seq: number, now: Date,
): Promise<Bill> {
  const bill = await findBill(tx, user.business_id, approval.object_id, true);
  const asked = bill.payment_approval;
  if (asked?.status !== 'PENDING') throw new ApiError('REQUEST_7001', 'This bill has no payment waiting for approval.');
  const at = now.toISOString();
  if (decision.status === 'REJECTED') {
    const rejected: BillPaymentApproval = { ...asked, status: 'REJECTED', reason: decision.reason, decided_by: user.id };
    await tx.query(
      'UPDATE bills SET payment_approval = $3::jsonb, change_seq = $4, updated_at = $5 WHERE business_id = $1 AND id = $2',
      [user.business_id, bill.id, JSON.stringify(rejected), seq, at],
    );
    return findBill(tx, user.business_id, bill.id);
  }
  refuse(checkBillAction(asked.method === 'PAY_NOW' ? 'payNow' : 'schedule', bill.status));
  const rail = await assertMayPay(tx, user.business_id, bill, await storedRail(tx, bill.id));
  const day = today(now);
  if (asked.method === 'PAY_NOW') {
    await sendAttempt(tx, user.business_id, bill, asked.requested_by, day, seq, at, rail);
  } else {
    await tx.query(
      `UPDATE bills SET status = 'SCHEDULED', payment_date = $3, change_seq = $4, updated_at = $5 WHERE business_id = $1 AND id = $2`,
      [user.business_id, bill.id, asked.pay_on < day ? day : asked.pay_on, seq, at],
    );
  }
  await tx.query('UPDATE bills SET payment_approval = NULL WHERE business_id = $1 AND id = $2', [user.business_id, bill.id]);
  return findBill(tx, user.business_id, bill.id);
}

export type BillResult = { id: string; ok: boolean; bill?: Bill; error_v2?: ApiError['body']['error_v2'] };

/**
 * POST bulk-actions/pay-now: each bill on its own (an unapproved, already paid or unpayable one is
 * refused in its place, the others are sent). Bills are locked in id order so two requests naming the
 * same bills queue rather than deadlock.
 */
export async function payBillsNow(
  tx: Queryable, user: ActingUser, ids: readonly string[], now: Date, rail?: PaymentRail,
): Promise<{ results: BillResult[] }> {
  await assertBulkBills(tx, user.business_id, ids);
  const order = [...ids].sort();
  return writeMirrored(tx, user.business_id, ids.length, async ({ seqs, reserve }) => {
    const ports = (id: string): PaymentSeqs => ({ bill: seqs.first + order.indexOf(id), reserve: async () => (await reserve(1)).last });
    const items = await eachOnItsOwn(tx, order, (id) => payOne(tx, user, id, ports(id), now, 'payNow', rail));
    const byId = new Map(items.map((r) => [r.id, r]));
    const results = ids.map((id): BillResult => {
      const r = byId.get(id)!;
      return r.ok ? { id, ok: true, bill: r.row } : { id, ok: false, error_v2: r.error_v2 };
    });
    return { results };
  });
}

/** Paid outside Ledgerline (a check, a card): the bill records it; no money moves here, nothing is posted to the ledger. */
export async function markBillPaid(tx: Queryable, user: ActingUser, id: string, paymentDate: string | undefined, now: Date): Promise<Bill> {
  return writeMirrored(tx, user.business_id, 1, async ({ seqs, reserve }) => {
    const bill = await findBill(tx, user.business_id, id, true);
    refuse(checkBillAction('markPaid', bill.status));
    const settlesOn = await pendingSettlement(tx, id);
    if (settlesOn) throw new ApiError('REQUEST_7001', inFlight(settlesOn));
    if (await liveAttempt(tx, id)) throw new ApiError('REQUEST_7001', ALREADY_PAID);
    const at = now.toISOString();
    // Issue 28: paid another way, a payment still waiting for approval is withdrawn (its approval canceled).
    if (bill.payment_approval?.status === 'PENDING') {
      await cancelOpenApproval(tx, { id, business_id: user.business_id, updated_at: at }, (await reserve(1)).last);
    }
    await tx.query(
      `UPDATE bills SET status = 'PAID', payment_date = $3, paid_at = $4, paid_manually = true, payment_approval = NULL,
              change_seq = $5, updated_at = $4
        WHERE business_id = $1 AND id = $2`,
      [user.business_id, id, paymentDate ?? today(now), at, seqs.last],
    );
    return findBill(tx, user.business_id, id);
  });
}

async function liveAttempt(tx: Queryable, billId: string): Promise<boolean> {
  const rows = await tx.query(`SELECT 1 FROM bill_payments WHERE bill_id = $1 AND status IN ('PENDING', 'SETTLED')`, [billId]);
  return rows.length > 0;
}

/**
 * PAID → APPROVED (schema's reversePayment): the live attempt, if we sent one, becomes REVERSED,
 * so the next payment is a new attempt with a new key.
 */
export async function reverseBillPayment(tx: Queryable, user: ActingUser, id: string, now: Date): Promise<Bill> {
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const bill = await findBill(tx, user.business_id, id, true);
    refuse(checkBillAction('reversePayment', bill.status));
    const at = now.toISOString();
    const reversed = await tx.query<{ id: string; was: 'PENDING' | 'SETTLED'; amount: string }>(
      `UPDATE bill_payments p SET status = 'REVERSED', updated_at = $2
         FROM bill_payments old WHERE old.id = p.id AND p.bill_id = $1 AND p.status IN ('PENDING', 'SETTLED')
       RETURNING p.id::text, old.status AS was, p.amount::text AS amount`,
      [id, at],
    );
    for (const attempt of reversed) {
      await returnAttempt(tx, user.business_id, { ...attempt, amount: Number(attempt.amount) }, now, 'Payment reversed', user.id);
    }
    await tx.query(
      // Issue 30: a bill closed by a card charge lets go of it (bill-card-match.ts): the charge may close another bill.
      `UPDATE bills SET status = 'APPROVED', payment_date = NULL, paid_at = NULL, paid_manually = false, paid_by_transaction_id = NULL,
              change_seq = $3, updated_at = $4
        WHERE business_id = $1 AND id = $2`,
      [user.business_id, id, seqs.last, at],
    );
    return findBill(tx, user.business_id, id);
  });
}

/**
 * A sent attempt's money back to the account it left (failed, reversed or a voided check): from
 * PAYMENTS_IN_FLIGHT while it was in flight, from VENDOR_PAYMENTS once settled. The attempt's
 * amount only: a wire's fee was the bank's and stays paid. Exactly once per attempt.
 */
export async function returnAttempt(
  tx: Queryable, businessId: string, attempt: { id: string; was: 'PENDING' | 'SETTLED'; amount: number }, now: Date, memo: string,
  createdBy: string | null,
): Promise<void> {
  await payBack(tx, {
    businessId, sentKey: attemptKey(attempt.id, 'send'), from: attempt.was === 'SETTLED' ? 'VENDOR_PAYMENTS' : 'PAYMENTS_IN_FLIGHT',
    kind: 'BILL_PAYMENT_RETURN', key: attemptKey(attempt.id, 'return'), at: now, memo, source: { type: 'bill_payment', id: attempt.id },
    createdBy, amount: attempt.amount,
  });
}

/** A bill's payment attempts, oldest first; another business's bill is 404. */
export async function listBillPayments(db: Queryable, businessId: string, billId: string): Promise<{ data: BillPaymentRow[] }> {
  await findBill(db, businessId, billId);
  const data = await db.query<BillPaymentRow>(
    `SELECT id::text, bill_id::text, amount::int8 AS amount, status, attempt, ll_iso(created_at) AS created_at,
            to_char(settles_on, 'YYYY-MM-DD') AS settles_on, ll_iso(settled_at) AS settled_at,
            rail, check_number, ll_iso(mailed_at) AS mailed_at, ll_iso(cleared_at) AS cleared_at, ll_iso(voided_at) AS voided_at,
            uetr::text, wire_fee::int8 AS wire_fee
       FROM bill_payments WHERE business_id = $1 AND bill_id = $2 ORDER BY attempt`,
    [businessId, billId],
  );
  return { data: data.map((p) => ({ ...p, amount: Number(p.amount), wire_fee: p.wire_fee === null ? null : Number(p.wire_fee) })) };
}
