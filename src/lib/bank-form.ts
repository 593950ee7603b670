import { bankAccountBodySchema, type BankAccountBody } from '../../schema/api/calls-vendors.ts';
import type { MaskedBankAccount } from '../../schema/entities/vendor.ts';
import { isValidAccountNumber, isValidRoutingNumber } from '../../schema/vendor-rules.ts';

/**
 * A vendor's bank details form, shared by the vendor screens and the bill drawer's "Add bank
 * details" (issue 25): its values ↔ the set-bank-account call's body, checked with the call's
 * schema and the vendor rules (ABA checksum) before anything is sent; the server's refusals are
 * mapped back onto the same fields, in the fields' words.
 */

/** Field → message, in the form's words. */
export type FormErrors = Record<string, string>;

export interface BankFormValues {
  routing_number: string;
  account_number: string;
  account_type: BankAccountBody['account_type'];
}

export const emptyBankValues = (): BankFormValues => ({ routing_number: '', account_number: '', account_type: 'CHECKING' });

export const ACCOUNT_TYPE_LABELS: Record<MaskedBankAccount['account_type'], string> = { CHECKING: 'Checking', SAVINGS: 'Savings' };

const BANK_FIELD_LABELS: Record<string, string> = {
  routing_number: 'Routing number', account_number: 'Account number', account_type: 'Account type',
};

/** Digits only (people paste "121 000 358"); the ABA checksum catches a mistyped digit here, not days later. */
export function bankBody(values: BankFormValues): { ok: true; body: BankAccountBody } | { ok: false; errors: FormErrors } {
  const routing = values.routing_number.replace(/[\s-]/g, '');
  const account = values.account_number.replace(/[\s-]/g, '');
  const errors: FormErrors = {};
  if (routing === '') errors.routing_number = 'Routing number is required.';
  else if (!/^\d{9}$/.test(routing)) errors.routing_number = 'A routing number is 9 digits.';
  else if (!isValidRoutingNumber(routing)) errors.routing_number = 'This is not a valid ABA routing number. Check for a mistyped digit.';
  if (account === '') errors.account_number = 'Account number is required.';
  else if (!isValidAccountNumber(account)) errors.account_number = 'An account number is 4 to 17 digits.';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, body: bankAccountBodySchema.parse({ routing_number: routing, account_number: account, account_type: values.account_type }) };
}

/** The server's field messages ("routing_number is invalid") in the form's words ("Routing number is invalid."). */
export function bankErrorsFromMessages(messages: Record<string, string>): FormErrors {
  return Object.fromEntries(Object.entries(messages).map(([path, message]) => {
    const label = BANK_FIELD_LABELS[path] ?? path;
    const text = message.startsWith(path) ? `${label}${message.slice(path.length)}` : message;
    return [path, /[.!?]$/.test(text) ? text : `${text}.`];
  }));
}
