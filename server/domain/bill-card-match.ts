import { z } from 'zod';
import type { BillCardCharge, PayByCardSuggestion } from '../../schema/api/calls-bill-card-match.ts';
import {
  CARD_PAYING_STATES, compareMatches, matchBillsToCharges, paidByCardRefusal, PAID_BY_CARD_WINDOW, type BillCardMatch, type CardMatchBill,
} from '../../schema/bill-card-match.ts';
import { BILL_ACTIONS, checkBillAction } from '../../schema/bill-rules.ts';
import type { Bill, BillStatus } from '../../schema/entities/bill.ts';
import type { ActingUser } from '../core/actor.ts';
import { decodeCursor, encodeCursor } from '../core/cursor.ts';
import { ApiError, refuse } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { cancelOpenApproval } from './approval-rows.ts';
import { pendingSettlement } from './bill-payments.ts';
import { findBill } from './bills.ts';
import { writeMirrored } from './collections.ts';
import { visibilityOf, visibleUsersClause } from './visibility.ts';

/**
 * Bills paid by card (issue 30, every money movement exactly once). A vendor took a company card
 * for its invoice: the charge already moved the money (a card transaction, settled with the network
 * by the card settlement job, domain/card-settlement.ts), so Bill pay must not pay the vendor again.
 * The suggestions (schema/bill-card-match.ts) pair open bills with the charges that look like their
 * payment; closing one makes the bill PAID, as mark-as-paid does (`paid_manually`: not sent by
 * Bill pay), and links it (`bills.paid_by_transaction_id`, migration 066).
 *
 * **Nothing is posted to the ledger here**: the money left once, through the card, and the card
 * settlement posts it (OPERATING → CARD_NETWORK); a bill-payment entry as well would count the
 * same invoice's money twice. Tests prove `checkLedger` unchanged around a close and an undo.
 *
 * Once per charge, whatever the code does: bills' unique (business_id, paid_by_transaction_id).
 * Under it, the close reads the link under the bill's lock after the business's seq lock (every
 * mirrored write of the business takes it first), so a second bill racing for the same charge
 * finds it taken and is refused naming the bill; the unique index answers the same refusal if
 * ever the code above is bypassed (bill-card-match.pg.test.ts).
 */

/** The statuses a bill can be closed from: mark-as-paid's (an approved bill not yet paid). */
const CLOSABLE: readonly BillStatus[] = BILL_ACTIONS.markPaid.from;

const CHARGE_COLUMNS = `t.id::text, t.merchant_name, t.amount::int8 AS amount, t.currency, ll_iso(t.occurred_at) AS occurred_at, t.state,
  t.card_id::text, c.display_name AS card_name, c.last_four AS card_last_four, t.user_id::text,
  trim(concat_ws(' ', u.first_name, u.last_name)) AS cardholder_name`;
const CHARGE_FROM = 'transactions t JOIN cards c ON c.id = t.card_id JOIN spend_users u ON u.id = t.user_id';

const asCharge = (r: BillCardCharge): BillCardCharge => ({ ...r, amount: Number(r.amount) });

/** A card charge of the business the caller may see (§6 visibility), or null. */
async function visibleCharge(db: Queryable, user: ActingUser, id: string): Promise<BillCardCharge | null> {
  const params: unknown[] = [user.business_id, id];
  const visible = visibleUsersClause(await visibilityOf(db, user), 't', params);
  const [row] = await db.query<BillCardCharge>(
    `SELECT ${CHARGE_COLUMNS} FROM ${CHARGE_FROM} WHERE t.business_id = $1 AND t.id = $2 AND NOT t.deleted${visible}`, params,
  );
  return row ? asCharge(row) : null;
}

const CHARGE_NOT_FOUND = 'This card charge was not found.';

async function billLink(db: Queryable, businessId: string, billId: string): Promise<string | null> {
  const [row] = await db.query<{ id: string | null }>(
    'SELECT paid_by_transaction_id::text AS id FROM bills WHERE business_id = $1 AND id = $2', [businessId, billId],
  );
  return row?.id ?? null;
}

// --- Suggestions ---------------------------------------------------------------------------------

type OpenBill = CardMatchBill & { invoice_number: string; vendor_id: string; status: BillStatus };

/** Bills a charge could close: closable status, no payment sent or settled, not closed by a charge. */
async function openBills(db: Queryable, businessId: string): Promise<OpenBill[]> {
  const rows = await db.query<OpenBill>(
    `SELECT b.id::text, v.name AS vendor_name, b.amount::int8 AS amount, b.currency, to_char(b.invoice_date, 'YYYY-MM-DD') AS invoice_date,
            b.invoice_number, b.vendor_id::text, b.status
       FROM bills b JOIN vendors v ON v.id = b.vendor_id
      WHERE b.business_id = $1 AND NOT b.deleted AND b.status = ANY($2::text[]) AND b.paid_by_transaction_id IS NULL
        AND NOT EXISTS (SELECT 1 FROM bill_payments p WHERE p.bill_id = b.id AND p.status IN ('PENDING', 'SETTLED'))`,
    [businessId, CLOSABLE],
  );
  return rows.map((b) => ({ ...b, amount: Number(b.amount) }));
}

