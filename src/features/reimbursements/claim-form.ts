import type { z } from 'zod';
import { commandDef, type CommandName } from '../../../schema/commands/index.ts';
import { claimErrors, TYPE_FIELDS } from '../../../schema/commands/reimbursement.ts';
import type { ReimbursementPatch } from '../../../schema/api/calls-reimbursements.ts';
import type { Reimbursement, ReimbursementType } from '../../../schema/entities/reimbursement.ts';
import { validationMessages } from '../../../schema/errors.ts';
import { currencyExponent, toMinorUnits } from '../../../schema/money.ts';
import { NO_RATES, type BusinessRates } from '../../../schema/reimbursement-rules.ts';
import { distanceInMiles, type DistanceUnit } from './claim-amounts.ts';

/**
 * The claim forms' values (what the inputs hold, as typed) and their way to a command: the
 * input is parsed with the command's own args schema and the resulting claim checked with
 * `claimErrors`, exactly what the server does (server/domain/reimbursements.ts), so a claim the
 * form accepts is one the server accepts. Errors come back per form field, in the §5 words with
 * the field's label. Pure; tested.
 */
export interface ClaimFormValues {
  merchant: string;
  amount: string;
  currency: string;
  transaction_date: string;
  distance: string;
  unit: DistanceUnit;
  start_location: string;
  end_location: string;
  trip_date: string;
  location: string;
  start_date: string;
  end_date: string;
  memo: string;
  gl_account_id: string;
  department_id: string;
  /** The receipts (client ids while they wait to upload; the command waits for them). */
  receipt_ids: readonly string[];
}
export type ClaimField = keyof ClaimFormValues;
export type ClaimFieldErrors = Partial<Record<ClaimField, string>>;

export const CREATE_COMMANDS = {
  OUT_OF_POCKET: 'reimbursement.create',
  MILEAGE: 'reimbursement.createMileage',
  PER_DIEM: 'reimbursement.createPerDiem',
} as const satisfies Record<ReimbursementType, CommandName>;

export const FIELD_LABELS: Record<string, string> = {
  merchant: 'Merchant',
  amount: 'Amount',
  currency: 'Currency',
  transaction_date: 'Date',
  distance_miles: 'Distance',
  start_location: 'From',
  end_location: 'To',
  trip_date: 'Trip date',
  location: 'Location',
  start_date: 'Start date',
  end_date: 'End date',
  memo: 'Memo',
  gl_account_id: 'GL account',
  department_id: 'Department',
};

