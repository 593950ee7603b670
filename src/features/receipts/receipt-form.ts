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

/** Which of the inbox's tabs a receipt is in: attached ones, and ones a claim uses, leave "To match". */
export const isMatched = (r: Pick<InboxReceipt, 'attached_to'>, claim: ClaimUse | null = null): boolean => r.attached_to !== null || claim !== null;

/** A claim that uses a receipt (issue 25: such a receipt is matched, never offered for another claim). */
export interface ClaimUse {
  id: string;
  merchant: string | null;
  amount: number;
  currency: string;
  transaction_date: string;
  status: string;
}

/** "Used in claim: Blue Bottle Coffee · $6.25 · Nov 20, 2026". */
export const claimLine = (c: ClaimUse): string =>
  `Used in claim: ${c.merchant ?? 'Out-of-pocket expense'} · ${formatMoney(c.amount, c.currency)} · ${formatDay(c.transaction_date)}`;

/**
 * The claims using each receipt, keyed by every id a claim may name it by (client id while it
 * waits to upload, the server's after): canceled claims use none.
 */
export function claimsByReceipt(claims: readonly (ClaimUse & { receipt_ids: readonly string[] })[]): Map<string, ClaimUse> {
  const by = new Map<string, ClaimUse>();
  for (const c of claims) {
    if (c.status === 'CANCELED') continue;
    for (const id of c.receipt_ids) if (!by.has(id)) by.set(id, c);
  }
  return by;
}

/** The claim using this receipt, by its client or server id, or null. */
export const claimOf = (r: Pick<InboxReceipt, 'id' | 'local_id' | 'server_id'>, by: ReadonlyMap<string, ClaimUse>): ClaimUse | null =>
  by.get(r.id) ?? (r.local_id ? by.get(r.local_id) : undefined) ?? (r.server_id ? by.get(r.server_id) : undefined) ?? null;

/** The out-of-pocket claim for a receipt no card transaction matches (the reimbursements feature reads it). */
export const outOfPocketHref = (receiptId: string): string => `/reimbursements?new=out_of_pocket&receipt=${encodeURIComponent(receiptId)}`;

/** An OCR reading as the worker's fields (`source: 'ocr'`), or null when it read none of them. */
export function ocrFields(read: { amount?: { minor: number; currency: string }; date?: string; merchant?: string }): ReceiptExtracted | null {
  const merchant = read.merchant?.trim();
  if (!read.amount && !read.date && !merchant) return null;
  return { ...(read.amount ? { amount: read.amount } : {}), ...(read.date ? { date: read.date } : {}), ...(merchant ? { merchant } : {}), source: 'ocr' };
}
