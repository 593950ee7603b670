import { FLEX_TERMS_DAYS } from '../../../schema/api/calls-float.ts';
import { nextBusinessDay } from '../../../schema/business-days.ts';

/**
 * Issue 30, flex: the pure rules of an offer (no database). A term of 30, 60 or 90 days costs a
 * fee of 1 %, 2 % or 3 % of the amount (rounded to the cent, half up) and is repaid in 1, 2 or 3
 * monthly installments: the principal and the fee are each split in equal parts, the last part
 * taking the remainder; installment n falls 30·n days after the offer's day, moved to the next
 * bank business day (schema/business-days.ts).
 */
export type FlexTermDays = (typeof FLEX_TERMS_DAYS)[number];

export interface PlannedInstallment {
  due_date: string;
  principal: number;
  fee: number;
}

export interface FlexTerm {
  term_days: FlexTermDays;
  fee: number;
  installments: PlannedInstallment[];
}

/** The fee's percent per term. */
export const FLEX_FEE_PERCENT: Record<FlexTermDays, number> = { 30: 1, 60: 2, 90: 3 };

/** A new offer is open this long. */
export const FLEX_OFFER_TTL_MS = 24 * 60 * 60 * 1000;

/** amount × percent / 100, rounded half up to the minor unit (integers only, no float error). */
export function flexFee(amount: number, term: FlexTermDays): number {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError(`a flex amount is a positive whole number of cents: ${amount}`);
  const hundredths = amount * FLEX_FEE_PERCENT[term];
  return Math.floor(hundredths / 100) + (hundredths % 100 >= 50 ? 1 : 0);
}

/** `total` in `n` equal parts, the last taking the remainder. */
export function splitEvenly(total: number, n: number): number[] {
  const part = Math.floor(total / n);
  return Array.from({ length: n }, (_, i) => (i === n - 1 ? total - part * (n - 1) : part));
}

function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** One term's fee and installment schedule for `amount` offered on `offerDay` (YYYY-MM-DD). */
export function flexTerm(amount: number, term: FlexTermDays, offerDay: string): FlexTerm {
  const fee = flexFee(amount, term);
  const n = term / 30;
  const principals = splitEvenly(amount, n);
  const fees = splitEvenly(fee, n);
  return {
    term_days: term,
    fee,
    installments: principals.map((principal, i) => ({
      due_date: nextBusinessDay(addDays(offerDay, 30 * (i + 1))), principal, fee: fees[i]!,
    })),
  };
}

/** Every term of an offer, 30, 60 and 90 days. */
export const flexTerms = (amount: number, offerDay: string): FlexTerm[] => FLEX_TERMS_DAYS.map((t) => flexTerm(amount, t, offerDay));