/**
 * Charges the caller may see that could have paid one of `bills`: paying states, the bill's
 * currency and amount, inside its window (the rule's pre-filter in SQL), closing no bill yet.
 */
async function candidateCharges(db: Queryable, user: ActingUser, bills: readonly OpenBill[]): Promise<BillCardCharge[]> {
  if (bills.length === 0) return [];
  const params: unknown[] = [user.business_id, bills.map((b) => b.id), CARD_PAYING_STATES, PAID_BY_CARD_WINDOW.before, PAID_BY_CARD_WINDOW.after];
  const visible = visibleUsersClause(await visibilityOf(db, user), 't', params);
  // Driven from the bills: each finds its exact-amount charges through transactions_business_amount
  // (migration 066), bounded by its window; a charge fitting several bills is read once.
  const rows = await db.query<BillCardCharge>(
    `SELECT DISTINCT ${CHARGE_COLUMNS}
       FROM bills b
       JOIN transactions t ON t.business_id = b.business_id AND t.currency = b.currency AND t.amount = b.amount
        AND t.occurred_at >= (b.invoice_date - $4::int)::timestamp AT TIME ZONE 'UTC'
        AND t.occurred_at < (b.invoice_date + $5::int + 1)::timestamp AT TIME ZONE 'UTC'
       JOIN cards c ON c.id = t.card_id JOIN spend_users u ON u.id = t.user_id
      WHERE b.business_id = $1 AND b.id = ANY($2::uuid[]) AND NOT t.deleted AND t.state = ANY($3::text[])${visible}
        AND NOT EXISTS (SELECT 1 FROM bills x WHERE x.business_id = $1 AND x.paid_by_transaction_id = t.id)`,
    params,
  );
  return rows.map(asCharge);
}

const SORT = 'pay-by-card';
const cursorShape = z.tuple([z.number(), z.number().int(), z.uuid(), z.uuid()]);

export type SuggestionPage = { data: PayByCardSuggestion[]; page: { next: string | null }; total_count?: number };

/**
 * GET pay-by-card-matching: every open bill's best charge, one-to-one across the business (so a
 * charge suggested for one bill is never offered for another), then narrowed to `billId` when
 * asked (another business's bill 404). Keyset pages over the suggestions' order (score, nearer
 * date, ids).
 */
export async function payByCardSuggestions(
  db: Queryable, user: ActingUser, q: { billId?: string; pageSize: number; start?: string; includeCount: boolean },
): Promise<SuggestionPage> {
  if (q.billId) await findBill(db, user.business_id, q.billId);
  const bills = await openBills(db, user.business_id);
  const charges = await candidateCharges(db, user, bills);
  let matches = matchBillsToCharges(bills, charges);
  if (q.billId) matches = matches.filter((m) => m.bill_id === q.billId);
  const total = matches.length;
  if (q.start) {
    const [score, days, billId, transactionId] = decodeCursor(q.start, SORT, cursorShape) as [number, number, string, string];
    const after: BillCardMatch = { score, days, bill_id: billId, transaction_id: transactionId, merchant: 0, reasons: [] };
    matches = matches.filter((m) => compareMatches(m, after) > 0);
  }
  const page = matches.slice(0, q.pageSize);
  const last = page.at(-1);
  const next = last && matches.length > page.length ? encodeCursor(SORT, [last.score, Math.abs(last.days), last.bill_id, last.transaction_id]) : null;
  const billById = new Map(bills.map((b) => [b.id, b]));
  const chargeById = new Map(charges.map((c) => [c.id, c]));
  const data = page.map((m): PayByCardSuggestion => {
    const b = billById.get(m.bill_id)!;
    return {
      bill_id: m.bill_id, transaction_id: m.transaction_id, score: m.score, days: m.days, reasons: m.reasons,
      bill: { invoice_number: b.invoice_number, vendor_id: b.vendor_id, vendor_name: b.vendor_name, amount: b.amount, currency: b.currency, invoice_date: b.invoice_date, status: b.status },
      transaction: chargeById.get(m.transaction_id)!,
    };
  });
  return { data, page: { next }, ...(q.includeCount ? { total_count: total } : {}) };
}

// --- Close, read, undo ---------------------------------------------------------------------------

const isUniqueViolation = (err: unknown) => typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
const chargeTaken = (invoice: string | null) =>
  `This card charge already closes ${invoice ? `bill ${invoice}` : 'another bill'}: one charge pays one bill.`;
const refusedCharge = (message: string) => new ApiError('REQUEST_7001', message, { transaction_id: message });

/** The bill this charge already closes (another one), by its invoice number. */
async function billClosedBy(tx: Queryable, businessId: string, transactionId: string, exceptBill: string): Promise<string | null | undefined> {
  const [row] = await tx.query<{ invoice_number: string }>(
    'SELECT invoice_number FROM bills WHERE business_id = $1 AND paid_by_transaction_id = $2 AND id <> $3', [businessId, transactionId, exceptBill],
  );
  return row ? row.invoice_number : undefined;
}

