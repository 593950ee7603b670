import type { ReimbursementStatus } from './entities/reimbursement.ts';

/**
 * Reimbursement rules (issue 9 §3), pure: the status machine, the mileage and per-diem amounts
 * and the out-of-pocket checks. Server and worker share them. Amounts are integer minor units;
 * the business's own rates (`BusinessRates`) are an input of the mileage and per-diem rules.
 */

/**
 * DRAFT → SUBMITTED → APPROVED → PAID; SUBMITTED → REJECTED (with a reason); REJECTED → SUBMITTED
 * (resubmit); DRAFT | SUBMITTED | REJECTED → CANCELED; PAID → APPROVED (cancel-payment, only
 * while the payment has not settled: `isSettled`). CANCELED is final; PAID is final once settled.
 */
export const REIMBURSEMENT_MOVES: Readonly<Record<ReimbursementStatus, readonly ReimbursementStatus[]>> = {
  DRAFT: ['SUBMITTED', 'CANCELED'],
  SUBMITTED: ['APPROVED', 'REJECTED', 'CANCELED'],
  APPROVED: ['PAID'],
  REJECTED: ['SUBMITTED', 'CANCELED'],
  PAID: ['APPROVED'],
  CANCELED: [],
};

export type MoveCheck = { ok: true } | { ok: false; message: string };

const LABEL: Record<ReimbursementStatus, string> = {
  DRAFT: 'a draft', SUBMITTED: 'submitted', APPROVED: 'approved', REJECTED: 'rejected', PAID: 'paid', CANCELED: 'canceled',
};

/** Whether `from → to` is allowed; if not, a message naming the current status. */
export function checkMove(from: ReimbursementStatus, to: ReimbursementStatus): MoveCheck {
  if (REIMBURSEMENT_MOVES[from].includes(to)) return { ok: true };
  return { ok: false, message: `This reimbursement is ${LABEL[from]} (status ${from}) and cannot move to ${to}.` };
}

/**
 * Each action's move: the statuses it starts from (a subset of REIMBURSEMENT_MOVES' sources for
 * `to`) and its target. `checkMove` alone would let e.g. cancel-payment "move" a SUBMITTED claim
 * to APPROVED; the calls check their action instead.
 */
export const REIMBURSEMENT_ACTIONS = {
  submit: { from: ['DRAFT', 'REJECTED'], to: 'SUBMITTED', verb: 'submitted' },
  resubmit: { from: ['REJECTED'], to: 'SUBMITTED', verb: 'resubmitted (only a rejected claim is)' },
  approve: { from: ['SUBMITTED'], to: 'APPROVED', verb: 'approved (only a submitted claim is)' },
  reject: { from: ['SUBMITTED'], to: 'REJECTED', verb: 'rejected (only a submitted claim is)' },
  cancel: { from: ['DRAFT', 'SUBMITTED', 'REJECTED'], to: 'CANCELED', verb: 'canceled' },
  pay: { from: ['APPROVED'], to: 'PAID', verb: 'paid (only an approved claim is)' },
  cancelPayment: { from: ['PAID'], to: 'APPROVED', verb: 'unpaid (only a paid claim\'s payment can be canceled)' },
} as const satisfies Record<string, { from: readonly ReimbursementStatus[]; to: ReimbursementStatus; verb: string }>;
export type ReimbursementAction = keyof typeof REIMBURSEMENT_ACTIONS;

/** Whether `action` may run on a claim in status `from`; if not, a message naming the status. */
export function checkAction(action: ReimbursementAction, from: ReimbursementStatus): MoveCheck {
  const a = REIMBURSEMENT_ACTIONS[action];
  if ((a.from as readonly ReimbursementStatus[]).includes(from)) return { ok: true };
  return { ok: false, message: `This reimbursement is ${LABEL[from]} (status ${from}) and cannot be ${a.verb}.` };
}

/** Edits (PATCH) are allowed while the claimant still holds the claim. */
const EDITABLE_STATUSES: readonly ReimbursementStatus[] = ['DRAFT', 'REJECTED'];
export function checkEditable(status: ReimbursementStatus): MoveCheck {
  if (EDITABLE_STATUSES.includes(status)) return { ok: true };
  return { ok: false, message: `This reimbursement is ${LABEL[status]} (status ${status}); only a draft or a rejected claim can be edited.` };
}
/** Only drafts are deleted; anything submitted stays on record (cancel instead). */
export function checkDeletable(status: ReimbursementStatus): MoveCheck {
  if (status === 'DRAFT') return { ok: true };
  return { ok: false, message: `This reimbursement is ${LABEL[status]} (status ${status}); only a draft can be deleted.` };
}

