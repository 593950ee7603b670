import type { LimitInterval } from './entities/card.ts';
import { currencyExponent } from './money.ts';

/**
 * Switching (spec §7 Vendors "switching/vendors/{vendor}", error SWITCHING_7002): an admin uploads
 * the CSV statement of the card the business is leaving; the charges it pays again and again
 * (subscriptions, SaaS, utilities) are listed as vendors to move, each onto a virtual card of its
 * own with a limit sized from what it charged. The rules a person reads on the page live here.
 */

export const SWITCHING_MAX_FILE_BYTES = 5 * 1024 * 1024;
export const SWITCHING_MAX_ROWS = 20_000;
/** Rows the file may have that are neither a charge nor readable before the whole file is refused. */
export const SWITCHING_MAX_UNREADABLE_SHARE = 0.1;
/** How many unreadable rows an answer names (the count is always whole). */
export const SWITCHING_SHOWN_ROW_PROBLEMS = 20;

export const SWITCHING_CADENCES = ['WEEKLY', 'MONTHLY', 'QUARTERLY', 'YEARLY', 'IRREGULAR'] as const;
export type SwitchingCadence = (typeof SWITCHING_CADENCES)[number];

/** Median days between charges → cadence (inclusive bounds). */
const CADENCE_GAPS: readonly [SwitchingCadence, number, number][] = [
  ['WEEKLY', 5, 9], ['MONTHLY', 25, 35], ['QUARTERLY', 80, 100], ['YEARLY', 340, 390],
];

const dayNumber = (iso: string) => Math.round(Date.parse(`${iso}T00:00:00Z`) / 86_400_000);

/** The cadence of charges on these days (YYYY-MM-DD, any order): the median gap between distinct days. */
export function cadenceOf(days: readonly string[]): SwitchingCadence {
  const distinct = [...new Set(days)].map(dayNumber).sort((a, b) => a - b);
  if (distinct.length < 2) return 'IRREGULAR';
  const gaps = distinct.slice(1).map((d, i) => d - distinct[i]!).sort((a, b) => a - b);
  const mid = gaps.length >> 1;
  const median = gaps.length % 2 ? gaps[mid]! : (gaps[mid - 1]! + gaps[mid]!) / 2;
  return CADENCE_GAPS.find(([, lo, hi]) => median >= lo && median <= hi)?.[0] ?? 'IRREGULAR';
}

/**
 * A vendor worth moving: charged at least twice, on a cadence, or in three different months
 * (a vendor paid now and then is still one the card pays).
 */
export const isRecurring = (charges: number, months: number, cadence: SwitchingCadence) =>
  charges >= 2 && (cadence !== 'IRREGULAR' || months >= 3);

/** Headroom over the largest charge seen (in tenths: 11 = +10 %), so a small price rise does not decline the card. */
export const SWITCHING_LIMIT_HEADROOM_TENTHS = 11;

/**
 * The limit suggested for a vendor's card: the interval its cadence fills (a weekly vendor's
 * month holds five charges, a quarterly one's year four) times the largest charge (an irregular
 * vendor: its largest month), plus 10 % headroom, rounded up to a whole unit of the currency.
 */
export function suggestedLimit(
  cadence: SwitchingCadence, largestCharge: number, largestMonth: number, currency: string,
): { amount: number; interval: LimitInterval } {
  const [interval, base]: [LimitInterval, number] =
    cadence === 'WEEKLY' ? ['MONTHLY', largestCharge * 5]
      : cadence === 'MONTHLY' ? ['MONTHLY', largestCharge]
        : cadence === 'QUARTERLY' ? ['YEARLY', largestCharge * 4]
          : cadence === 'YEARLY' ? ['YEARLY', largestCharge]
            : ['MONTHLY', largestMonth];
  const unit = 10 ** currencyExponent(currency);
  // Integers throughout: base × 11 / (10 × unit), rounded up (no float like 1100.0000000000002).
  return { amount: Math.ceil((base * SWITCHING_LIMIT_HEADROOM_TENTHS) / (10 * unit)) * unit, interval };
}
