import { currencyExponent } from '../../../schema/money.ts';
import { formatMoney } from '../../lib/format.ts';
import type { InboxRow } from './approval-rows.ts';

/** What the search reads beyond the row: a bill's vendor name (reference data, offline too). */
export interface InboxSearchNames {
  vendor(id: string): string;
}

/** The search's terms: lower-cased, split on white space (every one must match: AND, as every list's search). */
export function searchTerms(q: string): string[] {
  return q.toLowerCase().split(/\s+/).filter(Boolean);
}

/** An amount in the ways a person types it: "$12,400.00", "12,400.00", "12400.00", "12400" (and the currency code). */
function amountText(minor: number, currency: string): string[] {
  const exponent = currencyExponent(currency);
  const plain = (minor / 10 ** exponent).toFixed(exponent);
  const formatted = formatMoney(minor, currency);
  const out = [formatted, plain, currency];
  if (plain.endsWith(`.${'0'.repeat(exponent)}`) && exponent > 0) out.push(plain.slice(0, -exponent - 1));
  out.push(new Intl.NumberFormat('en-US', { minimumFractionDigits: exponent, maximumFractionDigits: exponent }).format(minor / 10 ** exponent));
  return out;
}

/**
 * One inbox row's searchable text: who submitted it, the vendor or merchant, the invoice number,
 * the memo, the reason, the type and the amount (issue 25: "search in Approvals").
 */
export function inboxSearchText(row: InboxRow, names: InboxSearchNames): string {
  const parts: (string | null | undefined)[] = [row.claimant, row.typeLabel, row.description, row.reason, row.approval.reason];
  if (row.bill) parts.push(row.bill.invoice_number, row.bill.memo, names.vendor(row.bill.vendor_id));
  if (row.claim) parts.push(row.claim.merchant, row.claim.memo, row.claim.start_location, row.claim.end_location, row.claim.location);
  if (row.request) parts.push(row.request.reason);
  if (row.spendRequest) parts.push(row.spendRequest.description, row.spendRequest.vendor_id ? names.vendor(row.spendRequest.vendor_id) : null, ...row.spendRequest.line_items.map((l) => l.description));
  if (row.amount !== null && row.currency) parts.push(...amountText(row.amount, row.currency));
  return parts.filter((p): p is string => typeof p === 'string' && p.length > 0).join('\n').toLowerCase();
}

/** Whether every term of `q` is found in the row's text (an empty search matches everything). */
export function matchesInboxSearch(row: InboxRow, q: string, names: InboxSearchNames): boolean {
  const terms = searchTerms(q);
  if (terms.length === 0) return true;
  const text = inboxSearchText(row, names);
  return terms.every((t) => text.includes(t));
}
