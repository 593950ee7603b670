import type { TransactionState } from './entities/transaction.ts';
import { formatMoney } from './money.ts';
import { merchantSimilarity } from './receipt-matching.ts';

/**
 * Bills paid by card (issue 30, §7 Bill pay "GET pay-by-card matching"), pure: which company-card
 * charge paid which open bill. The server runs it over the business's rows (server/domain/
 * bill-card-match.ts); the bill drawer shows its suggestions and reasons.
 *
 * A bill and a card charge match when:
 * - **same currency and exact amount**: the charge is the bill's total in minor units. No
 *   tolerance: a card fee or an FX markup makes a different charge, and within a range one
 *   vendor's monthly charges of a similar size would all fit, so a match could never be told
 *   from its neighbours; such a bill is closed by hand (mark as paid) instead of wrongly here;
 * - **the charge's day is within −3…+30 days of the invoice date** (`PAID_BY_CARD_WINDOW`, UTC
 *   days of `occurred_at`): invoices are usually paid on or after their date, up to a month
 *   later for net-30 terms; a card may be charged a few days before the invoice is dated when the
 *   vendor bills on order and invoices on delivery. Closer to the invoice date is better, a day
 *   before counting as much as ~8 days after (the window's sides scale the distance);
 * - **the charge's merchant is like the vendor's name**: schema/receipt-matching.ts's
 *   `merchantSimilarity` (processor prefixes and store numbers dropped; token Jaccard or trigram
 *   Dice) at least `VENDOR_MERCHANT_SIMILAR`. Lower than the receipt rule's 0.6: a vendor's legal
 *   name ("Acme Supply Co.") and its card descriptor ("ACME SUPPLY 0042") share fewer tokens than a
 *   receipt's header and the same charge, and the exact amount already carries most of the proof;
 * - the charge is PENDING or CLEARED (a DECLINED or REVERSED one paid nothing).
 *
 * Score 0..1: 0.5 × date closeness + 0.5 × merchant similarity. One charge pays at most one bill
 * and one bill is paid by at most one charge: `matchBillsToCharges` takes the best pair first,
 * then the best of what is left (greedy on score, ties by the nearer date, then ids for a stable
 * order), so two equal invoices of one vendor are each offered a different charge.
 */

export const PAID_BY_CARD_WINDOW = { before: 3, after: 30 } as const;
export const VENDOR_MERCHANT_SIMILAR = 0.5;
export const CARD_PAYING_STATES: readonly TransactionState[] = ['PENDING', 'CLEARED'];

export interface CardMatchBill {
  id: string;
  vendor_name: string;
  /** Minor units of `currency` (the bill's total). */
  amount: number;
  currency: string;
  /** YYYY-MM-DD. */
  invoice_date: string;
}

export interface CardMatchCharge {
  id: string;
  merchant_name: string;
  amount: number;
  currency: string;
  /** ISO date-time (UTC). */
  occurred_at: string;
  state: TransactionState;
}

export interface BillCardMatch {
  bill_id: string;
  transaction_id: string;
  /** 0..1, higher is surer (see the header). */
  score: number;
  /** The charge's UTC day minus the invoice date, in days (negative: charged before the invoice date). */
  days: number;
  /** Merchant-to-vendor similarity, 0..1. */
  merchant: number;
  /** Why, in words, for the person deciding ("Same amount: $1,200.00", …). */
  reasons: string[];
}

const DAY_MS = 86_400_000;

/** The charge's UTC day minus the bill's invoice date, in whole days (signed). */
export function chargeDayOffset(invoiceDate: string, occurredAt: string): number {
  return Math.round((Date.parse(`${occurredAt.slice(0, 10)}T00:00:00Z`) - Date.parse(`${invoiceDate}T00:00:00Z`)) / DAY_MS);
}

/** The inclusive UTC day range a bill's charges lie in (for the server's indexed pre-filter). */
export function paidByCardWindow(invoiceDate: string): { from: string; to: string } {
  const t = Date.parse(`${invoiceDate}T00:00:00Z`);
  const day = (d: number) => new Date(t + d * DAY_MS).toISOString().slice(0, 10);
  return { from: day(-PAID_BY_CARD_WINDOW.before), to: day(PAID_BY_CARD_WINDOW.after) };
}

