import { randomUUID } from 'node:crypto';
import {
  OFFER_TTL_MINUTES, type FlightOffer, type FlightSearchBody, type HotelOffer, type HotelSearchBody,
} from '../../../schema/api/calls-travel.ts';
import { checkFlightSearch, checkHotelSearch, evaluateFlightOffer, evaluateHotelOffer, localToday, type PolicyVerdict } from '../../../schema/travel-booking-rules.ts';
import type { TravelPolicy, TravelSettings } from '../../../schema/travel-policy.ts';
import { AIRPORTS } from '../../../schema/travel/airports.ts';
import { inventoryCurrency } from '../../../schema/travel/fx-rates.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError, validationError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { searchFlightInventory, searchHotelInventory } from './inventory.ts';
import { tripForBooking } from './trip-access.ts';
import { travelPolicyOf, travelSettingsOf } from './settings.ts';

/**
 * Issue 27: flight and hotel search. The inventory (inventory.ts) answers; each offer is stamped
 * with the business's travel policy (travel_policies, else DEFAULT_TRAVEL_POLICY) and stored in
 * `travel_offers` for OFFER_TTL_MINUTES under the searching user, so a booking names one by id
 * and books exactly what was shown. The travel settings (travel_settings, else the defaults)
 * switch flights and hotels off (TRAVEL_7004). A search also drops the caller's offers that
 * expired a day ago and were never booked (a booking keeps its offer: the foreign key).
 */

export function assertEnabled(settings: TravelSettings, kind: 'FLIGHT' | 'HOTEL'): void {
  if (kind === 'FLIGHT' && !settings.flights_enabled) throw new ApiError('TRAVEL_7004', 'Flight booking is turned off for this business. An admin can turn it on in Travel settings.');
  if (kind === 'HOTEL' && !settings.hotels_enabled) throw new ApiError('TRAVEL_7004', 'Hotel booking is turned off for this business. An admin can turn it on in Travel settings.');
}

type Priced = { price: { amount: number; currency: string }; verdict: PolicyVerdict; payload: Record<string, unknown> };

/** Stores the offers of one search (one statement) and answers their ids and expiry. */
async function storeOffers(db: Queryable, user: ActingUser, kind: 'FLIGHT' | 'HOTEL', offers: readonly Priced[], now: Date) {
  const expires = new Date(now.getTime() + OFFER_TTL_MINUTES * 60_000).toISOString();
  const ids = offers.map(() => randomUUID());
  await db.query(
    `DELETE FROM travel_offers o WHERE o.business_id = $1 AND o.user_id = $2 AND o.expires_at < $3::timestamptz - interval '1 day'
        AND NOT EXISTS (SELECT 1 FROM travel_bookings b WHERE b.business_id = o.business_id AND b.offer_id = o.id)`,
    [user.business_id, user.id, now.toISOString()],
  );
  if (offers.length > 0) {
    await db.query(
      `INSERT INTO travel_offers (id, business_id, user_id, kind, price_amount, currency, in_policy, policy_reasons, blocked, payload, created_at, expires_at)
       SELECT u.id, $1, $2, $3, u.amount, u.currency, u.in_policy, u.reasons::jsonb, u.blocked, u.payload::jsonb, $4, $5
         FROM unnest($6::uuid[], $7::int8[], $8::text[], $9::bool[], $10::text[], $11::bool[], $12::text[])
           AS u(id, amount, currency, in_policy, reasons, blocked, payload)`,
      [
        user.business_id, user.id, kind, now.toISOString(), expires, ids,
        offers.map((o) => o.price.amount), offers.map((o) => o.price.currency), offers.map((o) => o.verdict.in_policy),
        offers.map((o) => JSON.stringify(o.verdict.reasons)), offers.map((o) => o.verdict.blocked), offers.map((o) => JSON.stringify(o.payload)),
      ],
    );
  }
  return offers.map((o, i) => ({
    offer_id: ids[i]!, price: o.price, in_policy: o.verdict.in_policy, policy_reasons: o.verdict.reasons, blocked: o.verdict.blocked, expires_at: expires,
  }));
}

/**
 * What both searches check before the inventory: the input (422 naming the field), the kind
 * switched on, the optional `trip_id` a trip the caller may book on (else 404 / 403 like a
 * booking); then the policy to stamp the offers with, and the currency to price in: the
 * business's (schema/travel/fx-rates.ts), as the traveller pays and the policy caps it.
 */
async function searchPolicy(
  db: Queryable, user: ActingUser, errors: Record<string, string>, kind: 'FLIGHT' | 'HOTEL', tripId: string | undefined,
): Promise<{ policy: TravelPolicy; currency: string }> {
  if (Object.keys(errors).length > 0) throw validationError(errors);
  assertEnabled(await travelSettingsOf(db, user.business_id), kind);
  if (tripId) await tripForBooking(db, user, tripId, false);
  const [business] = await db.query<{ currency: string }>('SELECT currency FROM businesses WHERE id = $1', [user.business_id]);
  return { policy: (await travelPolicyOf(db, user.business_id)).policy, currency: inventoryCurrency(business?.currency ?? 'USD') };
}

/** A flight leaving sooner than this after the search is not offered (it could not be boarded). */
const MIN_DEPARTURE_LEAD_MS = 2 * 60 * 60_000;

/** POST /booking/flights/search: the flights leaving two hours from now or later, cheapest first, each with its policy verdict. */
export async function searchFlights(db: Queryable, user: ActingUser, body: FlightSearchBody, now: Date): Promise<{ data: FlightOffer[] }> {
  const { policy, currency } = await searchPolicy(db, user, checkFlightSearch(body, now), 'FLIGHT', body.trip_id);
  const today = localToday(AIRPORTS[body.origin]!.tz, now);
  const flights = searchFlightInventory({ ...body, currency }).filter((f) => Date.parse(f.segments[0]!.departs_at) >= now.getTime() + MIN_DEPARTURE_LEAD_MS).map((f) => ({
    price: f.price, verdict: evaluateFlightOffer(policy, f, today),
    payload: { kind: 'FLIGHT', cabin: f.cabin, passengers: f.passengers, segments: f.segments, stops: f.stops },
  }));
  const stored = await storeOffers(db, user, 'FLIGHT', flights, now);
  return { data: stored.map((s, i) => ({ ...s, ...(flights[i]!.payload as Omit<FlightOffer, keyof typeof s>) })) };
}

/** POST /booking/hotels/search: the city's hotels for the stay, cheapest first, each with its policy verdict. */
export async function searchHotels(db: Queryable, user: ActingUser, body: HotelSearchBody, now: Date): Promise<{ data: HotelOffer[] }> {
  const { policy, currency } = await searchPolicy(db, user, checkHotelSearch(body, now), 'HOTEL', body.trip_id);
  const today = localToday(AIRPORTS[body.city]!.tz, now);
  const hotels = searchHotelInventory({ ...body, currency }).map((h) => ({
    price: h.price, verdict: evaluateHotelOffer(policy, h, today), payload: { kind: 'HOTEL', hotel: h.hotel },
  }));
  const stored = await storeOffers(db, user, 'HOTEL', hotels, now);
  return { data: stored.map((s, i) => ({ ...s, kind: 'HOTEL' as const, hotel: hotels[i]!.payload.hotel })) };
}
