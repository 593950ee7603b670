import type { FlexInstallment, FlexOffer } from '../../workers/api.ts';
import type { PillTone } from '../components/status-pill.tsx';
import { formatDay, formatMoney } from './format.ts';

/**
 * Issue 30, flex (paying a bill now and repaying it in installments): the words the flex page
 * (features/banking) and the bill drawer's "Pay with flex" (features/bills) share. Pure, tested.
 */

type Term = FlexOffer['terms'][number];

export const INSTALLMENT_LABELS: Record<FlexInstallment['status'], string> = { SCHEDULED: 'Scheduled', PAID: 'Paid', FAILED: 'Failed' };
export const INSTALLMENT_TONES: Record<FlexInstallment['status'], PillTone> = { SCHEDULED: 'info', PAID: 'ok', FAILED: 'danger' };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * A term beside its "60 days" label: "fee $12.00 · 2 installments of $510.00" (the days are the
 * label's, not said twice); installments of different amounts are each named.
 */
export function termText(t: Term): string {
  const fee = t.fee.amount === 0 ? 'no fee' : `fee ${formatMoney(t.fee.amount, t.fee.currency)}`;
  const amounts = t.installments.map((i) => formatMoney(i.amount.amount, i.amount.currency));
  const count = plural(t.installments.length, 'installment', 'installments');
  return `${fee} · ${new Set(amounts).size === 1 ? `${count} of ${amounts[0]}` : `${count}: ${amounts.join(', ')}`}`;
}

/** "$510.00 on Dec 29, 2026, then $510.00 on Jan 28, 2027" */
export function scheduleText(installments: readonly { due_date: string; amount: { amount: number; currency: string } }[]): string {
  return installments.map((i, n) => `${n === 0 ? '' : n === installments.length - 1 ? 'and ' : ''}${formatMoney(i.amount.amount, i.amount.currency)} on ${formatDay(i.due_date)}`).join(installments.length > 2 ? ', ' : ' ');
}

/** What accepting does, named in full: amount, vendor, fee, schedule, where repayments come from. */
export function acceptText(offer: Pick<FlexOffer, 'amount'>, term: Term, vendor: string): string {
  const total = offer.amount.amount + term.fee.amount;
  return `${vendor} is paid ${formatMoney(offer.amount.amount, offer.amount.currency)} today from your flex line. `
    + `You repay ${formatMoney(total, offer.amount.currency)} (the fee is ${formatMoney(term.fee.amount, term.fee.currency)}) over ${term.term_days} days: `
    + `${scheduleText(term.installments)}, collected from your operating account.`;
}

/** A flex refusal with what to do next. */
export function flexRefusalText(error: { error_code: string; message: string }): string {
  switch (error.error_code) {
    case 'FLEX_7003': return `${error.message} Close this and choose Pay with flex again for a fresh offer.`;
    case 'FLEX_7005': return error.message;
    case 'FLEX_7002': return `${error.message} Check the bill is approved and not paid, and that the line has room for it.`;
    default: return error.message;
  }
}
