import { randomUUID } from 'node:crypto';
import type { Bill, BillPayment } from '../../schema/entities/bill.ts';
import { checkBillAction, checkBulkBills, nextPaymentAttempt, paymentKey } from '../../schema/bill-rules.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError, refuse } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { eachOnItsOwn } from './bulk-items.ts';
import { findBill } from './bills.ts';
import { writeMirrored } from './collections.ts';

/**
 * Paying bills (issue 11 §7) through a simulated ledger that settles at once: pay-now writes one
 * payment attempt and the bill goes APPROVED → SCHEDULED → PAID inside the same transaction (the
 * rail reports "settled" before commit), so a caller sees PAID. A real rail would leave the bill
 * SCHEDULED with a PENDING attempt until it answers.
 *
 * Money moves once per bill, at three levels: the Idempotency-Key (a retried request replays the
 * first answer); the status read under the bill's lock, taken after the business row's (a second
 * request finds PAID and is refused naming it); and bill_payments' constraints (one row per
 * (bill, attempt), its key paymentKey(bill, attempt), and at most one live attempt per bill),
 * which hold across API processes whatever the code above does.
 */

const today = (now: Date) => now.toISOString().slice(0, 10);
const ALREADY_PAID = 'This bill already has a payment; it cannot be paid twice.';

/** Postgres unique_violation: another process wrote the bill's live attempt first. */
const isUniqueViolation = (err: unknown) => typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';

/**
 * One bill, paid now: a SETTLED attempt, and the bill PAID with that attempt's number. `action`:
 * pay-now (from APPROVED or SCHEDULED) or retry-payment (from PAYMENT_FAILED: the failed attempt
 * is not live, so the next attempt, with its new key, may be).
 */
export async function payOne(
  tx: Queryable, user: ActingUser, id: string, seq: number, now: Date, action: 'payNow' | 'retryPayment' = 'payNow',
): Promise<Bill> {
  const bill = await findBill(tx, user.business_id, id, true);
  refuse(checkBillAction(action, bill.status));
  const attempt = nextPaymentAttempt(bill);
  const at = now.toISOString();
  try {
    await tx.query(
      `INSERT INTO bill_payments (id, business_id, bill_id, attempt, payment_key, amount, currency, status, created_by, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'SETTLED', $8, $9, $9)`,
      [randomUUID(), user.business_id, id, attempt, paymentKey(id, attempt), bill.amount, bill.currency, user.id, at],
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError('REQUEST_7001', ALREADY_PAID);
    throw err;
  }
  await tx.query(
    `UPDATE bills SET status = 'PAID', payment_attempt = $3, payment_date = $4, paid_at = $5, paid_manually = false,
            payment_failure_reason = NULL, change_seq = $6, updated_at = $5
      WHERE business_id = $1 AND id = $2`,
    [user.business_id, id, attempt, today(now), at, seq],
  );
  return findBill(tx, user.business_id, id);
}

export type BillResult = { id: string; ok: boolean; bill?: Bill; error_v2?: ApiError['body']['error_v2'] };

/**
 * POST bulk-actions/pay-now: each bill on its own (an unapproved or already paid one is refused
 * in its place, the others are paid). Bills are locked in id order so two requests naming the
 * same bills queue rather than deadlock.
 */
export async function payBillsNow(tx: Queryable, user: ActingUser, ids: readonly string[], now: Date): Promise<{ results: BillResult[] }> {
  refuse(checkBulkBills(ids));
  const order = [...ids].sort();
  return writeMirrored(tx, user.business_id, ids.length, async ({ seqs }) => {
    const items = await eachOnItsOwn(tx, order, (id) => payOne(tx, user, id, seqs.first + order.indexOf(id), now));
    const byId = new Map(items.map((r) => [r.id, r]));
    const results = ids.map((id): BillResult => {
      const r = byId.get(id)!;
      return r.ok ? { id, ok: true, bill: r.row } : { id, ok: false, error_v2: r.error_v2 };
    });
    return { results };
  });
}

/** Paid outside Ledgerline (a check, a card): the bill records it; no money moves here. */
export async function markBillPaid(tx: Queryable, user: ActingUser, id: string, paymentDate: string | undefined, now: Date): Promise<Bill> {
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const bill = await findBill(tx, user.business_id, id, true);
    refuse(checkBillAction('markPaid', bill.status));
    if (await liveAttempt(tx, id)) throw new ApiError('REQUEST_7001', ALREADY_PAID);
    const at = now.toISOString();
    await tx.query(
      `UPDATE bills SET status = 'PAID', payment_date = $3, paid_at = $4, paid_manually = true, change_seq = $5, updated_at = $4
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
    await tx.query(
      `UPDATE bill_payments SET status = 'REVERSED', updated_at = $2 WHERE bill_id = $1 AND status IN ('PENDING', 'SETTLED')`,
      [id, at],
    );
    await tx.query(
      `UPDATE bills SET status = 'APPROVED', payment_date = NULL, paid_at = NULL, paid_manually = false, change_seq = $3, updated_at = $4
        WHERE business_id = $1 AND id = $2`,
      [user.business_id, id, seqs.last, at],
    );
    return findBill(tx, user.business_id, id);
  });
}

/** A bill's payment attempts, oldest first; another business's bill is 404. */
export async function listBillPayments(db: Queryable, businessId: string, billId: string): Promise<{ data: BillPayment[] }> {
  await findBill(db, businessId, billId);
  const data = await db.query<BillPayment>(
    `SELECT id::text, bill_id::text, amount::int8 AS amount, status, attempt, ll_iso(created_at) AS created_at
       FROM bill_payments WHERE business_id = $1 AND bill_id = $2 ORDER BY attempt`,
    [businessId, billId],
  );
  return { data: data.map((p) => ({ ...p, amount: Number(p.amount) })) };
}
