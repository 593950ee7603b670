import type { z } from 'zod';
import {
  flightSearchBodySchema, hotelSearchBodySchema, MAX_PASSENGERS, type FlightOffer, type FlightSearchBody, type HotelOffer, type HotelSearchBody,
} from '../../../schema/api/calls-travel.ts';
import type { Cabin } from '../../../schema/entities/trip.ts';
import { validationMessages } from '../../../schema/errors.ts';
import type { PillTone } from '../../components/status-pill.tsx';
import { formatMoney } from '../../lib/format.ts';
import { CABIN_LABELS, durationText, flightNumber, localTime, routeText } from '../../lib/trip-labels.ts';

/**
 * The Book page's search forms and result rows, pure: form values → the search call's body
 * (checked with the call's own schema, plus the rules across fields the form can tell), an
 * offer's policy badge and reasons, its expiry, and the confirmation's words. Tested.
 */
export type Offer = FlightOffer | HotelOffer;

export interface PolicyBadge {
  label: 'In policy' | 'Needs approval' | 'Not allowed';
  tone: PillTone;
  /** What booking it does: the confirmation's words. */
  outcome: string;
}

export function policyBadge(o: Pick<Offer, 'in_policy' | 'blocked'>): PolicyBadge {
  if (o.in_policy) return { label: 'In policy', tone: 'ok', outcome: 'In policy: it is booked at once.' };
  if (o.blocked) return { label: 'Not allowed', tone: 'danger', outcome: 'Out of policy: the travel policy does not allow booking it.' };
  return { label: 'Needs approval', tone: 'warn', outcome: 'Out of policy: it is booked once your approver approves it. Nothing is charged until then.' };
}

/** "Expires in 12 min", "Expired" — offers live 30 minutes after the search that made them. */
export function expiryText(expiresAt: string, now: number): { text: string; expired: boolean } {
  const ms = Date.parse(expiresAt) - now;
  if (ms <= 0) return { text: 'Expired: search again', expired: true };
  const min = Math.ceil(ms / 60_000);
  return { text: `Expires in ${min} min`, expired: false };
}

/** "TP 1234 · 08:05 SFO → 16:40 LIS · 11 h 35 m · nonstop" per journey (outbound, then return). */
export function flightLines(o: Pick<FlightOffer, 'segments'>): string[] {
  const legs = o.segments;
  const lines: string[] = [];
  let start = 0;
  for (let i = 1; i <= legs.length; i += 1) {
    // A journey ends where the next leg leaves from somewhere else than this one landed, or more than a day later.
    const prev = legs[i - 1]!;
    const next = legs[i];
    const breaks = !next || next.origin !== prev.destination || Date.parse(next.departs_at) - Date.parse(prev.arrives_at) > 24 * 3_600_000;
    if (!breaks) continue;
    const journey = legs.slice(start, i);
    const first = journey[0]!;
    const last = journey[journey.length - 1]!;
    const minutes = Math.round((Date.parse(last.arrives_at) - Date.parse(first.departs_at)) / 60_000);
    const stops = journey.length - 1;
    lines.push(
      `${journey.map(flightNumber).join(', ')} · ${localTime(first.departs_at)} ${first.origin} → ${localTime(last.arrives_at)} ${last.destination}` +
        ` · ${durationText(minutes)} · ${stops === 0 ? 'nonstop' : `${stops} ${stops === 1 ? 'stop' : 'stops'}`}`,
    );
    start = i;
  }
  return lines;
}

/** What the confirmation dialog names: what, price, the card, the policy outcome. */
export function offerTitle(o: Offer): string {
  if (o.kind === 'HOTEL') return `${o.hotel.name} · ${o.hotel.nights} ${o.hotel.nights === 1 ? 'night' : 'nights'}`;
  return `${o.segments[0]!.airline_name} · ${routeText(o.segments)} · ${CABIN_LABELS[o.cabin]}`;
}

