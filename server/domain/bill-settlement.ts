import type { Db, Queryable } from '../db/db.ts';
import { attemptKey, sendAttempt } from './bill-payments.ts';
import { resolveRail, storedRail } from './bill-rails.ts';
import { passOn, payingAccount } from './operating-payments.ts';
import { writeMirrored } from './collections.ts';
import { ApiError } from '../core/errors.ts';
import type { PoMatch } from '../../schema/bill-match.ts';
import { assertMatchAllowsPayment } from './procurement/bill-match-store.ts';
import { railFee, type PaymentRail } from '../../schema/payment-rails.ts';
import { startPeriodicJob, type PeriodicJob, type PeriodicJobOptions } from '../core/periodic-job.ts';

/**
 * The bill payment settlement job (issue 25): money moves on the bank's days, not at once.
 *
 * 1. **Send**: a SCHEDULED bill whose payment date has come and that has no attempt on its way is
 *    sent (a PENDING attempt due on its settlement day, bill-payments.ts `sendAttempt`), if its
 *    vendor can still be paid; if not (its bank details were removed since it was scheduled) the
 *    bill goes PAYMENT_FAILED with the reason, and no money moves.
 * 2. **Settle**: a PENDING attempt whose settlement day has come becomes SETTLED and its bill
 *    PAID (`paid_at` = the run's time). Until then the bill stays SCHEDULED ("processing").
 *
 * Issue 30, the ledger: sending holds the amount (OPERATING → PAYMENTS_IN_FLIGHT, sendAttempt);
 * a bill whose primary operating account cannot cover it on its day goes PAYMENT_FAILED with the
 * TREASURY_7004 reason (naming the account and what it holds) and nothing is posted; settling
 * posts PAYMENTS_IN_FLIGHT → VENDOR_PAYMENTS (key `bill-payment:<attempt id>:settle`).
 *
 * Idempotent and safe with several server processes on one PostgreSQL: candidates are read
 * without locks, then each business's batch runs in one transaction that first takes the
 * business's seq counter (writeMirrored, the lock every mirrored writer of the business takes
 * first, so the job and the API cannot deadlock), then locks each bill `FOR UPDATE SKIP LOCKED`
 * and re-checks its state; every change is a conditional update (`WHERE status = 'PENDING'`,
 * `WHERE status = 'SCHEDULED' AND payment_attempt = …`) that counts only the rows it changed, and
 * bill_payments' unique live attempt holds underneath. A second runner finds nothing left to do.
 * `bill-settlement.pg.test.ts` races two runners over two pools.
 */

const BATCH = 200;
/** Batches per step and run: a backlog larger than this is finished by the next run. */
const MAX_BATCHES = 50;

export type SettlementRun = { sent: number; failed: number; settled: number };

const dayOf = (now: Date) => now.toISOString().slice(0, 10);

function byBusiness(rows: readonly { business_id: string; id: string }[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.business_id, [...(out.get(r.business_id) ?? []), r.id]);
  return out;
}

/** Runs both steps once for every business; answers how many bills it sent, failed and settled. */
export async function settleBillPayments(db: Db, now: Date): Promise<SettlementRun> {
  const run: SettlementRun = { sent: 0, failed: 0, settled: 0 };
  await sendDuePayments(db, now, run);
  await settleDuePayments(db, now, run);
  return run;
}

/**
 * One step over every business: candidates read without locks (`dueSql`, parameters the day and
 * the batch size), batch by batch; each business's candidates in one transaction under its seq
 * counter (writeMirrored, one seq per candidate: `seq`), where `each` re-checks and changes one
 * and answers whether it did. Stops at a short batch, or one where nothing changed.
 */
async function inBusinessBatches(
  db: Db, dueSql: string, day: string, each: (tx: Queryable, businessId: string, id: string, seq: number) => Promise<boolean>,
): Promise<void> {
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const due = await db.query<{ business_id: string; id: string }>(dueSql, [day, BATCH]);
    let progressed = 0;
    for (const [businessId, ids] of byBusiness(due)) {
      progressed += await db.transaction((tx) => writeMirrored(tx, businessId, ids.length, async ({ seqs }) => {
        let done = 0;
        for (const [i, id] of ids.entries()) if (await each(tx, businessId, id, seqs.first + i)) done++;
        return done;
      }));
    }
    if (due.length < BATCH || progressed === 0) return;
  }
}

