import type { z } from 'zod';
import { validateBill } from '../../../../schema/bill-rules.ts';
import {
  DEFAULT_INVOICE_PATTERN, MAX_DAYS_UNTIL_DUE, recurringBillCreateSchema, type RecurringBillCreate, type RecurringBillPatch,
  type RecurringBillTemplate,
} from '../../../../schema/entities/recurring-bill.ts';
import {
  billDatesFor, invoiceNumberFor, invoicePatternError, period, validateSchedule, type RecurringInterval, type Schedule,
} from '../../../../schema/recurring-bills.ts';
import { validationMessages } from '../../../../schema/errors.ts';
import { amountText, billFormErrors, emptyLine, lineInputs, type BillFieldErrors, type BillLineValues } from '../bill-form.ts';

/**
 * The recurring bill form's values and their way to POST /bill-pay/recurring-bills, plus the
 * words the Recurring page shows for a schedule ("Monthly on the 31st"). The create body is
 * parsed with the call's schema, then checked as the server does (domain/recurring-bills.ts
 * `assertTemplate`): the schedule's rules, the first period's bill through validateBill (its
 * invoice number from the pattern), and a pattern that repeats an invoice number. Pure; tested.
 */
export interface RecurringFormValues {
  vendor_id: string;
  currency: string;
  lines: BillLineValues[];
  memo: string;
  interval: RecurringInterval;
  /** '' = the start date's day; '1'–'31' (a day past a month's end is its last day). */
  day_of_month: string;
  /** '' = the start date's weekday; '1' (Monday) – '7' (Sunday). */
  day_of_week: string;
  start_date: string;
  end_date: string;
  /** '' = no limit. */
  max_occurrences: string;
  days_until_due: string;
  invoice_number_pattern: string;
  submit_for_approval: boolean;
}

export const INTERVAL_OPTIONS: readonly { value: RecurringInterval; label: string }[] = [
  { value: 'WEEKLY', label: 'Weekly' },
  { value: 'MONTHLY', label: 'Monthly' },
  { value: 'QUARTERLY', label: 'Quarterly' },
  { value: 'YEARLY', label: 'Yearly' },
];

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

export function emptyRecurringValues(currency: string, today: string): RecurringFormValues {
  return {
    vendor_id: '', currency, lines: [emptyLine('recurring-line-0')], memo: '', interval: 'MONTHLY', day_of_month: '', day_of_week: '',
    start_date: today, end_date: '', max_occurrences: '', days_until_due: '30', invoice_number_pattern: DEFAULT_INVOICE_PATTERN,
    submit_for_approval: false,
  };
}

/** A recurring bill as the form edits it (the inverse of `recurringInput`). */
export function recurringValues(t: RecurringBillTemplate): RecurringFormValues {
  return {
    vendor_id: t.vendor_id,
    currency: t.currency,
    lines: t.line_items.map((l, i) => ({
      key: `recurring-line-${i}`, description: l.description, amount: amountText(l.amount, t.currency),
      gl_account_id: l.gl_account_id ?? '', department_id: l.department_id ?? '',
    })),
    memo: t.memo ?? '',
    interval: t.interval,
    day_of_month: t.day_of_month === null ? '' : String(t.day_of_month),
    day_of_week: t.day_of_week === null ? '' : String(t.day_of_week),
    start_date: t.start_date,
    end_date: t.end_date ?? '',
    max_occurrences: t.max_occurrences === null ? '' : String(t.max_occurrences),
    days_until_due: String(t.days_until_due),
    invoice_number_pattern: t.invoice_number_pattern,
    submit_for_approval: t.submit_for_approval,
  };
}

/**
 * An edit as PATCH /recurring-bills/{id}: the whole form, a field left empty sent as null (an
 * absent field keeps the stored value on the server, so a cleared end date would come back).
 * Never the status: the create's default (ACTIVE) would resume a paused one; Pause and Resume do that.
 */
export function recurringPatch(body: RecurringBillCreate): RecurringBillPatch {
  const { status, ...fields } = body;
  void status;
  return {
    ...fields,
    memo: body.memo ?? null,
    day_of_month: body.day_of_month ?? null,
    day_of_week: body.day_of_week ?? null,
    end_date: body.end_date ?? null,
    max_occurrences: body.max_occurrences ?? null,
  };
}

/** 1 → "1st", 22 → "22nd", 13 → "13th". */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
  return `${n}${suffix}`;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * A schedule in words: "Weekly on Mondays", "Monthly on the 31st (the last day in shorter months)",
 * "Quarterly on the 1st", "Yearly on March 15". The day a null field stands for is the start date's.
 */
