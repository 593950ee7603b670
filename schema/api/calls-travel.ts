import { z } from 'zod';
import { defineCall } from './define-call.ts';
import {
  bookingSchema, cabinSchema, flightSegmentSchema, hotelStaySchema, iataCodeSchema, moneySchema, tripFilterSchema, tripSchema,
} from '../entities/trip.ts';
import { pageQuerySchema, paginatedSchema } from '../paging.ts';
import {
  travelPolicySchema, travelSettingsSchema, travelerProfileBodySchema, travelerProfileSchema,
} from '../travel-policy.ts';
import { travelRewardSchema } from '../travel-rewards.ts';

/**
 * Issue 27, travel and booking (§7 "Travel and booking"): trips (mirrored, collection `trips`),
 * their spend events, flight and hotel search over the server's generated inventory, booking
 * requests (charged once to the trip's virtual card; out of policy → the approvals inbox), the
 * travel policy and settings (admins) and the traveller's profile (sensitive: after step-up).
 *
 * Trips and spend links are commands (offline); search and booking are online only.
 */
const scopes = { scopes: ['default'] } as const;
const sensitive = { scopes: ['sensitive'] } as const;
const isoDate = z.iso.date();
const text = (max: number) => z.string().trim().max(max);
const tripParams = z.object({ trip_id: z.uuid() });

export const tripCreateBodySchema = z.object({
  /** Client-generated id (offline create, like claims): a repeat with the caller's own id answers that trip. */
  id: z.uuid().optional(),
  name: text(200).min(1),
  destination: iataCodeSchema,
  start_date: isoDate,
  end_date: isoDate,
  purpose: text(2000).nullable().optional(),
  /** Minor units of the business currency; omitted = the settings' default budget. */
  budget: z.number().int().positive().nullable().optional(),
});
export type TripCreateBody = z.infer<typeof tripCreateBodySchema>;

export const tripPatchSchema = z.object({
  name: text(200).min(1).optional(),
  destination: iataCodeSchema.optional(),
  start_date: isoDate.optional(),
  end_date: isoDate.optional(),
  purpose: text(2000).nullable().optional(),
  budget: z.number().int().positive().nullable().optional(),
  /** true: cancel the trip (its live bookings must be canceled first). */
  canceled: z.literal(true).optional(),
});
export type TripPatch = z.infer<typeof tripPatchSchema>;

/** Links (PUT) or unlinks (DELETE) card transactions and claims; ids already in that state are no-ops. */
export const spendEventsBodySchema = z.object({
  transaction_ids: z.array(z.uuid()).max(500).default([]),
  reimbursement_ids: z.array(z.uuid()).max(500).default([]),
});
export type SpendEventsBody = z.infer<typeof spendEventsBodySchema>;

export const createTrip = defineCall({
  id: 'travel.trips.create',
  method: 'POST',
  path: '/v1/auth/travel/trips',
  auth: scopes,
  body: tripCreateBodySchema,
  response: tripSchema,
});

export const getTrip = defineCall({
  id: 'travel.trips.get',
  method: 'GET',
  path: '/v1/auth/travel/trips/:trip_id',
  auth: scopes,
  params: tripParams,
  response: tripSchema,
});

/** Keyset list, latest start first (§7 paging). */
export const listTrips = defineCall({
  id: 'travel.trips.list',
  method: 'GET',
  path: '/v1/auth/travel/trips',
  auth: scopes,
  retry: 'paged',
  query: pageQuerySchema.extend(tripFilterSchema.shape),
  response: paginatedSchema(tripSchema),
});

export const patchTrip = defineCall({
  id: 'travel.trips.patch',
  method: 'PATCH',
  path: '/v1/auth/travel/trips/:trip_id',
  auth: scopes,
  params: tripParams,
  body: tripPatchSchema,
  response: tripSchema,
});

/** Only a trip with no bookings left (every booking canceled or rejected). */
export const deleteTrip = defineCall({
  id: 'travel.trips.delete',
  method: 'DELETE',
  path: '/v1/auth/travel/trips/:trip_id',
  auth: scopes,
  params: tripParams,
  response: z.object({ id: z.uuid(), deleted: z.literal(true), change_seq: z.number().int() }),
});

export const linkTripSpend = defineCall({
  id: 'travel.trips.linkSpend',
  method: 'PUT',
  path: '/v1/auth/travel/trips/:trip_id/spend-events',
  auth: scopes,
  params: tripParams,
  body: spendEventsBodySchema,
  response: tripSchema,
});

