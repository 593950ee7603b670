import type { MaskedBankAccount, Vendor, VendorAddress } from './entities/vendor.ts';

/**
 * Vendor (payee) rules, pure (issue 11): the US address rule (PAYEE_1007), bank numbers (ABA
 * routing checksum, masking), bulk-upload rows and payee merges. The server applies them with
 * authority; a client form may run them first for an early message.
 */

/** USPS codes of the states, DC and the territories bill pay mails checks to. */
export const US_STATE_CODES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME',
  'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI',
  'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY', 'AS', 'GU', 'MP', 'PR', 'VI',
] as const;
const US_STATES: ReadonlySet<string> = new Set(US_STATE_CODES);

export type AddressCheck =
  | { ok: true }
  /** PAYEE_1007: the §8 code for a US vendor without a state. */
  | { ok: false; code: 'PAYEE_1007'; field: 'address.state'; message: string }
  | { ok: false; code: 'REQUEST_7001'; field: 'address.state'; message: string };

/**
 * §8 PAYEE_1007: a US vendor must have a state (checks are mailed and 1099s filed by it), and it
 * must be a USPS code so two spellings of one state never become two addresses. Other countries'
 * regions are free text: we keep what the vendor wrote.
 */
export function checkVendorAddress(address: Pick<VendorAddress, 'country' | 'state'> | null): AddressCheck {
  if (!address || address.country !== 'US') return { ok: true };
  if (address.state === null || address.state.trim() === '') {
    return { ok: false, code: 'PAYEE_1007', field: 'address.state', message: 'State is required for US vendors.' };
  }
  if (!US_STATES.has(address.state)) {
    return { ok: false, code: 'REQUEST_7001', field: 'address.state', message: 'address.state must be a two-letter US state code' };
  }
  return { ok: true };
}

/**
 * An ABA routing number: 9 digits whose weighted sum (3, 7, 1 repeating) is a multiple of 10.
 * The checksum catches a mistyped or transposed digit before a payment bounces days later.
 */
export function isValidRoutingNumber(routing: string): boolean {
  if (!/^\d{9}$/.test(routing)) return false;
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  const sum = [...routing].reduce((acc, d, i) => acc + Number(d) * weights[i]!, 0);
  return sum % 10 === 0;
}

/** US account numbers are 4 to 17 digits (NACHA's DFI account number field is 17 wide). */
export const isValidAccountNumber = (account: string) => /^\d{4,17}$/.test(account);

/** What every viewer sees of a bank account: the last four digits of each number. */
export function maskBankAccount(bank: { routing_number: string; account_number: string; account_type: MaskedBankAccount['account_type'] }): MaskedBankAccount {
  return { last_four: bank.account_number.slice(-4), routing_last_four: bank.routing_number.slice(-4), account_type: bank.account_type };
}

/** Vendor names compare trimmed and case-insensitively: "Acme " and "ACME" are one vendor. */
export const vendorNameKey = (name: string) => name.trim().toLowerCase();

export type MergeCheck = { ok: true } | { ok: false; field: string; message: string };

/**
 * A merge folds `merged` payees into `survivor`: the survivor must not be among them, each is
 * named once, and an archived survivor is refused (bills would move to a vendor nobody can pick).
 * Whether the ids exist is the server's lookup (404), not a rule.
 */
export function checkMerge(survivorId: string, mergedIds: readonly string[], survivor: Pick<Vendor, 'status'>): MergeCheck {
  if (mergedIds.includes(survivorId)) return { ok: false, field: 'merged_payee_ids', message: 'merged_payee_ids cannot include the surviving payee' };
  if (new Set(mergedIds).size !== mergedIds.length) return { ok: false, field: 'merged_payee_ids', message: 'merged_payee_ids must not repeat a payee' };
  if (survivor.status === 'ARCHIVED') return { ok: false, field: 'survivor_payee_id', message: 'The surviving payee is archived; unarchive it first.' };
  return { ok: true };
}

/** The survivor's own details the merge may fill from a merged payee (never overwrite). */
export const MERGE_FILLED_FIELDS = ['email', 'phone', 'address', 'default_gl_account_id', 'default_department_id'] as const;
type Filled = Pick<Vendor, (typeof MERGE_FILLED_FIELDS)[number]>;

/**
 * The survivor after a merge: its own values win; each empty one takes the first merged payee's
 * (in the order the caller named them) that has it, so merging never loses a detail nor
 * silently replaces one the survivor already had.
 */
export function mergedFields(survivor: Filled, merged: readonly Filled[]): Filled {
  const out = { ...survivor } as Record<keyof Filled, unknown>;
  for (const key of MERGE_FILLED_FIELDS) {
    if (out[key] !== null) continue;
    out[key] = merged.find((m) => m[key] !== null)?.[key] ?? null;
  }
  return out as Filled;
}

/**
 * Rows of one bulk upload naming the same vendor (by vendorNameKey): every row after the first is
 * refused, so an upload never creates a duplicate of itself. Returns the 1-based row numbers.
 */
export function repeatedNameRows(names: readonly string[]): Map<number, number> {
  const first = new Map<string, number>();
  const repeats = new Map<number, number>();
  names.forEach((name, i) => {
    const key = vendorNameKey(name);
    const seen = first.get(key);
    if (seen === undefined) first.set(key, i + 1);
    else repeats.set(i + 1, seen);
  });
  return repeats;
}