export function frequencyText(t: Pick<RecurringBillTemplate, 'interval' | 'day_of_month' | 'day_of_week' | 'start_date'>): string {
  const [, m, d] = t.start_date.split('-').map(Number) as [number, number, number];
  if (t.interval === 'WEEKLY') {
    const weekday = t.day_of_week ?? ((new Date(`${t.start_date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
    return `Weekly on ${WEEKDAYS[weekday - 1]}s`;
  }
  const day = t.day_of_month ?? d;
  const shortMonths = day > 28 ? ' (the last day in shorter months)' : '';
  if (t.interval === 'YEARLY') return `Yearly on ${MONTHS[m - 1]} ${day}${shortMonths}`;
  return `${t.interval === 'MONTHLY' ? 'Monthly' : 'Quarterly'} on the ${ordinal(day)}${shortMonths}`;
}

const whole = (s: string): number | string | undefined => {
  const t = s.trim();
  if (t === '') return undefined;
  return /^\d+$/.test(t) ? Number(t) : t;
};

export type RecurringResult = { ok: true; body: z.output<typeof recurringBillCreateSchema> } | { ok: false; errors: BillFieldErrors };

const FIELD_WORDS: Record<string, string> = {
  start_date: 'Start date', end_date: 'End date', max_occurrences: 'Number of bills', days_until_due: 'Days until due',
  invoice_number_pattern: 'Invoice number pattern', day_of_month: 'Day of the month', day_of_week: 'Weekday', interval: 'Frequency',
};

/** Schema messages name the API field ("days_until_due must be…"): the form's label instead. */
function labelled(errors: BillFieldErrors): BillFieldErrors {
  return Object.fromEntries(Object.entries(billFormErrors(errors)).map(([k, m]) => {
    const label = FIELD_WORDS[k];
    return [k, label ? m.replace(new RegExp(`^${k}\\b`, 'i'), label) : m];
  }));
}

/** The create body, or why not, by field path (`line_items.0.amount`, `start_date`, `invoice_number_pattern`…). */
export function recurringInput(v: RecurringFormValues): RecurringResult {
  const memo = v.memo.trim();
  const weekly = v.interval === 'WEEKLY';
  const input = {
    vendor_id: v.vendor_id.trim() || undefined,
    currency: v.currency,
    line_items: lineInputs(v.lines, v.currency, { for: 'template' }),
    ...(memo ? { memo } : {}),
    interval: v.interval,
    ...(!weekly && v.day_of_month ? { day_of_month: whole(v.day_of_month) } : {}),
    ...(weekly && v.day_of_week ? { day_of_week: whole(v.day_of_week) } : {}),
    start_date: v.start_date.trim() || undefined,
    ...(v.end_date.trim() ? { end_date: v.end_date.trim() } : {}),
    ...(v.max_occurrences.trim() ? { max_occurrences: whole(v.max_occurrences) } : {}),
    days_until_due: whole(v.days_until_due) ?? 30,
    invoice_number_pattern: v.invoice_number_pattern,
    submit_for_approval: v.submit_for_approval,
  };
  const parsed = recurringBillCreateSchema.safeParse(input);
  if (!parsed.success) {
    const errors = labelled(validationMessages(parsed.error as z.ZodError, input));
    if (input.start_date === undefined) errors.start_date = 'Choose the day the first bill is due to be made.';
    if (errors.days_until_due) errors.days_until_due = `Enter a whole number of days from 0 to ${MAX_DAYS_UNTIL_DUE}.`;
    if (errors.max_occurrences) errors.max_occurrences = 'Enter a whole number of bills from 1 to 1000, or leave it empty for no limit.';
    return { ok: false, errors };
  }
  const body = parsed.data;
  const s = scheduleOf(body);
  const errors: BillFieldErrors = { ...validateSchedule(s) };
  if (Object.keys(errors).length === 0) {
    // The first period's bill, as the server checks it (an invoice number error is the pattern's, the total the lines').
    const first = period(s, 0);
    const bill = validateBill({ invoice_number: invoiceNumberFor(body.invoice_number_pattern, first), currency: body.currency, line_items: body.line_items, ...billDatesFor(first, body.days_until_due) });
    for (const [k, m] of Object.entries(billFormErrors(bill))) errors[k === 'invoice_number' ? 'invoice_number_pattern' : k] = m;
    const repeats = errors.invoice_number_pattern ? null : invoicePatternError(body.invoice_number_pattern, s);
    if (repeats) errors.invoice_number_pattern = repeats;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, body };
}

export const scheduleOf = (b: { interval: RecurringInterval; start_date: string; day_of_month?: number | null; day_of_week?: number | null; end_date?: string | null; max_occurrences?: number | null }): Schedule => ({
  interval: b.interval, start_date: b.start_date, day_of_month: b.day_of_month ?? null, day_of_week: b.day_of_week ?? null,
  end_date: b.end_date ?? null, max_occurrences: b.max_occurrences ?? null,
});

/** The first bill the form would make: its date, invoice number and due date (null while the schedule is not valid). */
export function firstBillPreview(v: RecurringFormValues): { date: string; invoice_number: string; due_date: string } | null {
  const day = (s: string) => (/^\d+$/.test(s.trim()) ? Number(s.trim()) : null);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v.start_date)) return null;
  const s = scheduleOf({
    interval: v.interval, start_date: v.start_date,
    day_of_month: v.interval === 'WEEKLY' ? null : day(v.day_of_month),
    day_of_week: v.interval === 'WEEKLY' ? day(v.day_of_week) : null,
    end_date: v.end_date || null, max_occurrences: day(v.max_occurrences),
  });
  if (Object.keys(validateSchedule(s)).length > 0) return null;
  const first = period(s, 0);
  const due = day(v.days_until_due) ?? 30;
  return { date: first.start, invoice_number: invoiceNumberFor(v.invoice_number_pattern, first), due_date: billDatesFor(first, due).due_date };
}
