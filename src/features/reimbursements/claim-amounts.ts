import { formatMoney } from '../../../schema/money.ts';
import {
  mileageAmount, mileageRate, perDiemAmount, PER_DIEM_DAILY_RATE, PER_DIEM_PARTIAL_DAY_SHARE,
} from '../../../schema/reimbursement-rules.ts';
import { COMPUTED_CLAIM_CURRENCY } from '../../../schema/commands/reimbursement.ts';

/**
 * What the claim forms show live while the person types: the mileage and per-diem amounts,
 * computed by the same rules the worker and the server apply (schema/reimbursement-rules.ts),
 * so the figure on the form is the figure on the claim. Pure; tested.
 */

export type DistanceUnit = 'mi' | 'km';
/** International mile: exactly 1.609344 km. */
export const KM_PER_MILE = 1.609344;

/** Kilometres to miles, in hundredths (the claim's precision), rounded half up. */
export function kmToMiles(km: number): number {
  return Math.round((km / KM_PER_MILE) * 100) / 100;
}

/** The typed distance in miles, or null when it is not a number yet ("", "abc"). */
export function distanceInMiles(text: string, unit: DistanceUnit): number | null {
  const trimmed = text.trim().replace(/,/g, '');
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return null;
  return unit === 'km' ? kmToMiles(value) : value;
}

const usd = (minor: number) => formatMoney(minor, COMPUTED_CLAIM_CURRENCY);
const distanceFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const rateFormat = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 3 });

export type LivePreview = { ok: true; amount: number; text: string } | { ok: false; text: string | null };

/** "124 mi × $0.725 = $89.90" for a distance in miles on a trip date; why not, when it cannot be computed. */
export function mileagePreview(miles: number | null, tripDate: string): LivePreview {
  if (miles === null || !tripDate) return { ok: false, text: null };
  const result = mileageAmount(miles, tripDate);
  if ('errors' in result) return { ok: false, text: Object.values(result.errors)[0] ?? null };
  // The rate is in tenths of a cent per mile: 725 → $0.725.
  const rate = mileageRate(Number(tripDate.slice(0, 4)))!;
  return { ok: true, amount: result.amount, text: `${distanceFormat.format(miles)} mi × ${rateFormat.format(rate / 1000)} = ${usd(result.amount)}` };
}

export interface PerDiemPreview {
  ok: true;
  amount: number;
  days: number;
  /** "3 days = 2 travel days × $51.00 (75 %) + 1 full day × $68.00 = $170.00" */
  text: string;
}

/** The per-diem days and amount for a trip, with the 75 % first/last-day breakdown. */
export function perDiemPreview(start: string, end: string): PerDiemPreview | { ok: false; text: string | null } {
  if (!start || !end) return { ok: false, text: null };
  const result = perDiemAmount(start, end);
  if ('errors' in result) return { ok: false, text: Object.values(result.errors)[0] ?? null };
  const partial = Math.round(PER_DIEM_DAILY_RATE * PER_DIEM_PARTIAL_DAY_SHARE);
  const share = `${Math.round(PER_DIEM_PARTIAL_DAY_SHARE * 100)} %`;
  const days = result.days;
  const dayWord = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const parts =
    days === 1
      ? [`1 travel day × ${usd(partial)} (${share})`]
      : [`2 travel days × ${usd(partial)} (${share})`, ...(days > 2 ? [`${dayWord(days - 2, 'full day')} × ${usd(PER_DIEM_DAILY_RATE)}`] : [])];
  return { ok: true, amount: result.amount, days, text: `${dayWord(days, 'day')} = ${parts.join(' + ')} = ${usd(result.amount)}` };
}