// --- Review and payment --------------------------------------------------------------------------

/** An approval's life: PENDING until decided (APPROVED / REJECTED) or its claim is canceled. */
export const APPROVAL_STATUSES = ['PENDING', 'APPROVED', 'REJECTED', 'CANCELED'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** A decision on a PENDING approval only; a decided one names its status. */
export function checkDecidable(status: ApprovalStatus): MoveCheck {
  if (status === 'PENDING') return { ok: true };
  return { ok: false, message: `This approval is ${status.toLowerCase()} (status ${status}); only a pending approval can be decided.` };
}

/**
 * Payment (simulated ledger): an ACH or payroll payment settles `PAYMENT_SETTLEMENT_DAYS` after it
 * was made. Until then cancel-payment reverses it (PAID → APPROVED); from then on it is final.
 */
export const PAYMENT_SETTLEMENT_DAYS = 3;
export const PAYMENT_METHODS = ['ACH', 'PAYROLL'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export function settlesAt(paidAt: Date): Date {
  return new Date(paidAt.getTime() + PAYMENT_SETTLEMENT_DAYS * 86_400_000);
}
export function isSettled(settles: Date, now: Date): boolean {
  return now.getTime() >= settles.getTime();
}

/** Field → message; empty when the input is acceptable. */
export type FieldErrors = Record<string, string>;

// --- The business's rates ------------------------------------------------------------------------

/**
 * The rates a business set (schema/entities/reimbursement-rate.ts), as the rules read them: live
 * rows only. The server passes its table; the client passes its mirrored copy (also carried in
 * the create/update commands' `rates`, so the optimistic row shows the amount the server will
 * compute). An empty table means the defaults: the IRS mileage rates and 68 USD a day.
 */
export type RateRow = { kind: 'PER_DIEM' | 'MILEAGE'; name: string | null; year: number | null; rate: number; currency: string };
export type BusinessRates = readonly RateRow[];
export const NO_RATES: BusinessRates = [];

// --- Mileage ------------------------------------------------------------------------------------

/**
 * IRS standard business mileage rates, in tenths of a cent (mills) per mile, by the trip's year.
 * A trip in a year neither listed nor set by the business is refused (no guessing a rate the IRS
 * has not published, and no silently applying a stale one): add the year's rate here when it is
 * announced.
 */
const IRS_MILEAGE_RATES: Readonly<Record<number, number>> = { 2025: 700, 2026: 725 };
const MAX_MILEAGE_DISTANCE = 2000;

/** The business's own rate for `year`, or null (then the IRS rate applies). */
export function mileageOverride(year: number, rates: BusinessRates = NO_RATES): number | null {
  return rates.find((r) => r.kind === 'MILEAGE' && r.year === year)?.rate ?? null;
}

/** Mills per mile for a trip in `year`: the business's override, else the IRS rate, else null. */
export function mileageRate(year: number, rates: BusinessRates = NO_RATES): number | null {
  return mileageOverride(year, rates) ?? IRS_MILEAGE_RATES[year] ?? null;
}

/**
 * The mileage amount in cents: round(distance × rate), half up. Distances have at most two
 * decimals (hundredths of a mile) so the product is computed exactly in integers.
 */
export function mileageAmount(
  distanceMiles: number, tripDate: string, rates: BusinessRates = NO_RATES,
): { amount: number; rate: number } | { errors: FieldErrors } {
  const errors = checkMileage(distanceMiles, tripDate, rates);
  if (Object.keys(errors).length > 0) return { errors };
  const hundredths = Math.round(distanceMiles * 100);
  const rate = mileageRate(yearOf(tripDate), rates)!;
  // hundredths × tenths-of-cents / 1000 = cents; round half up on the exact integer ratio.
  return { amount: Math.floor((hundredths * rate * 2 + 1000) / 2000), rate };
}

export function checkMileage(distanceMiles: number, tripDate: string, rates: BusinessRates = NO_RATES): FieldErrors {
  const errors: FieldErrors = {};
  if (!Number.isFinite(distanceMiles) || distanceMiles <= 0) errors.distance_miles = 'distance_miles must be greater than 0';
  else if (distanceMiles > MAX_MILEAGE_DISTANCE) errors.distance_miles = `distance_miles must be at most ${MAX_MILEAGE_DISTANCE}`;
  else if (Math.abs(distanceMiles * 100 - Math.round(distanceMiles * 100)) > 1e-6) {
    errors.distance_miles = 'distance_miles must have at most 2 decimal places';
  }
  const year = yearOf(tripDate);
  if (mileageRate(year, rates) === null) {
    const years = [...new Set([...Object.keys(IRS_MILEAGE_RATES).map(Number), ...rates.filter((r) => r.kind === 'MILEAGE').map((r) => r.year!)])]
      .sort()
      .join(', ');
    errors.trip_date = `trip_date must be in a year with a known mileage rate (${years}); ${year} has none`;
  }
  return errors;
}

// --- Per diem -----------------------------------------------------------------------------------

/** GSA-style default for meals and incidentals, in cents per full day. */
const PER_DIEM_DAILY_RATE = 6800;
const PER_DIEM_DEFAULT_CURRENCY = 'USD';
/** First and last travel days get 75 % of the daily rate. */
export const PER_DIEM_PARTIAL_DAY_SHARE = 0.75;
const MAX_PER_DIEM_DAYS = 366;

/** A per-diem daily rate: minor units of `currency` per full day; `location` null for the default. */
export interface PerDiemRate {
  location: string | null;
  daily: number;
  currency: string;
}
export const DEFAULT_PER_DIEM_RATE: PerDiemRate = { location: null, daily: PER_DIEM_DAILY_RATE, currency: PER_DIEM_DEFAULT_CURRENCY };

/** Location names compare trimmed and case-insensitively ("new york " is New York). */
const locationKey = (name: string) => name.trim().toLocaleLowerCase('en-US');

/** The rate of a per-diem location: the business's row of that name, else the default. */
export function perDiemRateFor(location: string | null | undefined, rates: BusinessRates = NO_RATES): PerDiemRate {
  if (!location) return DEFAULT_PER_DIEM_RATE;
  const key = locationKey(location);
  const row = rates.find((r) => r.kind === 'PER_DIEM' && r.name !== null && locationKey(r.name) === key);
  return row ? { location: row.name, daily: row.rate, currency: row.currency } : DEFAULT_PER_DIEM_RATE;
}

/** 75 % of a daily rate, rounded half up to a whole minor unit. */
export function partialDayAmount(daily: number): number {
  return Math.floor((daily * 3 * 2 + 4) / 8);
}

/**
 * Per-diem amount in minor units of the rate's currency for a trip from `start` to `end`
 * (inclusive ISO dates). The first and last days are travel days at 75 %; days between at 100 %.
 * A one-day trip is both first and last day, paid at 75 % once (not 150 %): at the default
 * 3 days = 51 + 68 + 51 = 170 USD, 1 day = 51 USD.
 */
export function perDiemAmount(
  start: string, end: string, rate: PerDiemRate = DEFAULT_PER_DIEM_RATE,
): { amount: number; days: number; currency: string } | { errors: FieldErrors } {
  const errors = checkPerDiem(start, end);
  if (Object.keys(errors).length > 0) return { errors };
  const days = daysBetween(start, end) + 1;
  const partial = partialDayAmount(rate.daily);
  const amount = days === 1 ? partial : 2 * partial + (days - 2) * rate.daily;
  return { amount, days, currency: rate.currency };
}

export function checkPerDiem(start: string, end: string): FieldErrors {
  const errors: FieldErrors = {};
  if (end < start) errors.end_date = 'end_date must be on or after start_date';
  else if (daysBetween(start, end) + 1 > MAX_PER_DIEM_DAYS) errors.end_date = `a per-diem trip must be at most ${MAX_PER_DIEM_DAYS} days`;
  return errors;
}

// --- Out of pocket ------------------------------------------------------------------------------

/**
 * The latest date a claim may carry when it is `now`: today somewhere on Earth, i.e. the UTC date
 * 14 hours ahead (UTC+14), so a claimant east of UTC can claim their own today.
 */
export function latestClaimDate(now: Date): string {
  return new Date(now.getTime() + 14 * 3_600_000).toISOString().slice(0, 10);
}

export function checkOutOfPocket(input: { amount: number; transaction_date: string }, now: Date): FieldErrors {
  const errors: FieldErrors = {};
  if (!Number.isInteger(input.amount) || input.amount <= 0) errors.amount = 'amount must be a positive integer of minor units';
  const notFuture = checkNotFuture('transaction_date', input.transaction_date, now);
  if (notFuture) errors.transaction_date = notFuture;
  return errors;
}

export function checkNotFuture(field: string, date: string, now: Date): string | null {
  return date > latestClaimDate(now) ? `${field} must not be in the future` : null;
}

function yearOf(date: string): number {
  return Number(date.slice(0, 4));
}

function daysBetween(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000);
}
