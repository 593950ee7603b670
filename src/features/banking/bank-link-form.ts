import { manualAccountBodySchema, MAX_DEBIT_CHECK_ATTEMPTS, type LinkedBankAccount } from '../../../schema/api/calls-banking.ts';
import { isValidAccountNumber, isValidRoutingNumber } from '../../../schema/vendor-rules.ts';
import type { BankAccountPatch, ManualAccountBody } from '../../../workers/api.ts';
import type { PillTone } from '../../components/status-pill.tsx';
import { bankErrorsFromMessages } from '../../lib/bank-form.ts';

/**
 * The business's own bank accounts (issue 30, banking links), pure: the link/edit form ↔ the
 * calls' bodies (checked with the contract's schema, the ABA checksum as the routing number is
 * typed), the micro-deposit amounts, the statuses and refusals in words.
 */

export type FormErrors = Record<string, string>;

/** The form's errors without those of the fields just typed in (the same object when none had one). */
export const withoutFieldErrors = (errors: FormErrors, keys: readonly string[]): FormErrors =>
  keys.some((k) => k in errors) ? Object.fromEntries(Object.entries(errors).filter(([k]) => !keys.includes(k))) : errors;

export interface BankLinkValues {
  name: string;
  bank_name: string;
  account_type: 'CHECKING' | 'SAVINGS';
  routing_number: string;
  account_number: string;
  /** '' = no entity. */
  entity_id: string;
}

export const emptyBankLink = (): BankLinkValues => ({
  name: '', bank_name: '', account_type: 'CHECKING', routing_number: '', account_number: '', entity_id: '',
});

/** An account's values for Edit: the numbers blank (kept unless new ones are typed). */
export const bankLinkValuesOf = (a: LinkedBankAccount): BankLinkValues => ({
  name: a.name, bank_name: a.bank_name, account_type: a.account_type, routing_number: '', account_number: '', entity_id: a.entity_id ?? '',
});

const digitsOf = (s: string) => s.replace(/[\s-]/g, '');

export type RoutingCheck =
  | { state: 'empty' }
  | { state: 'typing'; message: string }
  | { state: 'invalid'; message: string }
  | { state: 'valid'; message: string };

/** The routing number as it is typed: quiet while short, the ABA checksum once nine digits are in. */
export function routingCheck(typed: string): RoutingCheck {
  const d = digitsOf(typed);
  if (d === '') return { state: 'empty' };
  if (!/^\d+$/.test(d)) return { state: 'invalid', message: 'A routing number is digits only.' };
  if (d.length < 9) return { state: 'typing', message: `${d.length} of 9 digits.` };
  if (d.length > 9) return { state: 'invalid', message: 'A routing number is 9 digits.' };
  if (!isValidRoutingNumber(d)) return { state: 'invalid', message: 'This is not a valid ABA routing number. Check for a mistyped digit.' };
  return { state: 'valid', message: 'Valid routing number.' };
}

function numberErrors(values: BankLinkValues, required: boolean): FormErrors {
  const errors: FormErrors = {};
  const routing = digitsOf(values.routing_number);
  const account = digitsOf(values.account_number);
  if (!required && routing === '' && account === '') return errors;
  const r = routingCheck(routing);
  if (r.state === 'empty') errors.routing_number = required ? 'Routing number is required.' : 'Enter the routing number with the new account number.';
  else if (r.state !== 'valid') errors.routing_number = r.state === 'typing' ? 'A routing number is 9 digits.' : r.message;
  if (account === '') errors.account_number = required ? 'Account number is required.' : 'Enter the account number with the new routing number.';
  else if (!isValidAccountNumber(account)) errors.account_number = 'An account number is 4 to 17 digits.';
  return errors;
}

/** The link call's body, or the fields' errors in the form's words. */
export function linkBody(values: BankLinkValues, currency: string): { ok: true; body: ManualAccountBody } | { ok: false; errors: FormErrors } {
  const errors = numberErrors(values, true);
  if (values.name.trim() === '') errors.name = 'Name the account (e.g. “Operating”).';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const parsed = manualAccountBodySchema.safeParse({
    name: values.name.trim(),
    ...(values.bank_name.trim() ? { bank_name: values.bank_name.trim() } : {}),
    account_type: values.account_type,
    routing_number: digitsOf(values.routing_number),
    account_number: digitsOf(values.account_number),
    currency,
    entity_id: values.entity_id || null,
  });
  if (!parsed.success) return { ok: false, errors: Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0] ?? 'name'), `${i.message}.`])) };
  return { ok: true, body: parsed.data };
}