export const unlinkTripSpend = defineCall({
  id: 'travel.trips.unlinkSpend',
  method: 'DELETE',
  path: '/v1/auth/travel/trips/:trip_id/spend-events',
  auth: scopes,
  params: tripParams,
  body: spendEventsBodySchema,
  response: tripSchema,
});

// ---- Search and booking (online only) ----

/** Offers expire this long after the search that made them (422 naming the offer after). */
export const OFFER_TTL_MINUTES = 30;
export const MAX_PASSENGERS = 9;

export const flightSearchBodySchema = z.object({
  origin: iataCodeSchema,
  destination: iataCodeSchema,
  depart_date: isoDate,
  return_date: isoDate.optional(),
  cabin: cabinSchema.optional(),
  passengers: z.number().int().min(1).max(MAX_PASSENGERS).default(1),
  /** Evaluate the policy for this trip's traveller (admins booking for someone); default: the caller. */
  trip_id: z.uuid().optional(),
});
export type FlightSearchBody = z.infer<typeof flightSearchBodySchema>;

export const hotelSearchBodySchema = z.object({
  city: iataCodeSchema,
  check_in: isoDate,
  check_out: isoDate,
  trip_id: z.uuid().optional(),
});
export type HotelSearchBody = z.infer<typeof hotelSearchBodySchema>;

const offerCommon = {
  offer_id: z.uuid(),
  /** Total for all passengers / all nights, in the offer's currency. */
  price: moneySchema,
  in_policy: z.boolean(),
  /** Why it is out of policy, in words ("Business cabin on a 2 h 05 m flight: the policy allows Economy under 6 h"); empty when in policy. */
  policy_reasons: z.array(z.string()),
  /** True when booking it out of policy is refused outright (the policy blocks rather than asks). */
  blocked: z.boolean(),
  expires_at: z.iso.datetime({ offset: true }),
};
export const flightOfferSchema = z.object({
  ...offerCommon,
  kind: z.literal('FLIGHT'),
  cabin: cabinSchema,
  passengers: z.number().int(),
  /** The outbound legs, then the return legs. */
  segments: z.array(flightSegmentSchema).min(1),
  stops: z.number().int().min(0),
});
export type FlightOffer = z.infer<typeof flightOfferSchema>;
export const hotelOfferSchema = z.object({
  ...offerCommon,
  kind: z.literal('HOTEL'),
  hotel: hotelStaySchema,
});
export type HotelOffer = z.infer<typeof hotelOfferSchema>;

/** Sorted by price, cheapest first. */
export const searchFlights = defineCall({
  id: 'booking.flights.search',
  method: 'POST',
  path: '/v1/auth/booking/flights/search',
  auth: scopes,
  body: flightSearchBodySchema,
  response: z.object({ data: z.array(flightOfferSchema) }),
});

export const searchHotels = defineCall({
  id: 'booking.hotels.search',
  method: 'POST',
  path: '/v1/auth/booking/hotels/search',
  auth: scopes,
  body: hotelSearchBodySchema,
  response: z.object({ data: z.array(hotelOfferSchema) }),
});

const bookingRequestBodySchema = z.object({ trip_id: z.uuid(), offer_id: z.uuid() });
/**
 * A booking request's answer: the booking, its trip as it now is, and the travel reward the
 * booking earned (null: none; schema/travel-rewards.ts).
 */
export const bookingAnswerSchema = bookingSchema.extend({ trip: tripSchema, change_seq: z.number().int(), reward: travelRewardSchema.nullable().optional() });

/**
 * In policy: BOOKED at once, charged once to the trip's virtual card. Out of policy:
 * PENDING_APPROVAL (a `travel_booking` approval), or 422 when the policy blocks. Idempotent by
 * Idempotency-Key, and one live booking per (trip, offer) whatever the key.
 */
export const createBookingRequest = defineCall({
  id: 'booking.requests.create',
  method: 'POST',
  path: '/v1/auth/booking/requests',
  auth: scopes,
  body: bookingRequestBodySchema,
  response: bookingAnswerSchema,
});

const bookingParams = z.object({ booking_id: z.uuid() });
export const getBookingRequest = defineCall({
  id: 'booking.requests.get',
  method: 'GET',
  path: '/v1/auth/booking/requests/:booking_id',
  auth: scopes,
  params: bookingParams,
  response: bookingAnswerSchema,
});

