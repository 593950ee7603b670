import { z } from 'zod';

/**
 * Recurring bill templates (issue 11 §7): the pure period math the server's job and any client
 * preview share. Dates are UTC calendar dates `YYYY-MM-DD` in and out.
 *
 * Periods are anchored, never drifting: a monthly template on the 31st bills on Jan 31, Feb 28
 * (29 in a leap year), Mar 31 — each month's date is the anchor day clamped to that month's end,
 * computed from the first period, not from the previous one (which would stick at the 28th).
 * Quarterly is every 3 months and yearly every 12 from the same anchor (Feb 29 → Feb 28 in
 * common years). Weekly periods fall on one weekday: `day_of_week` (ISO, 1 = Monday … 7 =
 * Sunday), else the start date's. The first period is the first such day on or after the start.
 */
const RECURRING_INTERVALS = ['WEEKLY', 'MONTHLY', 'QUARTERLY', 'YEARLY'] as const;
export const recurringIntervalSchema = z.enum(RECURRING_INTERVALS);
export type RecurringInterval = z.infer<typeof recurringIntervalSchema>;

/** At most this many missed periods of one template are generated in one run (after downtime). */
const MAX_CATCH_UP_PERIODS = 12;

export type Schedule = {
  interval: RecurringInterval;
  start_date: string;
  /** 1–31 for month-based intervals (a day past a month's end is its last day); null: the start date's day. */
  day_of_month: number | null;
  /** 1 (Monday) – 7 (Sunday) for WEEKLY; null: the start date's weekday. */
  day_of_week: number | null;
  /** The last day a period may start on (inclusive); null: no end. */
  end_date: string | null;
  /** How many bills the template makes in all; null: no limit. */
  max_occurrences: number | null;
};

export type Period = { index: number; start: string; end: string };

const DAY_MS = 86_400_000;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

const toDays = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
const fromDays = (days: number) => new Date(days * DAY_MS).toISOString().slice(0, 10);
const daysInMonth = (year: number, month0: number) => new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();

const isCalendarDate = (s: string) => ISO_DATE.test(s) && !Number.isNaN(toDays(s)) && fromDays(toDays(s)) === s;
const addDays = (iso: string, n: number) => fromDays(toDays(iso) + n);

const MONTHS: Record<Exclude<RecurringInterval, 'WEEKLY'>, number> = { MONTHLY: 1, QUARTERLY: 3, YEARLY: 12 };

