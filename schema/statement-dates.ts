/**
 * Dates as statements write them (a bank's, a card provider's): shared by the bank statement
 * reader on the device (src/features/banking/statement-lines.ts) and the card statement import
 * on the server (server/domain/switching/). Answers YYYY-MM-DD, or null for no real day.
 */

export const MONTHS: Readonly<Record<string, number>> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, sept: 9, oct: 10, nov: 11, dec: 12,
};
/** A month's name or abbreviation ("Oct", "October", "Sept."), as a capturing group. */
export const MONTH_NAME = '(jan|feb|mar|apr|may|jun|jul|aug|sept?|oct|nov|dec)[a-z]*\\.?';

const pad = (n: number) => String(n).padStart(2, '0');

/** The day, when it is one (no 31 April, no 29 February outside leap years). */
export function validDay(y: number, m: number, d: number): string | null {
  if (m < 1 || m > 12 || d < 1 || d > 31) return null;
  const dt = new Date(Date.UTC(y, m - 1, d));
  if (dt.getUTCMonth() !== m - 1) return null;
  return `${y}-${pad(m)}-${pad(d)}`;
}

/** "26" → 2026, "2026" → 2026. */
export const fullYear = (y: string) => (y.length === 2 ? 2000 + Number(y) : Number(y));

/** Which number comes first in a numeric date: "10/31/2026" (MDY, the US) or "31/10/2026" (DMY). */
export type DayOrder = 'MDY' | 'DMY';

/**
 * A date with its year written: "2026-10-31", "10/31/2026", "10-31-26", "Oct 31, 2026",
 * "31 Oct 2026". Numeric dates are read month first unless `order` says day first.
 */
export function dateWithYear(text: string, order: DayOrder = 'MDY'): string | null {
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  if (m) return validDay(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})$/.exec(text);
  if (m) {
    const [a, b] = [Number(m[1]), Number(m[2])];
    return order === 'MDY' ? validDay(fullYear(m[3]!), a, b) : validDay(fullYear(m[3]!), b, a);
  }
  m = new RegExp(`^${MONTH_NAME}\\s+(\\d{1,2}),?\\s+(\\d{4})$`, 'i').exec(text);
  if (m) return validDay(Number(m[3]), MONTHS[m[1]!.toLowerCase()]!, Number(m[2]));
  m = new RegExp(`^(\\d{1,2})\\s+${MONTH_NAME}\\s+(\\d{4})$`, 'i').exec(text);
  if (m) return validDay(Number(m[3]), MONTHS[m[2]!.toLowerCase()]!, Number(m[1]));
  return null;
}