async function sendDuePayments(db: Db, now: Date, run: SettlementRun): Promise<void> {
  const day = dayOf(now);
  const at = now.toISOString();
  const dueSql = `SELECT b.business_id::text, b.id::text FROM bills b
        WHERE b.status = 'SCHEDULED' AND NOT b.deleted AND b.payment_date <= $1::date
          AND NOT EXISTS (SELECT 1 FROM bill_payments p WHERE p.bill_id = b.id AND p.status IN ('PENDING', 'SETTLED'))
        ORDER BY b.business_id, b.id LIMIT $2`;
  await inBusinessBatches(db, dueSql, day, async (tx, businessId, id, seq) => {
    const [bill] = await tx.query<DueBill>(
      `SELECT b.id::text, b.amount::int8 AS amount, b.currency, b.vendor_id::text, b.payment_attempt, b.po_match,
              COALESCE(b.approved_by, b.created_by)::text AS payer
         FROM bills b
        WHERE b.business_id = $1 AND b.id = $2 AND b.status = 'SCHEDULED' AND NOT b.deleted AND b.payment_date <= $3::date
          AND NOT EXISTS (SELECT 1 FROM bill_payments p WHERE p.bill_id = b.id AND p.status IN ('PENDING', 'SETTLED'))
        FOR UPDATE OF b SKIP LOCKED`,
      [businessId, id, day],
    );
    if (!bill) return false;
    const sent = await sendOrFail(tx, businessId, { ...bill, amount: Number(bill.amount) }, day, seq, at);
    if (sent) run.sent++;
    else run.failed++;
    return true;
  });
}

type DueBill = { id: string; amount: number; currency: string; vendor_id: string; payment_attempt: number; payer: string; po_match: PoMatch | null };

/**
 * Sends the bill's attempt, or (its vendor no longer payable, or, issue 28, it no longer matches
 * its purchase order: a receipt was deleted since it was scheduled) records why it was not sent.
 */
async function sendOrFail(tx: Queryable, businessId: string, bill: DueBill, day: string, seq: number, at: string): Promise<boolean> {
  let rail: PaymentRail;
  try {
    assertMatchAllowsPayment(bill);
    // The rail it was scheduled on (schema/payment-rails.ts), else the vendor's default now.
    rail = await resolveRail(tx, businessId, bill, await storedRail(tx, bill.id));
    await payingAccount(tx, businessId, bill.currency, bill.amount + railFee(rail, bill.currency));
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    await tx.query(
      `UPDATE bills SET status = 'PAYMENT_FAILED', payment_failure_reason = $3, change_seq = $4, updated_at = $5
        WHERE business_id = $1 AND id = $2 AND status = 'SCHEDULED'`,
      [businessId, bill.id, `Not sent on its payment date: ${err.body.error_v2.message}`.slice(0, 500), seq, at],
    );
    return false;
  }
  await sendAttempt(tx, businessId, bill, bill.payer, day, seq, at, rail);
  return true;
}

async function settleDuePayments(db: Db, now: Date, run: SettlementRun): Promise<void> {
  const day = dayOf(now);
  const at = now.toISOString();
  const dueSql = `SELECT business_id::text, id::text FROM bill_payments
        WHERE status = 'PENDING' AND settles_on <= $1::date ORDER BY business_id, id LIMIT $2`;
  await inBusinessBatches(db, dueSql, day, async (tx, businessId, paymentId, seq) => {
    const [payment] = await tx.query<{ bill_id: string; attempt: number; amount: string; rail: PaymentRail }>(
      `SELECT bill_id::text, attempt, amount::text AS amount, rail FROM bill_payments WHERE id = $1 AND status = 'PENDING' AND settles_on <= $2::date`,
      [paymentId, day],
    );
    if (!payment) return false;
    // The bill first (every writer of a bill locks it before its payments), skipped while another runner has it.
    const [locked] = await tx.query('SELECT 1 FROM bills WHERE id = $1 FOR UPDATE SKIP LOCKED', [payment.bill_id]);
    if (!locked) return false;
    const settled = await tx.query(
      // A check settles when it clears (cleared_at: its back shows the vendor's deposit endorsement from then on).
      `UPDATE bill_payments SET status = 'SETTLED', settled_at = $2, updated_at = $2, cleared_at = CASE WHEN rail = 'CHECK' THEN $2::timestamptz END
        WHERE id = $1 AND status = 'PENDING' RETURNING id`,
      [paymentId, at],
    );
    if (settled.length === 0) return false;
    await passOn(tx, {
      businessId, sentKey: attemptKey(paymentId, 'send'), from: 'PAYMENTS_IN_FLIGHT', to: 'VENDOR_PAYMENTS', kind: 'BILL_PAYMENT_SETTLE',
      key: attemptKey(paymentId, 'settle'), at: now, effectiveDate: day, memo: `Bill payment settled, attempt ${payment.attempt}`,
      source: { type: 'bill_payment', id: paymentId }, amount: Number(payment.amount),
    });
    await tx.query(
      `UPDATE bills SET status = 'PAID', paid_at = $3, change_seq = $4, updated_at = $3
        WHERE id = $1 AND status = 'SCHEDULED' AND payment_attempt = $2`,
      [payment.bill_id, payment.attempt, at, seq],
    );
    run.settled++;
    return true;
  });
}

/** The job in a server process: at start and every `everyMs`; one run at a time per process. */
export const startBillSettlementJob = (db: Db, opts: PeriodicJobOptions): PeriodicJob =>
  startPeriodicJob((now) => settleBillPayments(db, now), opts);