/** Month number (year * 12 + month0) and clamped day of the month that is `months` after month `base`. */
function monthDate(base: number, months: number, day: number): string {
  const m = base + months;
  const year = Math.floor(m / 12);
  const month0 = m - year * 12;
  const d = Math.min(day, daysInMonth(year, month0));
  return `${String(year).padStart(4, '0')}-${String(month0 + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** The first period's month (as year * 12 + month0) for a month-based schedule. */
function firstMonth(s: Schedule): { base: number; day: number } {
  const [y, m, d] = s.start_date.split('-').map(Number) as [number, number, number];
  const day = s.day_of_month ?? d;
  const base = y * 12 + (m - 1);
  // The anchor day this month falls before the start: the first period is next month.
  return monthDate(base, 0, day) < s.start_date ? { base: base + 1, day } : { base, day };
}

/** The start of period `index` (0-based), ignoring the end date and the occurrence limit. */
export function periodStart(s: Schedule, index: number): string {
  if (s.interval === 'WEEKLY') {
    const start = toDays(s.start_date);
    const weekday = ((new Date(start * DAY_MS).getUTCDay() + 6) % 7) + 1; // ISO 1..7
    const shift = s.day_of_week === null ? 0 : (s.day_of_week - weekday + 7) % 7;
    return fromDays(start + shift + 7 * index);
  }
  const { base, day } = firstMonth(s);
  return monthDate(base, MONTHS[s.interval] * index, day);
}

/** Whether period `index` is one the template makes (occurrence limit and end date). */
function inSchedule(s: Schedule, index: number): boolean {
  if (index < 0) return false;
  if (s.max_occurrences !== null && index >= s.max_occurrences) return false;
  return s.end_date === null || periodStart(s, index) <= s.end_date;
}

export function period(s: Schedule, index: number): Period {
  return { index, start: periodStart(s, index), end: addDays(periodStart(s, index + 1), -1) };
}

/** The largest index whose period starts on or before `day` (-1 when none does yet). */
export function latestIndex(s: Schedule, day: string): number {
  const first = periodStart(s, 0);
  if (day < first) return -1;
  let k: number;
  if (s.interval === 'WEEKLY') k = Math.floor((toDays(day) - toDays(first)) / 7);
  else {
    const [y0, m0] = first.split('-').map(Number) as [number, number];
    const [y1, m1] = day.split('-').map(Number) as [number, number];
    k = Math.floor(((y1 - y0) * 12 + (m1 - m0)) / MONTHS[s.interval]);
  }
  while (k >= 0 && periodStart(s, k) > day) k -= 1;
  while (periodStart(s, k + 1) <= day) k += 1;
  return k;
}

/**
 * The periods due on `today` that the template makes: started on or before today, not before
 * `from` (the day generation (re)started: a paused stretch is skipped, not billed on resume), the
 * latest `limit` of them, oldest first. Which of them already have a bill is the caller's to know.
 */
export function duePeriods(s: Schedule, today: string, opts: { from?: string | null; limit?: number } = {}): Period[] {
  const limit = opts.limit ?? MAX_CATCH_UP_PERIODS;
  let last = latestIndex(s, today);
  if (s.max_occurrences !== null) last = Math.min(last, s.max_occurrences - 1);
  const out: Period[] = [];
  for (let k = last; k >= 0 && out.length < limit; k -= 1) {
    if (!inSchedule(s, k)) continue;
    const p = period(s, k);
    if (opts.from && p.start < opts.from) break;
    out.push(p);
  }
  return out.reverse();
}

/** The first period the template makes that starts after `today` (and not before `from`); null when it has ended. */
export function nextPeriod(s: Schedule, today: string, from: string | null = null): Period | null {
  let k = latestIndex(s, from && from > today ? addDays(from, -1) : today) + 1;
  if (k < 0) k = 0;
  return inSchedule(s, k) ? period(s, k) : null;
}

/** Problems with a schedule, by field. */
export function validateSchedule(s: Schedule): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!isCalendarDate(s.start_date)) errors.start_date = 'Enter the start date as a calendar date (YYYY-MM-DD).';
  if (s.end_date !== null && !isCalendarDate(s.end_date)) errors.end_date = 'Enter the end date as a calendar date (YYYY-MM-DD).';
  else if (s.end_date !== null && !errors.start_date && s.end_date < s.start_date) errors.end_date = 'The end date cannot be before the start date.';
  if (s.interval === 'WEEKLY' && s.day_of_month !== null) errors.day_of_month = 'A weekly template bills on a weekday: set day_of_week instead.';
  if (s.interval !== 'WEEKLY' && s.day_of_week !== null) errors.day_of_week = 'Only a weekly template bills on a weekday: set day_of_month instead.';
  if (s.max_occurrences !== null && s.max_occurrences < 1) errors.max_occurrences = 'A template makes at least one bill.';
  if (!errors.start_date && !errors.end_date && !inSchedule(s, 0)) errors.end_date = 'The schedule ends before its first bill.';
  return errors;
}

/**
 * The invoice number of a period's bill: `pattern` with {YYYY}, {YY}, {MM}, {DD} (the period's
 * start), {Q} (its quarter, 1–4) and {N} (the occurrence, from 1) filled in; e.g. "RENT-{YYYY}-{MM}"
 * → "RENT-2026-11". Text outside braces is kept as written.
 */
export function invoiceNumberFor(pattern: string, p: Period): string {
  const [y, m, d] = p.start.split('-') as [string, string, string];
  const tokens: Record<string, string> = {
    YYYY: y, YY: y.slice(-2), MM: m, DD: d, Q: String(Math.floor((Number(m) - 1) / 3) + 1), N: String(p.index + 1),
  };
  return pattern.replace(/\{(YYYY|YY|MM|DD|Q|N)\}/g, (_, t: string) => tokens[t]!).trim();
}

/**
 * A pattern that would give two of the first periods one invoice number ("RENT", or {YYYY}-{MM}
 * on a weekly template) is refused: every bill would look like a duplicate of the last. Five
 * periods are enough to catch a weekly pattern without the day.
 */
export function invoicePatternError(pattern: string, s: Schedule): string | null {
  const n = Math.min(5, s.max_occurrences ?? 5);
  const numbers = Array.from({ length: n }, (_, i) => invoiceNumberFor(pattern, period(s, i)));
  return new Set(numbers).size === numbers.length
    ? null
    : 'The pattern gives two bills the same invoice number: add {DD}, {N} or another token that changes every period.';
}

/** A period's bill is dated its start and due `daysUntilDue` later. */
export const billDatesFor = (p: Period, daysUntilDue: number) => ({ invoice_date: p.start, due_date: addDays(p.start, daysUntilDue) });