/** BOOKED or PENDING_APPROVAL → CANCELED; a charged booking is refunded on the same card. */
export const cancelBookingRequest = defineCall({
  id: 'booking.requests.cancel',
  method: 'POST',
  path: '/v1/auth/booking/requests/:booking_id/cancel',
  auth: scopes,
  params: bookingParams,
  body: z.object({}).optional(),
  response: bookingAnswerSchema,
});

// ---- Policy, settings, profile ----

export const getTravelPolicy = defineCall({
  id: 'travel.policy.get',
  method: 'GET',
  path: '/v1/auth/travel/policy',
  auth: scopes,
  response: z.object({ policy: travelPolicySchema, is_default: z.boolean() }),
});

export const putTravelPolicy = defineCall({
  id: 'travel.policy.put',
  method: 'PUT',
  path: '/v1/auth/travel/policy',
  auth: scopes,
  body: travelPolicySchema,
  response: z.object({ policy: travelPolicySchema, is_default: z.boolean() }),
});

/** Back to the default policy (DEFAULT_TRAVEL_POLICY at the fixed rates in the business currency). */
export const deleteTravelPolicy = defineCall({
  id: 'travel.policy.delete',
  method: 'DELETE',
  path: '/v1/auth/travel/policy',
  auth: scopes,
  response: z.object({ policy: travelPolicySchema, is_default: z.literal(true) }),
});

export const getTravelSettings = defineCall({
  id: 'travel.settings.get',
  method: 'GET',
  path: '/v1/auth/travel/settings',
  auth: scopes,
  response: travelSettingsSchema,
});

export const putTravelSettings = defineCall({
  id: 'travel.settings.put',
  method: 'PUT',
  path: '/v1/auth/travel/settings',
  auth: scopes,
  body: travelSettingsSchema,
  response: travelSettingsSchema,
});

export const getTravelerProfile = defineCall({
  id: 'travel.profile.get',
  method: 'GET',
  path: '/v1/auth/travel/profile',
  auth: scopes,
  response: z.object({ profile: travelerProfileSchema.nullable() }),
});

export const putTravelerProfile = defineCall({
  id: 'travel.profile.put',
  method: 'PUT',
  path: '/v1/auth/travel/profile',
  auth: sensitive,
  body: travelerProfileBodySchema,
  response: z.object({ profile: travelerProfileSchema }),
});

// ---- Travel rewards (schema/travel-rewards.ts; server/domain/travel/rewards.ts) ----

export const travelRewardsQuerySchema = pageQuerySchema.extend({
  /** Admins: this person's rewards (default: the caller's own). Anyone else may name only themselves. */
  user_id: z.uuid().optional(),
});

/** Newest first; `balances` sums the person's EARNED rewards per currency (all of them, not the page). */
export const listTravelRewards = defineCall({
  id: 'travel.rewards.list',
  method: 'GET',
  path: '/v1/auth/travel/travel-rewards',
  auth: scopes,
  retry: 'paged',
  query: travelRewardsQuerySchema,
  response: paginatedSchema(travelRewardSchema).extend({ balances: z.array(moneySchema) }),
});

/**
 * Admins void a reward (status VOIDED, reason "Voided by an admin": a DELETE has no body, §7); the
 * answer is the reward as it now is (200, not 204, so the list can show it at once). Voiding a
 * voided reward answers it unchanged.
 */
export const voidTravelReward = defineCall({
  id: 'travel.rewards.void',
  method: 'DELETE',
  path: '/v1/auth/travel/travel-rewards/:reward_id',
  auth: scopes,
  params: z.object({ reward_id: z.uuid() }),
  response: travelRewardSchema,
});

/** Registered with the server's trip handlers (server/domain/travel/trips*.ts). */
export const TRIP_CALLS = [
  createTrip, getTrip, listTrips, patchTrip, deleteTrip, linkTripSpend, unlinkTripSpend,
  getTravelPolicy, putTravelPolicy, deleteTravelPolicy, getTravelSettings, putTravelSettings,
  getTravelerProfile, putTravelerProfile, listTravelRewards, voidTravelReward,
] as const;
/** Registered with the server's booking handlers (server/domain/travel/booking*.ts). */
export const BOOKING_CALLS = [searchFlights, searchHotels, createBookingRequest, getBookingRequest, cancelBookingRequest] as const;

