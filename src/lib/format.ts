/**
 * The one display format of the app (issue 8: "one date and number format, locale-aware, via
 * Intl, across table, drawer and toasts"). Every count, money amount, date and time a screen shows
 * goes through here, in the person's locale (the browser's first language; en-US where there is
 * none, e.g. in unit tests).
 */
import { formatMoney as formatMoneyIn } from '../../schema/money.ts';

export const DISPLAY_LOCALE: string =
  (typeof navigator !== 'undefined' && (navigator.languages?.[0] ?? navigator.language)) || 'en-US';

/**
 * Each formatter is built on first use, not when this module loads: building an Intl formatter
 * loads its locale data, and five of them cost ≈ 0.1 s of a phone's CPU in the first load's
 * script evaluation (issue 33), while the sign-in page formats nothing.
 */
function once<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}
const countFormat = once(() => new Intl.NumberFormat(DISPLAY_LOCALE));
/** A calendar day as the tables show it ("Nov 21, 2026"), read in UTC: a date-only value or the day of a UTC timestamp. */
const dayFormat = once(() => new Intl.DateTimeFormat(DISPLAY_LOCALE, { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }));
/** The same day with the time of day, in UTC and marked so ("Nov 21, 2026, 12:31 AM UTC"). */
const utcTimeFormat = once(() => new Intl.DateTimeFormat(DISPLAY_LOCALE, {
  month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: 'UTC', timeZoneName: 'short',
}));
/** A recent moment's day on this device's clock, compact for a table column ("Nov 18"). */
const shortDayFormat = once(() => new Intl.DateTimeFormat(DISPLAY_LOCALE, { month: 'short', day: 'numeric' }));
/** A moment on this device's clock (sync times, history steps): "Nov 21, 2026, 7:35 PM". */
const localTimeFormat = once(() => new Intl.DateTimeFormat(DISPLAY_LOCALE, { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' }));

const asDate = (value: string | number | Date): Date =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : new Date(value);

export const formatCount = (n: number): string => countFormat().format(n);
/** Joins parts for a sentence: "A", "A and B", "A, B and C". */
export function joinList(parts: readonly string[]): string {
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}
export const formatDay = (value: string | number | Date): string => dayFormat().format(asDate(value));
export const formatUtcDateTime = (value: string | number | Date): string => utcTimeFormat().format(asDate(value));
export const formatShortDay = (value: string | number | Date): string => shortDayFormat().format(asDate(value));
export const formatLocalDateTime = (value: string | number | Date): string => localTimeFormat().format(asDate(value));
/** Money in minor units, in the display locale. */
export const formatMoney = (minor: number, currency: string): string => formatMoneyIn(minor, currency, DISPLAY_LOCALE);

/**
 * Builds the formatters a signed-in first screen uses (counts, days, times, money in `currencies`)
 * ahead of it, one per `schedule` call (main.tsx: one task each). Issue 33: built on first use,
 * they were built inside the first rows' render, ≈ 20–80 ms each on a phone's CPU in one long task.
 */
export function warmFormats(currencies: readonly string[], schedule: (build: () => void) => void): void {
  const builds: (() => unknown)[] = [countFormat, dayFormat, shortDayFormat, localTimeFormat, ...currencies.map((c) => () => formatMoney(0, c))];
  for (const build of builds) schedule(() => void build());
}
