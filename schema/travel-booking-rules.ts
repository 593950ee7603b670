import type { Cabin, FlightSegment, HotelStay, Money } from './entities/trip.ts';
import { formatMoney } from './money.ts';
import type { FieldErrors } from './reimbursement-rules.ts';
import { CABIN_RANK, type TravelPolicy } from './travel-policy.ts';
import { AIRPORTS } from './travel/airports.ts';

/**
 * Issue 27, booking, pure: an offer against the business's travel policy (the server stamps
 * every offer it answers with this; the UI shows the reasons), and the search input checks zod
 * cannot express. Reasons are plain sentences with the figures in them.
 *
 * Dates are calendar days at the place they happen: "today" for a flight is today at its origin
 * airport, for a hotel today in its city (`localToday`, the place's IANA zone). That is exact for
 * a known place, where the claims' anywhere-on-Earth bound (UTC+14, reimbursement-rules.ts) is
 * the best a date with no place can do.
 */
export type PolicyVerdict = { in_policy: boolean; reasons: string[]; blocked: boolean };

const MAX_HOTEL_NIGHTS = 30;
/** How far ahead the inventory sells (airlines open about 11 months out). */
const MAX_DAYS_AHEAD = 330;

const CABIN_WORDS: Readonly<Record<Cabin, string>> = {
  ECONOMY: 'Economy', PREMIUM_ECONOMY: 'Premium economy', BUSINESS: 'Business', FIRST: 'First',
};

/** 125 → "2 h 05 m"; whole hours as "6 h". */
export function formatDuration(minutes: number): string {
  const h = Math.floor(minutes / 60), m = minutes % 60;
  return m === 0 ? `${h} h` : `${h} h ${String(m).padStart(2, '0')} m`;
}

const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
const dayWord = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

/** Today's calendar date (YYYY-MM-DD) in an IANA zone at `now`. */
export function localToday(tz: string, now: Date): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(now);
  const get = (t: string) => parts.find((p) => p.type === t)!.value;
  return `${get('year')}-${get('month')}-${get('day')}`;
}

const currencyReason = (price: Money, policy: TravelPolicy): string | null =>
  price.currency === policy.currency ? null : `Priced in ${price.currency}: the policy caps ${policy.currency}`;

const verdict = (policy: TravelPolicy, reasons: string[]): PolicyVerdict => ({
  in_policy: reasons.length === 0, reasons, blocked: reasons.length > 0 && policy.out_of_policy === 'BLOCK',
});

/** The policy's best cabin for a leg of `minutes`, and the duration where the next rule starts (null: none above). */
export function allowedCabin(policy: TravelPolicy, minutes: number): { cabin: Cabin; from: number; until: number | null } {
  const rules = [...policy.cabin_by_duration].sort((a, b) => a.min_duration_minutes - b.min_duration_minutes);
  const applies = rules.filter((r) => r.min_duration_minutes <= minutes).at(-1) ?? rules[0]!;
  const next = rules.find((r) => r.min_duration_minutes > minutes);
  return { cabin: applies.max_cabin, from: applies.min_duration_minutes, until: next?.min_duration_minutes ?? null };
}

export type FlightOfferFacts = { cabin: Cabin; price: Money; passengers: number; segments: readonly Pick<FlightSegment, 'departs_at' | 'duration_minutes'>[] };

/**
 * A flight offer against the policy: the cabin allowed by its longest leg's duration, the fare
 * cap of its cabin (per passenger, whole trip), the minimum days booked ahead (from `today`, the
 * origin's calendar day, to the first departure's local date), and its currency.
 */
export function evaluateFlightOffer(policy: TravelPolicy, offer: FlightOfferFacts, today: string): PolicyVerdict {
  const reasons: string[] = [];
  const longest = Math.max(...offer.segments.map((s) => s.duration_minutes));
  const allowed = allowedCabin(policy, longest);
  if (CABIN_RANK[offer.cabin] > CABIN_RANK[allowed.cabin]) {
    const span = allowed.until !== null ? ` under ${formatDuration(allowed.until)}` : allowed.from > 0 ? ` from ${formatDuration(allowed.from)}` : '';
    reasons.push(`${CABIN_WORDS[offer.cabin]} cabin on a ${formatDuration(longest)} flight: the policy allows up to ${CABIN_WORDS[allowed.cabin]}${span}`);
  }
  const wrongCurrency = currencyReason(offer.price, policy);
  if (wrongCurrency) reasons.push(wrongCurrency);
  const cap = policy.flight_fare_caps[offer.cabin];
  const perPassenger = Math.ceil(offer.price.amount / Math.max(1, offer.passengers));
  if (!wrongCurrency && cap !== null && perPassenger > cap) {
    reasons.push(`${CABIN_WORDS[offer.cabin]} fare of ${formatMoney(perPassenger, offer.price.currency)} per traveller: the policy caps ${CABIN_WORDS[offer.cabin]} at ${formatMoney(cap, policy.currency)}`);
  }
  const departs = offer.segments[0]!.departs_at.slice(0, 10);
  const ahead = daysBetween(today, departs);
  if (ahead < policy.min_advance_days) {
    reasons.push(`Booked ${dayWord(Math.max(0, ahead))} before departure: the policy asks for at least ${dayWord(policy.min_advance_days)}`);
  }
  return verdict(policy, reasons);
}

