import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { flexOfferSchema, FlexRecord } from '../../../schema/api/calls-float.ts';
import { paymentKey, nextPaymentAttempt } from '../../../schema/bill-rules.ts';
import { minorToDecimal } from '../../../schema/money.ts';
import type { Bill } from '../../../schema/entities/bill.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { move, systemAccount } from '../../ledger/ledger.ts';
import { policySaved } from '../approval-rows.ts';
import { assertMayPay, assertPayable, pendingSettlement } from '../bill-payments.ts';
import { findBill } from '../bills.ts';
import { writeMirrored } from '../collections.ts';
import { assertMatchAllowsPayment } from '../procurement/bill-match-store.ts';
import { findRecord } from './installments.ts';
import { activeLine, availableOn, readFlexLine, type FlexLine } from './settings.ts';
import { FLEX_OFFER_TTL_MS, flexTerms, type FlexTerm, type FlexTermDays } from './terms.ts';

/**
 * Issue 30, flex offers. An offer is for one bill: APPROVED, or SCHEDULED and not yet sent; not
 * paid, no payment waiting for approval, in the line's currency (USD), of at least 1.00 and no
 * more than the line's available amount (else FLEX_7002 naming why). It holds three terms
 * (terms.ts) and is open for 24 hours; a new offer for the bill expires the previous open one.
 *
 * Accepting one term (exactly once: the offer row is locked and read OPEN under the lock; a second
 * accept or an expired offer is FLEX_7003; flex_records' UNIQUE offer_id and bill_id, the bill's
 * one live payment and the ledger's entry key hold whatever the code does) pays the vendor at once
 * from the flex line: FLEX_LINE → VENDOR_PAYMENTS (key `flex:<record>:draw`), the bill PAID through
 * a SETTLED bill_payments attempt whose method is FLEX (the bill's next attempt number and key, so
 * the "one live payment" index covers it), and the record's installments SCHEDULED.
 *
 * Lock order (every writer's): the business row (writeMirrored; a new offer takes it too), the flex
 * settings row, the offer, the bill, the vendor (shared), then the ledger accounts (move).
 */
export type FlexOffer = z.infer<typeof flexOfferSchema>;

const MIN_AMOUNT = 100;
const dayOf = (now: Date) => now.toISOString().slice(0, 10);

type OfferRow = {
  id: string; bill_id: string; amount: string | number; currency: string; terms: FlexTerm[]; status: 'OPEN' | 'ACCEPTED' | 'EXPIRED';
  expires_at: string;
};
const OFFER_COLUMNS = 'id, bill_id, amount, currency, terms, status, ll_iso(expires_at) AS expires_at';

function offerDoc(row: OfferRow, now: Date): FlexOffer {
  const money = (amount: number) => ({ amount, currency: row.currency });
  const expired = row.status === 'OPEN' && Date.parse(row.expires_at) <= now.getTime();
  return {
    id: row.id,
    bill_id: row.bill_id,
    amount: money(Number(row.amount)),
    terms: row.terms.map((t) => ({
      term_days: t.term_days,
      fee: money(t.fee),
      installments: t.installments.map((i) => ({ due_date: i.due_date, amount: money(i.principal + i.fee) })),
    })),
    expires_at: row.expires_at,
    status: expired ? 'EXPIRED' : row.status,
  };
}

const money = (amount: number, currency: string) => `${minorToDecimal(amount, currency)} ${currency}`;

/** Why the bill cannot be financed now (FLEX_7002 with the reason), or nothing. */
async function assertEligible(tx: Queryable, businessId: string, bill: Bill, line: FlexLine): Promise<void> {
  const refuse = (why: string) => { throw new ApiError('FLEX_7002', `This bill cannot be paid with flex: ${why}`); };
  if (bill.status !== 'APPROVED' && bill.status !== 'SCHEDULED') {
    refuse(`it is ${bill.status.toLowerCase().replace(/_/g, ' ')} (only an approved or scheduled bill can be).`);
  }
  const settlesOn = await pendingSettlement(tx, bill.id);
  if (settlesOn) refuse(`its payment is already on its way (it settles on ${settlesOn}).`);
  if (bill.payment_approval?.status === 'PENDING') refuse('its payment is waiting for approval.');
  // A saved vendor-payment policy approves every payment before it leaves (issue 28): flex pays at
  // once, so it would skip that approval. Refused, saying how to pay the bill instead.
  if (await policySaved(tx, businessId, 'vendor-payment')) {
    refuse('this business approves vendor payments before they are sent, and flex would skip that approval. Use Pay now to ask for it.');
  }
  if (bill.currency !== line.currency) refuse(`it is in ${bill.currency}; flex pays bills in ${line.currency}.`);
  if (bill.amount < MIN_AMOUNT) refuse(`flex pays bills of ${money(MIN_AMOUNT, line.currency)} or more.`);
  const available = availableOn(line);
  if (bill.amount > available) {
    refuse(`its amount, ${money(bill.amount, bill.currency)}, is more than the ${money(available, line.currency)} available on the flex line.`);
  }
}