/**
 * POST …/:bill_uuid/paid-by-card: the bill PAID by the charge (its day the payment date). The same
 * call again answers the same bill (a bill already closed by this charge is answered as it is,
 * nothing written). Refusals: REQUEST_7001 naming the bill's status (not closable, mark-as-paid's
 * statuses), a payment sent or settled, the charge's currency, amount or state
 * (`paidByCardRefusal`), a charge closing another bill, a bill closed by another charge; 404 for
 * another business's bill or a charge the caller may not see.
 */
export async function closeBillByCard(
  tx: Queryable, user: ActingUser, billId: string, transactionId: string, now: Date,
): Promise<{ bill: Bill; transaction: BillCardCharge }> {
  const businessId = user.business_id;
  // A repeat reads only: no seq taken for a write that does not happen. The bill is read again
  // after its link: read before it, a racing close that committed in between would be answered
  // with the bill as it was (APPROVED) next to its new link.
  await findBill(tx, businessId, billId);
  const charge = await visibleCharge(tx, user, transactionId);
  if (!charge) throw new ApiError('REQUEST_7004', CHARGE_NOT_FOUND);
  if (await billLink(tx, businessId, billId) === transactionId) return { bill: await findBill(tx, businessId, billId), transaction: charge };
  return writeMirrored(tx, businessId, 1, async ({ seqs, reserve }) => {
    const bill = await findBill(tx, businessId, billId, true);
    const link = await billLink(tx, businessId, billId);
    if (link === transactionId) return { bill, transaction: charge };
    if (link) throw new ApiError('REQUEST_7001', 'This bill is already closed by another card charge; undo that first.');
    refuse(checkBillAction('markPaid', bill.status));
    const settlesOn = await pendingSettlement(tx, billId);
    if (settlesOn) throw new ApiError('REQUEST_7001', `This bill’s payment is already on its way (it settles on ${settlesOn}); a card charge cannot close it too.`);
    const [sent] = await tx.query(`SELECT 1 FROM bill_payments WHERE bill_id = $1 AND status = 'SETTLED'`, [billId]);
    if (sent) throw new ApiError('REQUEST_7001', 'This bill was already paid through Bill pay; a card charge cannot close it too.');
    const why = paidByCardRefusal(bill, charge);
    if (why) throw refusedCharge(why);
    const taken = await billClosedBy(tx, businessId, transactionId, billId);
    if (taken !== undefined) throw refusedCharge(chargeTaken(taken));
    const at = now.toISOString();
    // As mark-as-paid: a payment still waiting for approval is withdrawn (its approval canceled).
    if (bill.payment_approval?.status === 'PENDING') {
      await cancelOpenApproval(tx, { id: billId, business_id: businessId, updated_at: at }, (await reserve(1)).last);
    }
    try {
      await tx.query(
        `UPDATE bills SET status = 'PAID', payment_date = $3, paid_at = $4, paid_manually = true, payment_approval = NULL,
                paid_by_transaction_id = $5, payment_failure_reason = NULL, change_seq = $6, updated_at = $4
          WHERE business_id = $1 AND id = $2`,
        [businessId, billId, charge.occurred_at.slice(0, 10), at, transactionId, seqs.last],
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw refusedCharge(chargeTaken(null));
      throw err;
    }
    return { bill: await findBill(tx, businessId, billId), transaction: charge };
  });
}

/** GET …/:bill_uuid/paid-by-card: the charge that closed the bill (null: none, or one the caller may not see). */
export async function billPaidByCard(db: Queryable, user: ActingUser, billId: string) {
  await findBill(db, user.business_id, billId);
  const link = await billLink(db, user.business_id, billId);
  return { bill_id: billId, transaction: link ? await visibleCharge(db, user, link) : null };
}

/**
 * DELETE …/:bill_uuid/paid-by-card: PAID → APPROVED (the machine's only way back from PAID,
 * `reversePayment`; a reconciled bill's books are closed and it stays), the link cleared, so the
 * invoice is owed again and the charge free for another bill. Nothing posted: nothing was.
 */
export async function undoBillPaidByCard(tx: Queryable, user: ActingUser, billId: string, now: Date): Promise<Bill> {
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const bill = await findBill(tx, user.business_id, billId, true);
    if (!(await billLink(tx, user.business_id, billId))) {
      throw new ApiError('REQUEST_7001', 'This bill was not closed by a card charge: there is nothing to undo.');
    }
    refuse(checkBillAction('reversePayment', bill.status));
    await tx.query(
      `UPDATE bills SET status = 'APPROVED', payment_date = NULL, paid_at = NULL, paid_manually = false, paid_by_transaction_id = NULL,
              change_seq = $3, updated_at = $4
        WHERE business_id = $1 AND id = $2`,
      [user.business_id, billId, seqs.last, now.toISOString()],
    );
    return findBill(tx, user.business_id, billId);
  });
}