export function offerPrice(o: Offer): string {
  const total = formatMoney(o.price.amount, o.price.currency);
  if (o.kind === 'HOTEL') return `${total} (${formatMoney(o.hotel.nightly.amount, o.hotel.nightly.currency)} a night)`;
  return o.passengers > 1 ? `${total} for ${o.passengers} passengers` : total;
}

export interface FlightSearchValues {
  origin: string;
  destination: string;
  depart_date: string;
  return_date: string;
  cabin: Cabin | '';
  passengers: string;
}
export interface HotelSearchValues {
  city: string;
  check_in: string;
  check_out: string;
}
export type SearchErrors<V> = Partial<Record<keyof V, string>>;
type Built<B, V> = { ok: true; body: B } | { ok: false; errors: SearchErrors<V> };

function fieldErrors<V>(error: z.ZodError, input: unknown, labels: Record<string, string>): SearchErrors<V> {
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(validationMessages(error, input))) {
    const field = path.split('.')[0]!;
    out[field] ??= message.replaceAll(field, (labels[field] ?? field).toLowerCase()).replace(/^./, (c) => c.toUpperCase());
  }
  return out as SearchErrors<V>;
}

const FLIGHT_LABELS = { origin: 'From', destination: 'To', depart_date: 'Depart', return_date: 'Return', cabin: 'Cabin', passengers: 'Passengers' };

export function flightSearchBody(v: FlightSearchValues, today: string, tripId?: string): Built<FlightSearchBody, FlightSearchValues> {
  const passengers = Number(v.passengers);
  const input = {
    origin: v.origin, destination: v.destination, depart_date: v.depart_date,
    ...(v.return_date ? { return_date: v.return_date } : {}),
    ...(v.cabin ? { cabin: v.cabin } : {}),
    passengers: Number.isInteger(passengers) ? passengers : v.passengers,
    ...(tripId ? { trip_id: tripId } : {}),
  };
  const parsed = flightSearchBodySchema.safeParse(input);
  const errors: SearchErrors<FlightSearchValues> = parsed.success ? {} : fieldErrors(parsed.error as z.ZodError, input, FLIGHT_LABELS);
  if (!v.origin) errors.origin = 'Pick an airport from the list.';
  if (!v.destination) errors.destination = 'Pick an airport from the list.';
  if (v.origin && v.origin === v.destination) errors.destination = 'From and To are the same airport.';
  if (v.depart_date && v.depart_date < today) errors.depart_date ??= 'The departure is in the past.';
  if (v.return_date && v.depart_date && v.return_date < v.depart_date) errors.return_date ??= 'The return is before the departure.';
  if (Number.isInteger(passengers) && (passengers < 1 || passengers > MAX_PASSENGERS)) errors.passengers = `From 1 to ${MAX_PASSENGERS} passengers.`;
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, body: parsed.data };
}

export function hotelSearchBody(v: HotelSearchValues, today: string, tripId?: string): Built<HotelSearchBody, HotelSearchValues> {
  const input = { city: v.city, check_in: v.check_in, check_out: v.check_out, ...(tripId ? { trip_id: tripId } : {}) };
  const parsed = hotelSearchBodySchema.safeParse(input);
  const errors: SearchErrors<HotelSearchValues> = parsed.success ? {} : fieldErrors(parsed.error as z.ZodError, input, { city: 'City', check_in: 'Check-in', check_out: 'Check-out' });
  if (!v.city) errors.city = 'Pick a city from the list.';
  if (v.check_in && v.check_in < today) errors.check_in ??= 'Check-in is in the past.';
  if (v.check_in && v.check_out && v.check_out <= v.check_in) errors.check_out ??= 'Check-out must be after check-in.';
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, body: parsed.data };
}

/** The results as shown: cheapest first (the server's order, kept if it ever differs). */
export const byPrice = <O extends Offer>(offers: readonly O[]): O[] =>
  [...offers].sort((a, b) => a.price.amount - b.price.amount || (a.offer_id < b.offer_id ? -1 : 1));
