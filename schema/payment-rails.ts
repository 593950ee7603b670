import { z } from 'zod';
import { expectedSettlementDate } from './business-days.ts';
import type { MaskedBankAccount, PayeeApproval, VendorAddress } from './entities/vendor.ts';
import { payeeHoldMessage, vendorPaymentCheck } from './vendor-rules.ts';

/**
 * Payment rails of a bill payment (issue 30, spec §7 "Bill pay"): how one attempt's money reaches
 * the vendor. Pure rules the server applies with authority and the pay confirmation shows first:
 * which rails a vendor can take, when each arrives, what a wire costs, a check's amount in words.
 *
 * - ACH: to the vendor's verified bank account (as before rails existed), 2 bank business days.
 * - CHECK: printed and mailed to the vendor's US mailing address; arrives in 5–7 bank business
 *   days and clears at the latest of them (the attempt settles then). Needs no bank account.
 * - WIRE: to the vendor's verified bank account the same bank business day; costs the payer a fee
 *   (posted to FEES in the same ledger entry as the send) and leaves an MT103 as its proof.
 */
export const PAYMENT_RAILS = ['ACH', 'CHECK', 'WIRE'] as const;
export const paymentRailSchema = z.enum(PAYMENT_RAILS);
export type PaymentRail = z.infer<typeof paymentRailSchema>;

/** Bank business days from the send day: the earliest arrival and the day the attempt settles. */
export const RAIL_DAYS: Record<PaymentRail, { earliest: number; settles: number }> = {
  ACH: { earliest: 2, settles: 2 },
  CHECK: { earliest: 5, settles: 7 },
  WIRE: { earliest: 0, settles: 0 },
};

/** The payer's wire fee per currency, minor units (domestic Fedwire: USD only). */
export const WIRE_FEES: Readonly<Record<string, number>> = { USD: 1500 };
/** Check and wire are domestic US rails, as ACH is: US dollars only. */
const RAIL_CURRENCY = 'USD';
/** A check's first number when the business has written none through Ledgerline. */
export const FIRST_CHECK_NUMBER = 1001;

/** The fee the payer pays on top of the amount for one attempt on `rail` (0 but for a wire). */
export const railFee = (rail: PaymentRail, currency: string): number => (rail === 'WIRE' ? WIRE_FEES[currency] ?? 0 : 0);

/** When an attempt sent on `sendDay` arrives (earliest..latest) and settles (= latest), bank business days. */
export function railArrival(rail: PaymentRail, sendDay: string): { earliest: string; latest: string } {
  const days = RAIL_DAYS[rail];
  return { earliest: expectedSettlementDate(sendDay, days.earliest), latest: expectedSettlementDate(sendDay, days.settles) };
}

/** The vendor as the rails read it: name, the masked bank account, the mailing address, the payee hold. */
export type RailVendor = {
  name: string;
  bank_account: Pick<MaskedBankAccount, 'verified_at'> | null;
  address: Pick<VendorAddress, 'line1' | 'city' | 'postal_code' | 'country' | 'state'> | null;
  payee_approval?: Pick<PayeeApproval, 'status' | 'change'> | null;
};

export type RailRefusal = {
  /** BILL_PAY_7101: this rail cannot reach the vendor; BILL_PAY_7102: payee details wait for approval. */
  code: 'BILL_PAY_7101' | 'BILL_PAY_7102';
  /** The field to fix, for the refusal's `errors` (the vendor's address, or the rail asked for). */
  field: 'rail' | 'vendor.address' | 'vendor.bank_account';
  message: string;
};
export type RailCheck = { ok: true } | ({ ok: false } & RailRefusal);

/** Whether one attempt on `rail` can pay `vendor` a bill in `currency`, and if not why (naming the vendor and what to do). */
export function railCheck(vendor: RailVendor | null | undefined, currency: string, rail: PaymentRail): RailCheck {
  if (rail === 'ACH') {
    // Exactly the rule bill pay had before rails (vendorPaymentCheck), payee hold included.
    const ach = vendorPaymentCheck(vendor ?? null, currency);
    if (ach.ok) return ach;
    const code = ach.reason === 'PAYEE_APPROVAL' ? 'BILL_PAY_7102' : 'BILL_PAY_7101';
    return { ok: false, code, field: ach.reason === 'NO_BANK_ACCOUNT' || ach.reason === 'UNVERIFIED' ? 'vendor.bank_account' : 'rail', message: ach.message };
  }
  const refused = otherRailRefusal(vendor, currency, rail);
  if (refused) return { ok: false, ...refused };
  // New payee details waiting for approval (issue 28) hold every rail: a check to a new vendor is as risky as a wire.
  if (vendor?.payee_approval) return { ok: false, code: 'BILL_PAY_7102', field: 'rail', message: payeeHoldMessage(vendor.name, vendor.payee_approval) };
  return { ok: true };
}