/** The edit call's patch: only what changed; new numbers only when both are typed (they reset verification). */
export function editPatch(account: LinkedBankAccount, values: BankLinkValues): { ok: true; patch: BankAccountPatch; resetsVerification: boolean } | { ok: false; errors: FormErrors } {
  const errors = numberErrors(values, false);
  if (values.name.trim() === '') errors.name = 'Name the account (e.g. “Operating”).';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const patch: BankAccountPatch = {};
  if (values.name.trim() !== account.name) patch.name = values.name.trim();
  if (values.bank_name.trim() !== account.bank_name) patch.bank_name = values.bank_name.trim();
  if (values.account_type !== account.account_type) patch.account_type = values.account_type;
  if ((values.entity_id || null) !== account.entity_id) patch.entity_id = values.entity_id || null;
  const routing = digitsOf(values.routing_number);
  if (routing !== '') {
    patch.routing_number = routing;
    patch.account_number = digitsOf(values.account_number);
  }
  return { ok: true, patch, resetsVerification: routing !== '' && account.status === 'VERIFIED' };
}

const FIELD_LABELS: Record<string, string> = { name: 'Name', bank_name: 'Bank name', entity_id: 'Entity' };

/** The server's field messages on the form's fields (BANKING_7001 lands on the routing number). */
export function serverFieldErrors(error: { error_code: string; message: string; errors?: Record<string, string> | undefined }): FormErrors {
  const out = bankErrorsFromMessages(Object.fromEntries(Object.entries(error.errors ?? {}).map(([k, v]) => [k, FIELD_LABELS[k] && v.startsWith(k) ? `${FIELD_LABELS[k]}${v.slice(k.length)}` : v])));
  if (error.error_code === 'BANKING_7001' && !out.routing_number) out.routing_number = error.message;
  return out;
}

/** One micro-deposit typed in cents ("12", "0.12", "$0.12") → 1–99, or null. */
export function parseCents(text: string): number | null {
  const t = text.trim().replace(/^\$/, '');
  let cents: number;
  if (/^\d{1,2}$/.test(t)) cents = Number(t);
  else if (/^0?\.\d{2}$/.test(t)) cents = Number(t.slice(t.indexOf('.') + 1));
  else return null;
  return cents >= 1 && cents <= 99 ? cents : null;
}

export function debitAmounts(first: string, second: string): { ok: true; amounts: [number, number] } | { ok: false; errors: FormErrors } {
  const a = parseCents(first);
  const b = parseCents(second);
  const errors: FormErrors = {};
  const message = 'Enter the deposit in cents, 1 to 99 (e.g. 32 for $0.32).';
  if (a === null) errors.first = message;
  if (b === null) errors.second = message;
  return a !== null && b !== null ? { ok: true, amounts: [a, b] } : { ok: false, errors };
}

export const STATUS_LABELS: Record<LinkedBankAccount['status'], string> = {
  UNVERIFIED: 'Unverified', PENDING_VERIFICATION: 'Verifying', VERIFIED: 'Verified', FAILED: 'Failed',
};
export const STATUS_TONES: Record<LinkedBankAccount['status'], PillTone> = {
  UNVERIFIED: 'neutral', PENDING_VERIFICATION: 'info', VERIFIED: 'ok', FAILED: 'danger',
};

/** What the status means and what to do next. */
export function statusText(a: LinkedBankAccount): string {
  switch (a.status) {
    case 'UNVERIFIED': return 'Not verified yet: send two small deposits to prove the business owns it.';
    case 'PENDING_VERIFICATION': return `Two deposits under $1.00 are on their way (1–2 business days). ${attemptsText(a.attempts_left)}`;
    case 'VERIFIED': return 'Verified: money can move to and from it.';
    case 'FAILED': return 'Verification failed after too many wrong amounts. Send two new deposits to try again.';
  }
}

export function attemptsText(left: number | null): string {
  if (left === null) return `You have ${MAX_DEBIT_CHECK_ATTEMPTS} tries to enter them.`;
  if (left <= 0) return 'No tries left: the account is locked for verification.';
  return left === 1 ? '1 try left: a wrong answer locks verification until new deposits are sent.' : `${left} tries left.`;
}

/** A refusal explained where the catalogue's words alone do not say what to do. */
export function refusalText(error: { error_code: string; message: string }): string {
  switch (error.error_code) {
    case 'BANKING_7004': return `${error.message} Transfers on their way settle or can be canceled in Treasury; an automation policy that uses this account must be changed to another one first.`;
    case 'BANKING_7003': return `${error.message} If the amounts were wrong too many times, send two new deposits and enter those.`;
    default: return error.message;
  }
}
