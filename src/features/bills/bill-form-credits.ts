import type { Bill } from '../../../schema/entities/bill.ts';
import { formatMoney, isKnownCurrency } from '../../../schema/money.ts';
import { parseAmount, type BillFieldErrors, type BillFormValues, type CreditOffer } from './bill-form.ts';

/**
 * The vendor credits a bill may draw on (pure, tested in bill-form.test.ts): what the stored bill
 * holds already, the offers for the form's vendor and currency, and each applied credit checked
 * against what remains of it. Applying one is bill-form.ts `applyCredit`.
 */

/** What the stored bill already takes of each credit (an edit: its own lines do not count against it). */
export function ownCredits(b: Pick<Bill, 'line_items'> | null | undefined): Map<string, number> {
  const own = new Map<string, number>();
  for (const l of b?.line_items ?? []) if (l.vendor_credit_id) own.set(l.vendor_credit_id, (own.get(l.vendor_credit_id) ?? 0) - l.amount);
  return own;
}

/**
 * The credits this bill can draw on, oldest first: the bill's vendor's, in the bill's currency,
 * with something left (`remaining` from the server, plus what the stored bill holds of it already).
 * `applied`: those the form applies now are left out (one credit line per credit).
 */
export function creditOffers(
  credits: readonly CreditOffer['credit'][],
  v: Pick<BillFormValues, 'vendor_id' | 'currency' | 'credits'>,
  own: ReadonlyMap<string, number> = new Map(),
  opts: { applied?: boolean } = {},
): CreditOffer[] {
  const inForm = new Set(v.credits.map((c) => c.vendor_credit_id));
  return credits
    .filter((c) => c.vendor_id === v.vendor_id && c.currency === v.currency && (opts.applied || !inForm.has(c.id)))
    .map((credit) => ({ credit, available: credit.remaining + (own.get(credit.id) ?? 0) }))
    .filter((o) => o.available > 0)
    .sort((a, b) => a.credit.credit_date.localeCompare(b.credit.credit_date) || a.credit.credit_note_number.localeCompare(b.credit.credit_note_number));
}

/**
 * Each applied credit checked against what remains of it (the server's rule and words, domain/
 * vendor-credits.ts), by its credit line's field path: the credit lines follow the lines.
 */
export function creditErrors(v: BillFormValues, offers: readonly CreditOffer[]): BillFieldErrors {
  const errors: BillFieldErrors = {};
  const known = isKnownCurrency(v.currency);
  const money = (n: number) => (known ? formatMoney(n, v.currency) : String(n));
  v.credits.forEach((c, j) => {
    const key = `line_items.${v.lines.length + j}.amount`;
    const offer = offers.find((o) => o.credit.id === c.vendor_credit_id);
    const minor = parseAmount(c.amount, v.currency);
    if (minor === null || minor <= 0) errors[key] = 'Enter what the credit takes off the bill, more than zero.';
    else if (offer && minor > offer.available) errors[key] = `Only ${money(offer.available)} of credit ${offer.credit.credit_note_number} remains.`;
  });
  return errors;
}
