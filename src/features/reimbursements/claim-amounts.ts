import { DISPLAY_LOCALE, formatMoney } from '../../lib/format.ts';
import {
  DEFAULT_PER_DIEM_RATE, mileageAmount, mileageOverride, NO_RATES, partialDayAmount, perDiemAmount, perDiemRateFor,
  PER_DIEM_PARTIAL_DAY_SHARE, type BusinessRates, type PerDiemRate,
} from '../../../schema/reimbursement-rules.ts';
import type { SelectOption } from '../../components/select-field.tsx';
import { COMPUTED_CLAIM_CURRENCY } from '../../../schema/commands/reimbursement.ts';

/**
 * What the claim forms show live while the person types: the mileage and per-diem amounts,
 * computed by the same rules the worker and the server apply (schema/reimbursement-rules.ts)
 * at the business's rates (mirrored reference data), so the figure on the form is the figure on
 * the claim; and the per-diem location picker's options. Pure; tested.
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
const distanceFormat = new Intl.NumberFormat(DISPLAY_LOCALE, { maximumFractionDigits: 2 });
const rateFormat = new Intl.NumberFormat(DISPLAY_LOCALE, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 3 });

export type LivePreview = { ok: true; amount: number; text: string } | { ok: false; text: string | null };

/**
 * "124 mi × $0.725 = $89.90" for a distance in miles on a trip date, at the business's rate for
 * the year when it set one ("× $0.80 (business rate)"), else the IRS rate; why not, when it
 * cannot be computed.
 */
export function mileagePreview(miles: number | null, tripDate: string, rates: BusinessRates = NO_RATES): LivePreview {
  if (miles === null || !tripDate) return { ok: false, text: null };
  const result = mileageAmount(miles, tripDate, rates);
  if ('errors' in result) return { ok: false, text: Object.values(result.errors)[0] ?? null };
  // The rate is in tenths of a cent per mile: 725 → $0.725.
  const own = mileageOverride(Number(tripDate.slice(0, 4)), rates) !== null ? ' (business rate)' : '';
  return { ok: true, amount: result.amount, text: `${distanceFormat.format(miles)} mi × ${rateFormat.format(result.rate / 1000)}${own} = ${usd(result.amount)}` };
}

export interface PerDiemPreview {
  ok: true;
  amount: number;
  days: number;
  currency: string;
  /** "3 days = 2 travel days × $51.00 (75 %) + 1 full day × $68.00 = $170.00" */
  text: string;
}

/** The per-diem days and amount for a trip at a daily rate, with the 75 % first/last-day breakdown. */
export function perDiemPreview(
  start: string, end: string, rate: PerDiemRate = DEFAULT_PER_DIEM_RATE,
): PerDiemPreview | { ok: false; text: string | null } {
  if (!start || !end) return { ok: false, text: null };
  const result = perDiemAmount(start, end, rate);
  if ('errors' in result) return { ok: false, text: Object.values(result.errors)[0] ?? null };
  const money = (minor: number) => formatMoney(minor, rate.currency);
  const partial = partialDayAmount(rate.daily);
  const share = `${Math.round(PER_DIEM_PARTIAL_DAY_SHARE * 100)} %`;
  const days = result.days;
  const dayWord = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const parts =
    days === 1
      ? [`1 travel day × ${money(partial)} (${share})`]
      : [`2 travel days × ${money(partial)} (${share})`, ...(days > 2 ? [`${dayWord(days - 2, 'full day')} × ${money(rate.daily)}`] : [])];
  return { ok: true, amount: result.amount, days, currency: rate.currency, text: `${dayWord(days, 'day')} = ${parts.join(' + ')} = ${money(result.amount)}` };
}

// --- The per-diem location picker ---------------------------------------------------------------

/** The picker's choice for a location not in the business's table: paid at the default rate. */
export const OTHER_LOCATION = '__other__';
export const OTHER_LOCATION_LABEL = 'Other (default rate)';

/** The business's per-diem locations as picker options: value the name, label with its daily rate. */
export function perDiemLocationOptions(rates: BusinessRates): SelectOption[] {
  return rates
    .filter((r) => r.kind === 'PER_DIEM' && r.name !== null)
    .map((r) => ({ value: r.name!, label: `${r.name} · ${formatMoney(r.rate, r.currency)} a day` }))
    .sort((a, b) => a.value.localeCompare(b.value));
}

/**
 * What the picker shows: `OTHER_LOCATION` once Other was picked (its name field stays while the
 * person types, even a name of the list, which then takes that rate: the rule is by name);
 * otherwise the business's location of the typed name, `OTHER_LOCATION` for any other name, ''
 * for none yet.
 */
export function perDiemChoice(location: string, rates: BusinessRates, otherChosen = false): string {
  if (otherChosen) return OTHER_LOCATION;
  if (location.trim() === '') return '';
  return perDiemRateFor(location, rates).location ?? OTHER_LOCATION;
}

/** "$79.00 a day in New York, 75 % on the first and last day" (or the default rate's words). */
export function perDiemRateNote(rate: PerDiemRate): string {
  const share = `${Math.round(PER_DIEM_PARTIAL_DAY_SHARE * 100)} %`;
  const where = rate.location === null ? ' (default rate)' : ` in ${rate.location}`;
  return `${formatMoney(rate.daily, rate.currency)} a day${where}, ${share} on the first and last day`;
}