/** 1 on the invoice date, falling linearly to just above 0 at either end of the window. */
function closeness(days: number): number {
  const side = days < 0 ? PAID_BY_CARD_WINDOW.before : PAID_BY_CARD_WINDOW.after;
  return 1 - Math.abs(days) / (side + 1);
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function dateReason(days: number): string {
  if (days === 0) return 'Charged on the invoice date';
  return days > 0 ? `Charged ${plural(days, 'day')} after the invoice date` : `Charged ${plural(-days, 'day')} before the invoice date`;
}

/**
 * Why a charge cannot have paid this bill, in words, or null: the facts the close itself checks
 * (another currency, another amount, a charge that paid nothing). Neither the date window nor the
 * merchant is among them: the person closing it may know better than the suggestion.
 */
export function paidByCardRefusal(bill: Pick<CardMatchBill, 'amount' | 'currency'>, charge: Pick<CardMatchCharge, 'amount' | 'currency' | 'state'>): string | null {
  if (!CARD_PAYING_STATES.includes(charge.state)) {
    return `This card charge is ${charge.state.toLowerCase()}: it paid nothing, so it cannot close a bill.`;
  }
  if (charge.currency !== bill.currency) {
    return `This card charge is in ${charge.currency} and the bill in ${bill.currency}: it cannot have paid it.`;
  }
  if (charge.amount !== bill.amount) {
    return `This card charge is ${formatMoney(charge.amount, charge.currency)} and the bill ${formatMoney(bill.amount, bill.currency)}: only a charge of the bill's exact total closes it.`;
  }
  return null;
}

/** The pair as a suggestion, or null when it is no match (see the header). */
export function scoreBillCharge(bill: CardMatchBill, charge: CardMatchCharge): BillCardMatch | null {
  if (paidByCardRefusal(bill, charge) !== null) return null;
  const days = chargeDayOffset(bill.invoice_date, charge.occurred_at);
  if (!(days >= -PAID_BY_CARD_WINDOW.before && days <= PAID_BY_CARD_WINDOW.after)) return null;
  const merchant = merchantSimilarity(bill.vendor_name, charge.merchant_name);
  if (merchant < VENDOR_MERCHANT_SIMILAR) return null;
  const reasons = [
    `Same amount: ${formatMoney(bill.amount, bill.currency)}`,
    dateReason(days),
    merchant === 1
      ? `Merchant “${charge.merchant_name}” is the vendor “${bill.vendor_name}”`
      : `Merchant “${charge.merchant_name}” looks like the vendor “${bill.vendor_name}”`,
  ];
  return { bill_id: bill.id, transaction_id: charge.id, score: round2(0.5 * closeness(days) + 0.5 * merchant), days, merchant, reasons };
}

/** Best first: score, then the nearer date, then ids (a stable order for paging). */
export function compareMatches(a: BillCardMatch, b: BillCardMatch): number {
  return b.score - a.score || Math.abs(a.days) - Math.abs(b.days)
    || (a.bill_id < b.bill_id ? -1 : a.bill_id > b.bill_id ? 1 : 0)
    || (a.transaction_id < b.transaction_id ? -1 : a.transaction_id > b.transaction_id ? 1 : 0);
}

/**
 * Every open bill's suggested charge, one-to-one, best first. `bills` and `charges` are the
 * candidates (the caller leaves out bills already paid and charges already closing a bill).
 */
export function matchBillsToCharges(bills: readonly CardMatchBill[], charges: readonly CardMatchCharge[]): BillCardMatch[] {
  const byKey = new Map<string, CardMatchCharge[]>();
  for (const c of charges) {
    const key = `${c.currency}:${c.amount}`;
    const list = byKey.get(key);
    if (list) list.push(c);
    else byKey.set(key, [c]);
  }
  const pairs: BillCardMatch[] = [];
  for (const bill of bills) {
    for (const charge of byKey.get(`${bill.currency}:${bill.amount}`) ?? []) {
      const m = scoreBillCharge(bill, charge);
      if (m) pairs.push(m);
    }
  }
  pairs.sort(compareMatches);
  const billsTaken = new Set<string>();
  const chargesTaken = new Set<string>();
  const chosen: BillCardMatch[] = [];
  for (const p of pairs) {
    if (billsTaken.has(p.bill_id) || chargesTaken.has(p.transaction_id)) continue;
    billsTaken.add(p.bill_id);
    chargesTaken.add(p.transaction_id);
    chosen.push(p);
  }
  return chosen;
}
