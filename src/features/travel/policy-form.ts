import type { z } from 'zod';
import { CABINS, type Cabin } from '../../../schema/entities/trip.ts';
import { validationMessages } from '../../../schema/errors.ts';
import { minorToDecimal, toMinorUnits } from '../../../schema/money.ts';
import { travelPolicySchema, travelSettingsSchema, type TravelPolicy, type TravelSettings } from '../../../schema/travel-policy.ts';

/**
 * Settings → Travel, pure: the travel policy and the travel settings as the forms hold them
 * (amounts as typed in major units, hours for durations) and back to the PUT bodies, checked with
 * the calls' own schemas. Errors by the body's paths ("cabin_by_duration.1.max_cabin"). Tested.
 */
export interface PolicyValues {
  currency: string;
  cabin_rules: { hours: string; max_cabin: Cabin }[];
  /** '' = no cap. */
  fare_caps: Record<Cabin, string>;
  hotel_default: string;
  hotel_cities: { city: string; amount: string }[];
  min_advance_days: string;
  out_of_policy: TravelPolicy['out_of_policy'];
}

export type Built<T> = { ok: true; body: T } | { ok: false; errors: Record<string, string> };

const money = (amount: number | null, currency: string) => (amount === null ? '' : minorToDecimal(amount, currency));
const minor = (text: string, currency: string): number | string => {
  const t = text.trim().replace(/^[$€£¥]/, '');
  return toMinorUnits(t, currency) ?? t;
};
const int = (text: string): number | string => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : text);

export function policyValues(p: TravelPolicy): PolicyValues {
  return {
    currency: p.currency,
    cabin_rules: p.cabin_by_duration.map((r) => ({ hours: String(r.min_duration_minutes / 60), max_cabin: r.max_cabin })),
    fare_caps: Object.fromEntries(CABINS.map((c) => [c, money(p.flight_fare_caps[c], p.currency)])) as Record<Cabin, string>,
    hotel_default: money(p.hotel_nightly_cap.default, p.currency),
    hotel_cities: p.hotel_nightly_cap.cities.map((c) => ({ city: c.city, amount: money(c.amount, p.currency) })),
    min_advance_days: String(p.min_advance_days),
    out_of_policy: p.out_of_policy,
  };
}

export function policyBody(v: PolicyValues): Built<TravelPolicy> {
  const input = {
    currency: v.currency,
    cabin_by_duration: v.cabin_rules.map((r) => {
      const hours = Number(r.hours.trim());
      return { min_duration_minutes: r.hours.trim() !== '' && Number.isFinite(hours) ? Math.round(hours * 60) : r.hours, max_cabin: r.max_cabin };
    }),
    flight_fare_caps: Object.fromEntries(CABINS.map((c) => [c, v.fare_caps[c].trim() === '' ? null : minor(v.fare_caps[c], v.currency)])),
    hotel_nightly_cap: { default: minor(v.hotel_default, v.currency), cities: v.hotel_cities.map((c) => ({ city: c.city, amount: minor(c.amount, v.currency) })) },
    min_advance_days: int(v.min_advance_days),
    out_of_policy: v.out_of_policy,
  };
  const parsed = travelPolicySchema.safeParse(input);
  const errors: Record<string, string> = parsed.success ? {} : validationMessages(parsed.error as z.ZodError, input);
  if (!input.cabin_by_duration.some((r) => r.min_duration_minutes === 0)) errors.cabin_by_duration ??= 'One rule must start at 0 hours (every flight).';
  const cities = v.hotel_cities.map((c) => c.city);
  const repeated = cities.find((c, i) => c !== '' && cities.indexOf(c) !== i);
  if (repeated) errors['hotel_nightly_cap.cities'] ??= `${repeated} has two caps: keep one.`;
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, body: parsed.data };
}

export interface SettingsValues {
  flights_enabled: boolean;
  hotels_enabled: boolean;
  require_trip_purpose: boolean;
  default_trip_budget: string;
  trip_card_limit_multiplier: string;
}

export function settingsValues(s: TravelSettings, currency: string): SettingsValues {
  return {
    flights_enabled: s.flights_enabled,
    hotels_enabled: s.hotels_enabled,
    require_trip_purpose: s.require_trip_purpose,
    default_trip_budget: money(s.default_trip_budget, currency),
    trip_card_limit_multiplier: String(s.trip_card_limit_multiplier),
  };
}

export function settingsBody(v: SettingsValues, currency: string): Built<TravelSettings> {
  const multiplier = Number(v.trip_card_limit_multiplier.trim());
  const input = {
    flights_enabled: v.flights_enabled,
    hotels_enabled: v.hotels_enabled,
    require_trip_purpose: v.require_trip_purpose,
    default_trip_budget: v.default_trip_budget.trim() === '' ? null : minor(v.default_trip_budget, currency),
    trip_card_limit_multiplier: v.trip_card_limit_multiplier.trim() !== '' && Number.isFinite(multiplier) ? multiplier : v.trip_card_limit_multiplier,
  };
  const parsed = travelSettingsSchema.safeParse(input);
  if (!parsed.success) return { ok: false, errors: validationMessages(parsed.error as z.ZodError, input) };
  return { ok: true, body: parsed.data };
}