/** POST offer: a new offer for the bill (the previous open one expires). */
export async function createFlexOffer(tx: Queryable, user: ActingUser, billId: string, now: Date): Promise<FlexOffer> {
  const line = activeLine(await readFlexLine(tx, user.business_id));
  // The business row first, as accepting takes it before the offer and the bill (no lock cycle).
  await tx.query('SELECT 1 FROM businesses WHERE id = $1 FOR NO KEY UPDATE', [user.business_id]);
  const bill = await findBill(tx, user.business_id, billId, true);
  await assertEligible(tx, user.business_id, bill, line);
  assertMatchAllowsPayment(bill);
  await assertPayable(tx, user.business_id, bill);
  const at = now.toISOString();
  await tx.query(`UPDATE flex_offers SET status = 'EXPIRED' WHERE business_id = $1 AND bill_id = $2 AND status = 'OPEN'`, [user.business_id, bill.id]);
  const [row] = await tx.query<OfferRow>(
    `INSERT INTO flex_offers (id, business_id, bill_id, amount, currency, terms, status, expires_at, created_by, created_at)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, 'OPEN', $7, $8, $9) RETURNING ${OFFER_COLUMNS}`,
    [randomUUID(), user.business_id, bill.id, bill.amount, bill.currency, JSON.stringify(flexTerms(bill.amount, dayOf(now))),
      new Date(now.getTime() + FLEX_OFFER_TTL_MS).toISOString(), user.id, at],
  );
  return offerDoc(row!, now);
}

/** POST offer/:id/accept: pays the bill from the flex line now and schedules the installments. */
export async function acceptFlexOffer(tx: Queryable, user: ActingUser, offerId: string, termDays: FlexTermDays, now: Date): Promise<FlexRecord> {
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const line = activeLine(await readFlexLine(tx, user.business_id, true));
    const [offer] = await tx.query<OfferRow>(
      `SELECT ${OFFER_COLUMNS} FROM flex_offers WHERE business_id = $1 AND id = $2 FOR UPDATE`, [user.business_id, offerId],
    );
    if (!offer) throw new ApiError('REQUEST_7004', 'This flex offer was not found.');
    const shown = offerDoc(offer, now);
    if (shown.status === 'ACCEPTED') throw new ApiError('FLEX_7003', 'This flex offer was already accepted; the bill is paid.');
    if (shown.status === 'EXPIRED') throw new ApiError('FLEX_7003');
    const bill = await findBill(tx, user.business_id, offer.bill_id, true);
    if (bill.amount !== Number(offer.amount) || bill.currency !== offer.currency) {
      throw new ApiError('FLEX_7003', 'This bill changed since the offer was made. Ask for a new offer.');
    }
    await assertEligible(tx, user.business_id, bill, line);
    // Flex pays the vendor's bank account (issue 30: ACH named, so a vendor with only an address is not paid by check here).
    await assertMayPay(tx, user.business_id, bill, 'ACH');
    const term = offer.terms.find((t) => t.term_days === termDays);
    if (!term) throw new ApiError('FLEX_7003', 'This flex offer has no such term. Ask for a new offer.');

    const at = now.toISOString();
    const recordId = randomUUID();
    const paymentId = randomUUID();
    const attempt = nextPaymentAttempt(bill);
    try {
      await tx.query(
        `INSERT INTO bill_payments (id, business_id, bill_id, attempt, payment_key, amount, currency, status, created_by, settles_on, settled_at, method, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'SETTLED', $8, $9, $10, 'FLEX', $10, $10)`,
        [paymentId, user.business_id, bill.id, attempt, paymentKey(bill.id, attempt), bill.amount, bill.currency, user.id, dayOf(now), at],
      );
    } catch (err) {
      if ((err as { code?: unknown }).code === '23505') throw new ApiError('FLEX_7003', 'This bill already has a payment; it cannot be paid twice.');
      throw err;
    }
    await tx.query(
      `UPDATE bills SET status = 'PAID', payment_attempt = $3, payment_date = $4, paid_at = $5, paid_manually = false,
              payment_failure_reason = NULL, change_seq = $6, updated_at = $5
        WHERE business_id = $1 AND id = $2`,
      [user.business_id, bill.id, attempt, dayOf(now), at, seqs.last],
    );
    const vendorPayments = await systemAccount(tx, user.business_id, 'VENDOR_PAYMENTS', bill.currency);
    await move(tx, {
      businessId: user.business_id, kind: 'FLEX_DRAW', key: `flex:${recordId}:draw`, from: line.lineAccountId, to: vendorPayments,
      amount: bill.amount, currency: bill.currency, at: now, memo: `Flex: bill ${bill.invoice_number}`,
      source: { type: 'flex_record', id: recordId }, createdBy: user.id,
    });
    await tx.query(`UPDATE flex_offers SET status = 'ACCEPTED', accepted_at = $2 WHERE id = $1`, [offer.id, at]);
    await tx.query(
      `INSERT INTO flex_records (id, business_id, bill_id, offer_id, bill_payment_id, amount, fee, currency, term_days, status, accepted_by, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'ACTIVE', $10, $11)`,
      [recordId, user.business_id, bill.id, offer.id, paymentId, bill.amount, term.fee, bill.currency, term.term_days, user.id, at],
    );
    for (const [i, inst] of term.installments.entries()) {
      await tx.query(
        `INSERT INTO flex_installments (id, business_id, record_id, number, due_date, principal, fee, status)
         VALUES ($1, $2, $3, $4, $5::date, $6, $7, 'SCHEDULED')`,
        [randomUUID(), user.business_id, recordId, i + 1, inst.due_date, inst.principal, inst.fee],
      );
    }
    return findRecord(tx, user.business_id, recordId);
  });
}