function otherRailRefusal(vendor: RailVendor | null | undefined, currency: string, rail: 'CHECK' | 'WIRE'): RailRefusal | null {
  const name = vendor?.name ?? 'This vendor';
  if (currency !== RAIL_CURRENCY) {
    const how = rail === 'CHECK' ? 'Checks are written' : 'Wires are sent';
    return { code: 'BILL_PAY_7101', field: 'rail', message: `${how} in US dollars only; this bill is in ${currency}. Pay it outside Ledgerline and mark it as paid.` };
  }
  if (rail === 'CHECK') {
    if (!vendor?.address) {
      return { code: 'BILL_PAY_7101', field: 'vendor.address', message: `${name} has no mailing address, so no check can be mailed. Add ${name}’s address first.` };
    }
    if (vendor.address.country !== 'US') {
      return { code: 'BILL_PAY_7101', field: 'vendor.address', message: `${name}’s address is outside the US; checks are mailed to US addresses only.` };
    }
    return null;
  }
  if (!vendor?.bank_account) {
    return { code: 'BILL_PAY_7101', field: 'vendor.bank_account', message: `${name} has no bank account on file, so no wire can be sent. Add ${name}’s bank details first.` };
  }
  if (!vendor.bank_account.verified_at) {
    return { code: 'BILL_PAY_7101', field: 'vendor.bank_account', message: `${name}’s bank account is not verified, so no wire can be sent. Check ${name}’s bank details and save them again.` };
  }
  return null;
}

/** The rails that can pay `vendor` a bill in `currency`, in the order offered (ACH, check, wire). */
export const allowedRails = (vendor: RailVendor | null | undefined, currency: string): PaymentRail[] =>
  PAYMENT_RAILS.filter((rail) => railCheck(vendor, currency, rail).ok);

/**
 * The rail a payment takes when none is asked for: ACH when the vendor has a bank account (as
 * before rails: an unverified one is refused as it was), else a check when it has a US mailing
 * address; else ACH, whose refusal (BILL_PAY_7101, no bank details) is what the payer is told.
 */
export function defaultRail(vendor: RailVendor | null | undefined, currency: string): PaymentRail {
  if (vendor?.bank_account) return 'ACH';
  return railCheck(vendor, currency, 'CHECK').ok ? 'CHECK' : 'ACH';
}

/** The rail to use: the one asked for, else the default; refused (naming the vendor and the field) when it cannot pay. */
export function chooseRail(vendor: RailVendor | null | undefined, currency: string, asked?: PaymentRail | null): { ok: true; rail: PaymentRail } | ({ ok: false } & RailRefusal) {
  const rail = asked ?? defaultRail(vendor, currency);
  const check = railCheck(vendor, currency, rail);
  return check.ok ? { ok: true, rail } : check;
}

// --- A check's amount in words ------------------------------------------------------------------------

const ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve',
  'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES = ['', 'thousand', 'million', 'billion', 'trillion'];

function underThousand(n: number): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  const parts: string[] = [];
  if (hundreds) parts.push(`${ONES[hundreds]} hundred`);
  if (rest >= 20) parts.push(TENS[Math.floor(rest / 10)]! + (rest % 10 ? `-${ONES[rest % 10]}` : ''));
  else if (rest || !hundreds) parts.push(ONES[rest]!);
  return parts.join(' ');
}

/** A whole number in English words, as written on a check: 1234 → "one thousand two hundred thirty-four". */
export function numberInWords(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`Not a whole amount: ${n}`);
  if (n === 0) return 'zero';
  const groups: string[] = [];
  for (let scale = 0, left = n; left > 0; scale++, left = Math.floor(left / 1000)) {
    const group = left % 1000;
    if (group) groups.unshift(underThousand(group) + (SCALES[scale] ? ` ${SCALES[scale]}` : ''));
  }
  return groups.join(' ');
}

/**
 * The check's written amount: dollars in words, cents as a fraction, capitalised, as banks read
 * it: 123456 (USD) → "One thousand two hundred thirty-four and 56/100 dollars".
 */
export function amountInWords(minor: number, currency = RAIL_CURRENCY): string {
  if (!Number.isSafeInteger(minor) || minor < 0) throw new RangeError(`Not an amount in minor units: ${minor}`);
  const units = Math.floor(minor / 100);
  const cents = String(minor % 100).padStart(2, '0');
  const words = numberInWords(units);
  const unit = currency === 'USD' ? 'dollars' : currency;
  return `${words[0]!.toUpperCase()}${words.slice(1)} and ${cents}/100 ${unit}`;
}

// --- What the pay confirmation says ----------------------------------------------------------------------

const RAIL_NAMES: Record<PaymentRail, string> = { ACH: 'Bank transfer (ACH)', CHECK: 'Mailed check', WIRE: 'Wire' };
export const railName = (rail: PaymentRail): string => RAIL_NAMES[rail];
