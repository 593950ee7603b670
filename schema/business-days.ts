/**
 * Bank business days (issue 11, bill pay's get-expected-settlement-date), pure. Dates are UTC
 * calendar dates as ISO `YYYY-MM-DD` strings in and out: a settlement date is a day on the bank's
 * calendar, not an instant, so no time zone of the viewer may shift it.
 *
 * The calendar is the Federal Reserve's (the banks' settlement calendar), not the federal
 * government's (OPM): the eleven US federal holidays, computed by rule for any year; a fixed-date
 * holiday on a Sunday is observed the Monday after, but one on a Saturday is **not** moved to the
 * Friday before. The Fed settles ACH and wires that Friday, so a payment still lands on it (OPM
 * closes federal offices that Friday; following OPM here would promise settlements a day late).
 * Source: federalreserve.gov "Holidays Observed by the Federal Reserve System" (footnote: "For
 * holidays falling on Saturday, Federal Reserve Banks and Branches will be open the preceding
 * Friday"). The current list is applied to every year (Juneteenth included before 2022): bills
 * are scheduled in the present and the future.
 */

const DAY_MS = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since the epoch of an ISO date, or null when it is not a real calendar date. */
function dayNumber(iso: string): number | null {
  const m = ISO_DATE.exec(iso);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = Date.UTC(y, mo - 1, d);
  const back = new Date(t);
  // Date.UTC rolls 2026-02-30 over to March; a date that does not round-trip is not a date.
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return t / DAY_MS;
}

const isoOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
/** 0 = Sunday … 6 = Saturday (1970-01-01, day 0, was a Thursday). */
const weekdayOf = (day: number) => (day + 4) % 7;
const utcDay = (year: number, month: number, date: number) => Date.UTC(year, month - 1, date) / DAY_MS;

/** The `n`th (1-based) `weekday` of a month, as a day number. */
function nthWeekday(year: number, month: number, weekday: number, n: number): number {
  const first = utcDay(year, month, 1);
  return first + ((weekday - weekdayOf(first) + 7) % 7) + (n - 1) * 7;
}

function lastWeekday(year: number, month: number, weekday: number): number {
  const last = utcDay(year, month + 1, 0);
  return last - ((weekdayOf(last) - weekday + 7) % 7);
}

/** A fixed-date holiday on the Fed calendar: Sunday → Monday; Saturday → not observed (null). */
function observedFixed(year: number, month: number, date: number): number | null {
  const day = utcDay(year, month, date);
  switch (weekdayOf(day)) {
    case 0:
      return day + 1;
    case 6:
      return null;
    default:
      return day;
  }
}

const MON = 1;
const THU = 4;

export type Holiday = { name: string; date: string };

/** The Federal Reserve's observed holidays of `year`, in date order (a Saturday one is left out). */
export function bankHolidays(year: number): Holiday[] {
  const days: [string, number | null][] = [
    ["New Year's Day", observedFixed(year, 1, 1)],
    ['Birthday of Martin Luther King, Jr.', nthWeekday(year, 1, MON, 3)],
    ["Washington's Birthday", nthWeekday(year, 2, MON, 3)],
    ['Memorial Day', lastWeekday(year, 5, MON)],
    ['Juneteenth National Independence Day', observedFixed(year, 6, 19)],
    ['Independence Day', observedFixed(year, 7, 4)],
    ['Labor Day', nthWeekday(year, 9, MON, 1)],
    ['Columbus Day', nthWeekday(year, 10, MON, 2)],
    ['Veterans Day', observedFixed(year, 11, 11)],
    ['Thanksgiving Day', nthWeekday(year, 11, THU, 4)],
    ['Christmas Day', observedFixed(year, 12, 25)],
  ];
  return days.flatMap(([name, day]) => (day === null ? [] : [{ name, date: isoOf(day) }]));
}

const holidayCache = new Map<number, ReadonlySet<number>>();
function holidayDays(year: number): ReadonlySet<number> {
  let set = holidayCache.get(year);
  if (!set) {
    set = new Set(bankHolidays(year).map((h) => dayNumber(h.date) as number));
    holidayCache.set(year, set);
  }
  return set;
}

function isBusinessDayNumber(day: number): boolean {
  const wd = weekdayOf(day);
  if (wd === 0 || wd === 6) return false;
  return !holidayDays(new Date(day * DAY_MS).getUTCFullYear()).has(day);
}

function parseOrThrow(iso: string): number {
  const day = dayNumber(iso);
  if (day === null) throw new RangeError(`Not a calendar date (YYYY-MM-DD): ${iso}`);
  return day;
}

/** Whether banks settle on `date`: a weekday that is not a Fed holiday. */
export const isBusinessDay = (date: string): boolean => isBusinessDayNumber(parseOrThrow(date));

/** The first business day on or after `date`. */
export function nextBusinessDay(date: string): string {
  let day = parseOrThrow(date);
  while (!isBusinessDayNumber(day)) day += 1;
  return isoOf(day);
}

/**
 * When a payment sent on `paymentDate` settles: `businessDays` bank business days after it.
 * A payment date that is not a business day is sent the next business day (banks process
 * nothing on a weekend or holiday), and the count starts from there; 0 days gives that day.
 * Example: sent Wednesday 2026-11-25 with 2 days → Monday 2026-11-30 (Thanksgiving and the
 * weekend skipped).
 */
export function expectedSettlementDate(paymentDate: string, businessDays: number): string {
  if (!Number.isInteger(businessDays) || businessDays < 0) {
    throw new RangeError(`businessDays must be a whole number of days, 0 or more: ${businessDays}`);
  }
  let day = parseOrThrow(nextBusinessDay(paymentDate));
  for (let left = businessDays; left > 0; ) {
    day += 1;
    if (isBusinessDayNumber(day)) left -= 1;
  }
  return isoOf(day);
}
