import type { MaskedBankAccount, PayeeApproval, Vendor, VendorAddress } from './entities/vendor.ts';

/**
 * Vendor (payee) rules, pure (issue 11): the US address rule (PAYEE_1007), bank numbers (ABA
 * routing checksum, masking), bulk-upload rows and payee merges. The server applies them with
 * authority; a client form may run them first for an early message.
 */

/** USPS codes of the states, DC and the territories bill pay mails checks to. */
const US_STATE_CODES = [
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

/**
 * Whether ACH can deliver to a routing number: its first two digits are a Federal Reserve routing
 * symbol of a depository institution, 01-12 (a district's banks), 21-32 (thrifts) or 61-72
 * (electronic-only). 00 (the US government), 80 (traveler's checks) and everything else pass the
 * checksum but receive no ACH credits.
 */
function isAchRoutable(routing: string): boolean {
  if (!isValidRoutingNumber(routing)) return false;
  const prefix = Number(routing.slice(0, 2));
  return (prefix >= 1 && prefix <= 12) || (prefix >= 21 && prefix <= 32) || (prefix >= 61 && prefix <= 72);
}

/**
 * Issue 25: whether a bank account's details verify, and if not why. Micro-deposits and bank
 * look-ups are out of scope; what a product can check before money moves is checked: the ABA
 * checksum, an ACH-routable Federal Reserve prefix (`isAchRoutable`), and an account number of 4
 * to 17 digits that is not all zeros. The server records the result (`bank_verified_at`) when it
 * stores the account; only a verified account is paid.
 */
export function bankAccountVerification(bank: { routing_number: string; account_number: string }): { ok: true } | { ok: false; message: string } {
  if (!isValidRoutingNumber(bank.routing_number)) return { ok: false, message: 'The routing number is not a valid ABA routing number.' };
  if (!isAchRoutable(bank.routing_number)) {
    return { ok: false, message: `Routing number …${bank.routing_number.slice(-4)} cannot receive ACH payments (its first two digits are no Federal Reserve ACH prefix).` };
  }
  if (!isValidAccountNumber(bank.account_number) || /^0+$/.test(bank.account_number)) {
    return { ok: false, message: 'The account number must be 4 to 17 digits and not all zeros.' };
  }
  return { ok: true };
}

/** The one payment method bill pay sends today: ACH from a US bank account, in US dollars. */
const ACH_CURRENCY = 'USD';

export type VendorPaymentCheck =
  | { ok: true }
  | { ok: false; reason: 'NO_BANK_ACCOUNT' | 'UNVERIFIED' | 'PAYEE_APPROVAL' | 'CURRENCY'; message: string };

/**
 * Issue 25 "money only moves where it can": whether a bill in `currency` can be paid to `vendor`
 * through Ledgerline. It needs a bank account whose details verified (`verified_at`), and a
 * payment method for the bill's currency: ACH moves USD only, so a bill in another currency is
 * paid outside Ledgerline (and marked as paid). The message names the vendor and what to do.
 * Server (pay now, scheduling, the settlement job) and client (the pay confirmation) share it.
 * Issue 28: new payee details held by the payee policy (`payee_approval`, PENDING or REJECTED)
 * stop payments too (reason PAYEE_APPROVAL, the server's BILL_PAY_7102).
 */
export function vendorPaymentCheck(
  vendor: { name: string; bank_account: Pick<MaskedBankAccount, 'verified_at'> | null; payee_approval?: Pick<PayeeApproval, 'status' | 'change'> | null } | null | undefined,
  currency: string,
): VendorPaymentCheck {
  const name = vendor?.name ?? 'This vendor';
  if (!vendor?.bank_account) {
    return { ok: false, reason: 'NO_BANK_ACCOUNT', message: `${name} has no bank account on file, so no payment can be sent. Add ${name}’s bank details first, or mark the bill as paid if it was paid another way.` };
  }
  if (!vendor.bank_account.verified_at) {
    return { ok: false, reason: 'UNVERIFIED', message: `${name}’s bank account is not verified, so no payment can be sent. Check ${name}’s bank details and save them again.` };
  }
  if (vendor.payee_approval) return { ok: false, reason: 'PAYEE_APPROVAL', message: payeeHoldMessage(name, vendor.payee_approval) };
  if (currency !== ACH_CURRENCY) {
    return { ok: false, reason: 'CURRENCY', message: `${name} is paid by ACH, which moves US dollars only; this bill is in ${currency}. Pay it outside Ledgerline and mark it as paid.` };
  }
  return { ok: true };
}

/** Why a vendor's bills wait (issue 28, payee policy): what changed and where its approval stands. */
export function payeeHoldMessage(name: string, hold: Pick<PayeeApproval, 'status' | 'change'>): string {
  const what = hold.change === 'NEW_VENDOR' ? `${name} is a new vendor` : `${name}’s bank account changed`;
  return hold.status === 'PENDING'
    ? `${what} and is waiting for payee approval, so no payment can be sent yet. Its bills can be paid once the approval completes.`
    : `${what} and the payee approval was rejected, so no payment can be sent. Save its bank details again to ask for approval again.`;
}

/** What every viewer sees of a bank account: the last four digits of each number. */
export function maskBankAccount(bank: { routing_number: string; account_number: string; account_type: MaskedBankAccount['account_type'] }): Omit<MaskedBankAccount, 'verified_at'> {
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
const MERGE_FILLED_FIELDS = ['email', 'phone', 'address', 'default_gl_account_id', 'default_department_id'] as const;
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
