import { isKnownCurrency, toMinorUnits } from '../../../schema/money.ts';
import { currencyExponent } from '../../../schema/money.ts';
import type { ReceiptExtracted } from '../../../schema/receipt-matching.ts';
import type { InboxReceipt, MatchedTransaction } from '../../../workers/api.ts';
import { formatDay, formatMoney } from '../../lib/format.ts';

/**
 * The inbox's fields form (amount + currency, date, merchant) as typed, and the words of a
 * receipt's match. Pure and tested; the worker checks the fields again (receiptExtractedSchema).
 */
export interface ReceiptFormValues {
  amount: string;
  currency: string;
  date: string;
  merchant: string;
}

export type ReceiptFormErrors = Partial<Record<'amount' | 'date', string>>;

/** The currencies the form offers: the receipt's, the business's, then the common ones. */
export { currencyChoices } from '../../lib/currency-choices.ts';

/** What the form shows for a receipt: its stored fields, or empty in the business currency. */
export function formValuesOf(extracted: ReceiptExtracted | null, currency: string): ReceiptFormValues {
  const a = extracted?.amount;
  return {
    amount: a ? (a.minor / 10 ** currencyExponent(a.currency)).toFixed(currencyExponent(a.currency)) : '',
    currency: a?.currency ?? currency,
    date: extracted?.date ?? '',
    merchant: extracted?.merchant ?? '',
  };
}

/** The typed values as the worker's fields (`source: 'manual'`), or the errors by field. */
export function fieldsFromForm(v: ReceiptFormValues, today: string): { ok: true; fields: ReceiptExtracted } | { ok: false; errors: ReceiptFormErrors } {
  const errors: ReceiptFormErrors = {};
  let amount: ReceiptExtracted['amount'];
  if (v.amount.trim()) {
    const minor = isKnownCurrency(v.currency) ? toMinorUnits(v.amount.replace(/^[^\d-]+/, ''), v.currency) : null;
    if (minor === null || minor <= 0) errors.amount = "Enter the receipt's total as a number, e.g. 6.25.";
    else amount = { minor, currency: v.currency };
  }
  if (v.date && !/^\d{4}-\d{2}-\d{2}$/.test(v.date)) errors.date = 'Enter the date on the receipt.';
  else if (v.date && v.date > today) errors.date = 'The date is in the future.';
  if (errors.amount || errors.date) return { ok: false, errors };
  const merchant = v.merchant.trim();
  return { ok: true, fields: { ...(amount ? { amount } : {}), ...(v.date ? { date: v.date } : {}), ...(merchant ? { merchant } : {}), source: 'manual' } };
}

/** "Blue Bottle Coffee · $6.25 · Nov 20, 2026". */
export function transactionLine(t: MatchedTransaction): string {
  return `${t.merchant_name} · ${formatMoney(t.amount, t.currency)} · ${formatDay(t.occurred_at)}`;
}

/** Where a receipt stands in the inbox, in words. */
export function matchStatusText(r: Pick<InboxReceipt, 'attached_to' | 'match' | 'extracted' | 'suggestions'>): string {
  if (r.attached_to) {
    const auto = r.match?.auto === true && r.match.transaction_id === r.attached_to.id;
    return `${auto ? 'Attached automatically to' : 'Attached to'} ${transactionLine(r.attached_to)}`;
  }
  if (!r.extracted?.amount || !r.extracted.date) return 'Add the amount and date to find its card transaction.';
  const best = r.suggestions[0];
  if (!best) return 'No card transaction matches.';
  return `Matches ${transactionLine(best.transaction)}`;
}

/** Which of the inbox's tabs a receipt is in: attached ones leave "To match". */
export const isMatched = (r: Pick<InboxReceipt, 'attached_to'>): boolean => r.attached_to !== null;

/** The out-of-pocket claim for a receipt no card transaction matches (the reimbursements feature reads it). */
export const outOfPocketHref = (receiptId: string): string => `/reimbursements?new=out_of_pocket&receipt=${encodeURIComponent(receiptId)}`;
