import type { z } from 'zod';
import { billTotal } from '../../../../schema/bill-rules.ts';
import type { BillTemplate } from '../../../../schema/api/calls-bill-extras.ts';
import { MAX_BILL_MEMO_LENGTH, MAX_INVOICE_NUMBER_LENGTH } from '../../../../schema/entities/bill.ts';
import type { RecurringBillTemplate } from '../../../../schema/entities/recurring-bill.ts';
import { vendorCreditCreateSchema, type VendorCredit } from '../../../../schema/entities/vendor-credit.ts';
import { validationMessages } from '../../../../schema/errors.ts';
import { parseAmount, type BillFieldErrors } from '../bill-form.ts';

/**
 * The Vendor credits and Templates pages' pure pieces: the new-credit form's body (the create
 * call's schema, its messages in the form's words), credits grouped by vendor with their sums,
 * and the line a template or recurring bill is listed by. Tested in extras-forms.test.ts.
 */
export interface CreditFormValues {
  vendor_id: string;
  credit_note_number: string;
  credit_date: string;
  /** As typed ("250.00"). */
  amount: string;
  currency: string;
  memo: string;
}

export type CreditResult = { ok: true; body: z.output<typeof vendorCreditCreateSchema> } | { ok: false; errors: BillFieldErrors };

const WORDS: Record<string, (value: string) => string> = {
  vendor_id: () => 'Choose the vendor the credit is from.',
  credit_note_number: (v) => (v.trim() === '' ? 'Enter the credit note’s number, as the vendor printed it.' : `The number can be at most ${MAX_INVOICE_NUMBER_LENGTH} characters.`),
  credit_date: () => 'Choose the credit note’s date.',
  amount: () => 'Enter the credit’s amount, more than zero.',
  currency: () => 'Choose a known currency.',
  memo: () => `A memo can be at most ${MAX_BILL_MEMO_LENGTH} characters.`,
};

/** POST /bill-pay/vendor-credits' body, or why not, by field. */
export function creditInput(v: CreditFormValues): CreditResult {
  const typed = v.amount.trim();
  const minor = typed === '' ? undefined : parseAmount(typed, v.currency) ?? typed;
  const memo = v.memo.trim();
  const input = {
    vendor_id: v.vendor_id || undefined, currency: v.currency, amount: minor, credit_note_number: v.credit_note_number,
    credit_date: v.credit_date || undefined, ...(memo ? { memo } : {}),
  };
  const parsed = vendorCreditCreateSchema.safeParse(input);
  if (parsed.success) return { ok: true, body: parsed.data };
  const errors: BillFieldErrors = {};
  for (const key of Object.keys(validationMessages(parsed.error as z.ZodError, input))) {
    const field = key.split('.')[0]!;
    errors[field] = WORDS[field]?.(String((v as unknown as Record<string, string>)[field] ?? '')) ?? 'Check this field.';
  }
  return { ok: false, errors };
}

export interface VendorCredits {
  vendor_id: string;
  vendor: string;
  credits: VendorCredit[];
  /** By currency: what the vendor's credits still hold (a vendor may credit in two currencies). */
  remaining: { currency: string; minor: number }[];
}

/** Credits grouped by vendor (by name), each group newest first, with what remains of them per currency. */
export function creditsByVendor(credits: readonly VendorCredit[], vendorName: (id: string) => string): VendorCredits[] {
  const groups = new Map<string, VendorCredit[]>();
  for (const c of credits) groups.set(c.vendor_id, [...(groups.get(c.vendor_id) ?? []), c]);
  return [...groups].map(([vendor_id, list]) => {
    const sums = new Map<string, number>();
    for (const c of list) sums.set(c.currency, (sums.get(c.currency) ?? 0) + c.remaining);
    return {
      vendor_id,
      vendor: vendorName(vendor_id),
      credits: [...list].sort((a, b) => b.credit_date.localeCompare(a.credit_date) || a.credit_note_number.localeCompare(b.credit_note_number)),
      remaining: [...sums].map(([currency, minor]) => ({ currency, minor })).sort((a, b) => a.currency.localeCompare(b.currency)),
    };
  }).sort((a, b) => a.vendor.localeCompare(b.vendor));
}

/** A template's or recurring bill's lines as one line of text: "Office rent", "Cleaning and 2 more lines". */
export function linesSummary(t: Pick<BillTemplate | RecurringBillTemplate, 'line_items'>): string {
  const first = t.line_items[0]?.description.trim() || 'Untitled line';
  const more = t.line_items.length - 1;
  return more > 0 ? `${first} and ${more} more ${more === 1 ? 'line' : 'lines'}` : first;
}

/** The lines' sum (a template's amount; a recurring bill states its own). */
export const templateAmount = (t: Pick<BillTemplate, 'line_items'>) => billTotal(t.line_items);