/** The nightly cap for a city: its own (the same code, or another airport of the same city), else the default. */
export function hotelCap(policy: TravelPolicy, city: string): { amount: number; city: string | null } {
  const here = AIRPORTS[city];
  const own = policy.hotel_nightly_cap.cities.find((c) => {
    if (c.city === city) return true;
    const there = AIRPORTS[c.city];
    return !!here && !!there && there.city === here.city && there.country === here.country;
  });
  return own ? { amount: own.amount, city: here?.city ?? city } : { amount: policy.hotel_nightly_cap.default, city: null };
}

export type HotelOfferFacts = { price: Money; hotel: Pick<HotelStay, 'city' | 'nightly'> };

/** A hotel offer against the policy: the nightly rate against the city's cap (else the default), and its currency. */
export function evaluateHotelOffer(policy: TravelPolicy, offer: HotelOfferFacts, _today: string): PolicyVerdict {
  const reasons: string[] = [];
  const wrongCurrency = currencyReason(offer.price, policy);
  if (wrongCurrency) reasons.push(wrongCurrency);
  const cap = hotelCap(policy, offer.hotel.city);
  const nightly = offer.hotel.nightly.amount;
  if (!wrongCurrency && nightly > cap.amount) {
    const where = AIRPORTS[offer.hotel.city]?.city ?? offer.hotel.city;
    const rule = cap.city ? `caps ${cap.city} at` : 'caps hotels at';
    reasons.push(`${formatMoney(nightly, offer.price.currency)} a night in ${where}: the policy ${rule} ${formatMoney(cap.amount, policy.currency)} a night`);
  }
  return verdict(policy, reasons);
}

function checkPlace(errors: FieldErrors, field: string, code: string, what: string): void {
  if (!AIRPORTS[code]) errors[field] = `${field} is not a known ${what} code: ${code}`;
}

function checkDay(errors: FieldErrors, field: string, date: string, today: string): void {
  if (date < today) errors[field] = `${field} must not be in the past (today is ${today} there)`;
  else if (daysBetween(today, date) > MAX_DAYS_AHEAD) errors[field] = `${field} must be within ${MAX_DAYS_AHEAD} days from today`;
}

/** A flight search's checks beyond zod: known airports, not the same, dates not past, the return not before departure. */
export function checkFlightSearch(q: { origin: string; destination: string; depart_date: string; return_date?: string | undefined }, now: Date): FieldErrors {
  const errors: FieldErrors = {};
  checkPlace(errors, 'origin', q.origin, 'airport');
  checkPlace(errors, 'destination', q.destination, 'airport');
  if (!errors.destination && q.origin === q.destination) errors.destination = 'destination must differ from origin';
  const from = AIRPORTS[q.origin];
  if (!from) return errors;
  checkDay(errors, 'depart_date', q.depart_date, localToday(from.tz, now));
  if (q.return_date !== undefined && q.return_date < q.depart_date) errors.return_date = 'return_date must be on or after depart_date';
  else if (q.return_date !== undefined) checkDay(errors, 'return_date', q.return_date, localToday(from.tz, now));
  return errors;
}

/** A hotel search's checks beyond zod: a known city, check-in not past, check-out after it, at most 30 nights. */
export function checkHotelSearch(q: { city: string; check_in: string; check_out: string }, now: Date): FieldErrors {
  const errors: FieldErrors = {};
  checkPlace(errors, 'city', q.city, 'city (airport)');
  const place = AIRPORTS[q.city];
  if (!place) return errors;
  checkDay(errors, 'check_in', q.check_in, localToday(place.tz, now));
  const nights = daysBetween(q.check_in, q.check_out);
  if (nights <= 0) errors.check_out = 'check_out must be after check_in';
  else if (nights > MAX_HOTEL_NIGHTS) errors.check_out = `a stay must be at most ${MAX_HOTEL_NIGHTS} nights`;
  return errors;
}
