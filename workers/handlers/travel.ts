import {
  cancelBookingRequest, createBookingRequest, deleteTravelPolicy, getTravelerProfile, getTravelPolicy, getTravelSettings, listTravelRewards,
  putTravelerProfile, putTravelPolicy, putTravelSettings, searchFlights, searchHotels, voidTravelReward,
  type FlightOffer, type FlightSearchBody, type HotelOffer, type HotelSearchBody,
} from '../../schema/api/calls-travel.ts';
import type { Booking, Trip } from '../../schema/entities/trip.ts';
import type { TravelerProfile, TravelerProfileBody, TravelPolicy, TravelSettings } from '../../schema/travel-policy.ts';
import type { TravelReward } from '../../schema/travel-rewards.ts';
import { bindDomain, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';

/** Refused before any request: searching and booking ask the server's inventory and move money. */
export const TRAVEL_OFFLINE = offlineFailure('You’re offline. Searching and booking need a connection: nothing was sent.');

const policy = (d: { policy: TravelPolicy; is_default: boolean }) => ({ policy: d.policy, is_default: d.is_default });
/** A booking request's answer as the UI takes it: the booking, and its trip as it now is. */
const booking = ({ trip, change_seq: _seq, ...rest }: Booking & { trip: Trip; change_seq: number }): { booking: Booking; trip: Trip } => ({ booking: rest, trip });

/**
 * Issue 27 (schema/api/calls-travel.ts): flight and hotel search, booking requests (the trip's
 * virtual card is charged once, or the request waits for approval), the travel policy and
 * settings (admins) and the traveller's profile (its PUT needs step-up). Direct calls, online
 * only; trips and their spend links are commands (schema/commands/trip.ts), offline.
 */
export const TRAVEL_CALLS = onlineDomain(TRAVEL_OFFLINE, {
  /** Offers cheapest first, each with its policy outcome and expiry. */
  searchFlights: via(searchFlights, (body: FlightSearchBody) => ({ body }), (d): { offers: FlightOffer[] } => ({ offers: d.data })),
  searchHotels: via(searchHotels, (body: HotelSearchBody) => ({ body }), (d): { offers: HotelOffer[] } => ({ offers: d.data })),
  /** One booking per key: the caller passes the same key when it asks again (a retried tap books once). */
  requestBooking: via(
    createBookingRequest,
    (trip_id: string, offer_id: string, idempotencyKey: string) => ({ body: { trip_id, offer_id }, idempotencyKey }),
    booking,
  ),
  cancelBooking: via(cancelBookingRequest, (booking_id: string) => ({ params: { booking_id }, body: {} }), booking),
  travelPolicy: via(getTravelPolicy, () => ({}), policy),
  saveTravelPolicy: via(putTravelPolicy, (body: TravelPolicy) => ({ body }), policy),
  resetTravelPolicy: via(deleteTravelPolicy, () => ({}), policy),
  travelSettings: via(getTravelSettings, () => ({}), (settings: TravelSettings) => ({ settings })),
  saveTravelSettings: via(putTravelSettings, (body: TravelSettings) => ({ body }), (settings: TravelSettings) => ({ settings })),
  travelerProfile: via(getTravelerProfile, () => ({}), (d: { profile: TravelerProfile | null }) => ({ profile: d.profile })),
  /** Sensitive scope: answers `step_up` until the person has confirmed it is them. */
  saveTravelerProfile: via(putTravelerProfile, (body: TravelerProfileBody) => ({ body }), (d: { profile: TravelerProfile }) => ({ profile: d.profile })),
  /** The signed-in person's travel rewards, a page from `start` (newest first), and their balance per currency. */
  travelRewards: via(listTravelRewards, (start?: string) => ({ query: start ? { start } : {} }), (d) => ({ rewards: d.data, balances: d.balances, next: d.page.next })),
  /** Admins: the reward VOIDED ("Voided by an admin"). */
  voidTravelReward: via(voidTravelReward, (reward_id: string) => ({ params: { reward_id } }), (reward: TravelReward) => ({ reward })),
});

export type TravelApi = OnlineApi<typeof TRAVEL_CALLS>;

export const travelHandlers = (port: OnlinePort): TravelApi => bindDomain(port, TRAVEL_CALLS);
