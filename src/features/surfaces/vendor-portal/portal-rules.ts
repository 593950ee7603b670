import { isValidAccountNumber, isValidRoutingNumber } from '../../../../schema/vendor-rules.ts';
import { tinCheck, type TinType } from '../../../../schema/vendor-network.ts';
import { NETWORK_DOCUMENT_NAMES, networkDocumentExtension, type NetworkDocumentKind } from '../../../../schema/entities/network-vendor.ts';

/**
 * Issue 31, the vendor portal's pure rules: the invite link's token, the forms' checks (the
 * server's own rules: ABA routing checksum, account digits, EIN/SSN shape), and the words for
 * payment states and what a saved detail did at each payer.
 */

/** Where the invite page keeps the token while an existing account signs in. */
export const PENDING_INVITE_KEY = 'ledgerline.vendor-invite';

/** The token of the mail's link (`#token=…`), else the one kept before signing in; null for none. */
export function inviteTokenOf(hash: string, pending: string | null): string | null {
  const fromHash = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  const token = fromHash ?? pending;
  return token && /^[A-Za-z0-9_-]{20,100}$/.test(token) ? token : null;
}

export interface InviteForm { first_name: string; last_name: string; password: string }

export function inviteFormErrors(form: InviteForm): Partial<Record<keyof InviteForm, string>> {
  const errors: Partial<Record<keyof InviteForm, string>> = {};
  if (!form.first_name.trim()) errors.first_name = 'Enter your first name.';
  if (!form.last_name.trim()) errors.last_name = 'Enter your last name.';
  if (form.password.length < 10) errors.password = 'Use at least 10 characters.';
  return errors;
}

export interface BankForm { holder_name: string; routing_number: string; account_number: string }

/** The bank numbers as the server checks them (digits only; spaces are dropped first). */
export function bankFormErrors(form: BankForm, needsHolder: boolean): Partial<Record<keyof BankForm, string>> {
  const errors: Partial<Record<keyof BankForm, string>> = {};
  if (needsHolder && !form.holder_name.trim()) errors.holder_name = 'Enter the name on the account.';
  if (!isValidRoutingNumber(digits(form.routing_number))) errors.routing_number = 'Enter a valid 9-digit ABA routing number.';
  if (!isValidAccountNumber(digits(form.account_number))) errors.account_number = 'Enter 4 to 17 digits.';
  return errors;
}

export const digits = (value: string) => value.replace(/[\s-]/g, '');

/** The TIN's check, as the server's (`tinCheck`): null when it fits. */
export function tinError(type: TinType, tin: string): string | null {
  const r = tinCheck(type, tin);
  return r.ok ? null : r.message;
}

type Outcome = 'filled' | 'proposed' | 'unchanged';

/** What a save did, in words: filled at payers ("verified by vendor"), or sent as a change to accept. */
export function propagationText(what: string, payers: readonly { business_name: string; outcome: Outcome }[]): string {
  const names = (o: Outcome) => payers.filter((p) => p.outcome === o).map((p) => p.business_name);
  const parts = [`Your ${what} is saved.`];
  const filled = names('filled');
  const proposed = names('proposed');
  if (filled.length) parts.push(`${listOf(filled)} now ${filled.length === 1 ? 'has' : 'have'} it, marked verified by vendor.`);
  if (proposed.length) parts.push(`Sent as a change for ${listOf(proposed)} to accept.`);
  if (!filled.length && !proposed.length && payers.length) parts.push('Your payers already had it.');
  return parts.join(' ');
}

const listOf = (names: string[]) => (names.length <= 2 ? names.join(' and ') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`);

export type PaymentView = { bill_status: string; payment_status: 'PENDING' | 'SETTLED' | 'FAILED' | 'REVERSED' | null };

/** A payer's bill as the vendor reads it. */
export function paymentStatusText(p: PaymentView): string {
  if (p.payment_status === 'SETTLED') return 'Paid';
  if (p.payment_status === 'PENDING') return 'On its way';
  if (p.payment_status === 'FAILED') return 'Payment failed';
  if (p.payment_status === 'REVERSED') return 'Payment returned';
  if (p.bill_status === 'SCHEDULED' || p.bill_status === 'APPROVED') return 'Scheduled';
  if (p.bill_status === 'PAID') return 'Paid';
  return 'Not paid yet';
}

/** The documents a vendor shares, in the words of the kind picker and the list. */
export const DOCUMENT_KIND_LABELS = Object.fromEntries(
  Object.entries(NETWORK_DOCUMENT_NAMES).map(([kind, name]) => [kind, name.long]),
) as Record<NetworkDocumentKind, string>;

export const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
export const DOCUMENT_ACCEPT = 'application/pdf,image/png,image/jpeg';

/** The upload's own check before sending (the server checks the bytes too): null when it fits. */
export function documentFileError(file: { type: string; size: number }): string | null {
  if (!DOCUMENT_ACCEPT.split(',').includes(file.type)) return 'Choose a PDF, PNG or JPEG file.';
  if (file.size === 0) return 'This file is empty. Choose another one.';
  if (file.size > DOCUMENT_MAX_BYTES) return 'This file is larger than 10 MB. Choose a smaller one or scan it again at a lower resolution.';
  return null;
}

/** A download's file name: the kind and the day it was uploaded, with the type's extension. */
export function documentFileName(d: { kind: keyof typeof DOCUMENT_KIND_LABELS; content_type: string; uploaded_at: string }): string {
  return `${d.kind === 'OTHER' ? 'document' : d.kind}-${d.uploaded_at.slice(0, 10)}.${networkDocumentExtension(d.content_type)}`;
}

const PREFILLED_WORDS: Record<string, string> = {
  business_name: 'your business name', business_details: 'your business details', bank_accounts: 'your bank account',
  address: 'your address', ein: 'your EIN',
};

/** What the profile filled in the new application, in words (the server names the steps). */
export function prefilledText(prefilled: readonly string[]): string {
  if (prefilled.length === 0) return 'Nothing was prefilled from your profile: you start from the first step.';
  const words = prefilled.map((p) => PREFILLED_WORDS[p] ?? p.replace(/_/g, ' '));
  return `Prefilled from your vendor profile: ${listOf(words)}. Check them as you go.`;
}