/** The person's local calendar date (YYYY-MM-DD): a claim's default date is their today. */
export const localToday = (now = new Date()) =>
  `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;

export function emptyClaimValues(currency: string, today: string): ClaimFormValues {
  return {
    merchant: '', amount: '', currency, transaction_date: today,
    distance: '', unit: 'mi', start_location: '', end_location: '', trip_date: today,
    location: '', start_date: today, end_date: today,
    memo: '', gl_account_id: '', department_id: '', receipt_ids: [],
  };
}

/** Minor units as the amount input shows them ("1250" USD → "12.50"). */
export function amountText(minor: number, currency: string): string {
  const exp = currencyExponent(currency);
  return exp === 0 ? String(minor) : (minor / 10 ** exp).toFixed(exp);
}

/** A claim's values in the form (editing a draft or a rejected claim). */
export function claimValues(c: Reimbursement): ClaimFormValues {
  return {
    merchant: c.merchant ?? '',
    amount: c.type === 'OUT_OF_POCKET' ? amountText(c.amount, c.currency) : '',
    currency: c.currency,
    transaction_date: c.transaction_date,
    distance: c.distance_miles === null ? '' : String(c.distance_miles),
    unit: 'mi',
    start_location: c.start_location ?? '',
    end_location: c.end_location ?? '',
    trip_date: c.trip_date ?? c.transaction_date,
    location: c.location ?? '',
    start_date: c.start_date ?? c.transaction_date,
    end_date: c.end_date ?? c.transaction_date,
    memo: c.memo ?? '',
    gl_account_id: c.gl_account_id ?? '',
    department_id: c.department_id ?? '',
    receipt_ids: c.receipt_ids,
  };
}

const required = (s: string) => (s.trim() === '' ? undefined : s.trim());
const nullable = (s: string) => (s.trim() === '' ? null : s.trim());

/**
 * The claim fields of one type as the API names them. A value that is not what the schema takes
 * is passed on as typed, so the schema's own message says why ("amount must be a valid number").
 */
export function claimFields(type: ReimbursementType, v: ClaimFormValues): Record<string, unknown> {
  const common = { memo: nullable(v.memo), gl_account_id: nullable(v.gl_account_id), department_id: nullable(v.department_id) };
  switch (type) {
    case 'OUT_OF_POCKET': {
      const amount = required(v.amount);
      const minor = amount === undefined ? undefined : toMinorUnits(amount.replace(/^[$€£¥]/, ''), v.currency);
      return {
        ...common, merchant: nullable(v.merchant), amount: minor ?? amount, currency: v.currency, transaction_date: required(v.transaction_date),
        ...(v.receipt_ids.length > 0 ? { receipt_ids: [...v.receipt_ids] } : {}),
      };
    }
    case 'MILEAGE': {
      const distance = required(v.distance);
      const miles = distance === undefined ? undefined : distanceInMiles(distance, v.unit);
      return {
        ...common,
        distance_miles: miles ?? distance,
        start_location: required(v.start_location),
        end_location: required(v.end_location),
        trip_date: required(v.trip_date),
      };
    }
    case 'PER_DIEM':
      return { ...common, location: required(v.location), start_date: required(v.start_date), end_date: required(v.end_date) };
  }
}

/** A blank claim of the type, as the server starts one (its `skeleton`), for the rules to check. */
export function blankClaim(id: string, type: ReimbursementType, now: Date): Reimbursement {
  const at = now.toISOString();
  return {
    id, user_id: id, business_id: id, type, status: 'DRAFT', merchant: null, amount: 1, currency: 'USD',
    transaction_date: at.slice(0, 10), memo: null, gl_account_id: null, department_id: null, distance_miles: null,
    start_location: null, end_location: null, trip_date: null, location: null, start_date: null, end_date: null,
    rejection_reason: null, receipt_ids: [], submitted_at: null, created_at: at, change_seq: 0, updated_at: at, deleted: false,
  };
}

/** API field errors → form field errors, worded with the fields' labels. */
export function formErrors(errors: Record<string, string>): ClaimFieldErrors {
  const out: ClaimFieldErrors = {};
  for (const [path, message] of Object.entries(errors)) {
    const key = path.replace(/^patch\./, '');
    const field = (key === 'distance_miles' ? 'distance' : key) as ClaimField;
    let text = message.replaceAll('patch.', '');
    for (const [api, label] of Object.entries(FIELD_LABELS)) text = text.replaceAll(api, label.toLowerCase());
    out[field] ??= text.charAt(0).toUpperCase() + text.slice(1);
  }
  return out;
}

export type CreateResult =
  | { ok: true; name: (typeof CREATE_COMMANDS)[ReimbursementType]; input: Record<string, unknown> }
  | { ok: false; errors: ClaimFieldErrors };

/**
 * A new claim's command and input, or why not (the command's schema, then the claim rules). A
 * mileage or per-diem command carries the business's `rates` (its optimistic amount; never sent).
 */
export function createCommand(
  type: ReimbursementType, v: ClaimFormValues, opts: { id: string; submit: boolean; now: Date; rates?: BusinessRates },
): CreateResult {
  const name = CREATE_COMMANDS[type];
  const def = commandDef(name);
  const rates = opts.rates ?? NO_RATES;
  const input = { ...claimFields(type, v), id: opts.id, submit: opts.submit, ...(type === 'OUT_OF_POCKET' ? {} : { rates: [...rates] }) };
  const parsed = def.args.safeParse(input);
  if (!parsed.success) return { ok: false, errors: formErrors(validationMessages(parsed.error as z.ZodError, input)) };
  const errors = claimErrors(def.apply(blankClaim(opts.id, type, opts.now), parsed.data) as Reimbursement, opts.now, rates);
  if (Object.keys(errors).length > 0) return { ok: false, errors: formErrors(errors) };
  return { ok: true, name, input };
}

export type UpdateResult = { ok: true; patch: ReimbursementPatch | null } | { ok: false; errors: ClaimFieldErrors };

/** The edit of a claim: only the fields that changed, checked like a create at the business's rates (null: nothing changed). */
export function updatePatch(claim: Reimbursement, v: ClaimFormValues, now: Date, rates: BusinessRates = NO_RATES): UpdateResult {
  const before = claimFields(claim.type, claimValues(claim));
  const after = claimFields(claim.type, v);
  const patch: Record<string, unknown> = {};
  for (const key of ['memo', 'gl_account_id', 'department_id', ...TYPE_FIELDS[claim.type]]) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) patch[key] = after[key];
  }
  // Receipts: the whole set when it changed (an emptied set is sent as []).
  if (claim.type === 'OUT_OF_POCKET' && JSON.stringify(before.receipt_ids ?? []) !== JSON.stringify(after.receipt_ids ?? [])) {
    patch.receipt_ids = after.receipt_ids ?? [];
  }
  if (Object.keys(patch).length === 0) return { ok: true, patch: null };
  const def = commandDef('reimbursement.update');
  const input = { reimbursement_id: claim.id, patch, rates: [...rates] };
  const parsed = def.args.safeParse(input);
  if (!parsed.success) return { ok: false, errors: formErrors(validationMessages(parsed.error as z.ZodError, input)) };
  const errors = claimErrors(def.apply(claim, parsed.data) as Reimbursement, now, rates);
  if (Object.keys(errors).length > 0) return { ok: false, errors: formErrors(errors) };
  return { ok: true, patch: (parsed.data as { patch: ReimbursementPatch }).patch };
}

/** What a receipt's reading (OCR or typed fields) can fill in an out-of-pocket form. */
export interface ReceiptReading {
  amount?: { minor: number; currency: string };
  date?: string;
  merchant?: string;
}

/**
 * The form's values with a receipt's reading filled in where the person has not typed anything
 * yet (an amount or merchant already entered, or a date changed from today, is theirs and kept).
 * Returns the fields it filled, so the form can say what to check. Pure; tested.
 */
export function prefillFromReceipt(
  v: ClaimFormValues,
  reading: ReceiptReading,
  today: string,
): { values: ClaimFormValues; filled: ('amount' | 'transaction_date' | 'merchant')[] } {
  const values = { ...v };
  const filled: ('amount' | 'transaction_date' | 'merchant')[] = [];
  if (reading.amount && v.amount.trim() === '') {
    values.amount = amountText(reading.amount.minor, reading.amount.currency);
    values.currency = reading.amount.currency;
    filled.push('amount');
  }
  if (reading.date && (v.transaction_date === '' || v.transaction_date === today) && reading.date <= today) {
    values.transaction_date = reading.date;
    filled.push('transaction_date');
  }
  if (reading.merchant && v.merchant.trim() === '') {
    values.merchant = reading.merchant;
    filled.push('merchant');
  }
  return { values, filled };
}
