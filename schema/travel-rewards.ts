import { z } from 'zod';
import { isoDateTime, uuid } from './entities/common.ts';
import { bookingSchema, cabinSchema, moneySchema, type Booking, type Cabin, type Money } from './entities/trip.ts';
import { evaluateFlightOffer, evaluateHotelOffer, hotelCap } from './travel-booking-rules.ts';
import type { TravelPolicy, TravelSettings } from './travel-policy.ts';

/**
 * Issue 27, travel rewards (what Navan and TravelPerk call savings rewards): a traveller who books
 * a flight or hotel in policy BELOW the policy's cap earns a share of what they saved the business,
 * when an admin has turned rewards on in the travel settings (`rewards.share_percent`, default 50).
 *
 * The cap is the policy's: a flight's fare cap of its cabin × passengers (the policy caps each
 * traveller's fare), a hotel's nightly cap of its city (else the default) × nights. A cap in
 * another currency than the booking's, a cabin with no cap, a booking out of policy: no reward.
 * The booking is judged when it becomes BOOKED, by the policy in force then: at once for an
 * in-policy request; on approval, an out-of-policy request earns only if today's policy (changed
 * meanwhile) takes it in. Amount = round(share × (cap − price)), integer minor units; nothing
 * when it rounds to zero. A canceled booking's reward is VOIDED (so is one an admin voids).
 */
export const TRAVEL_REWARD_STATUSES = ['EARNED', 'VOIDED'] as const;
export type TravelRewardStatus = (typeof TRAVEL_REWARD_STATUSES)[number];

export const travelRewardSchema = z.object({
  id: uuid,
  /** The traveller: the trip's owner. */
  user_id: uuid,
  trip_id: uuid,
  trip_name: z.string(),
  booking_id: uuid,
  /** What was booked, as the booking shows it (src/lib/trip-labels.ts `bookingSummary` words it). */
  booking: bookingSchema.pick({ kind: true, status: true, segments: true, hotel: true, price: true, confirmation_code: true }),
  amount: moneySchema,
  /** The cap the booking came under, its price, and the share of the difference that was earned. */
  cap: moneySchema,
  price: moneySchema,
  share_percent: z.number().int().min(0).max(100),
  status: z.enum(TRAVEL_REWARD_STATUSES),
  earned_at: isoDateTime,
  voided_at: isoDateTime.nullable(),
  void_reason: z.string().nullable(),
});
export type TravelReward = z.infer<typeof travelRewardSchema>;

/** The facts of a booking the reward reads (the booking doc, with the offer's passengers). */
export type RewardBookingFacts = Pick<Booking, 'kind' | 'price' | 'segments' | 'hotel'> & { cabin?: Cabin | undefined; passengers?: number | undefined };

export type RewardDecision = { cap: Money; amount: number; share_percent: number } | { none: string };

/** The policy's cap for this booking (same currency as the policy), or why there is none. */
export function rewardCap(policy: TravelPolicy, b: RewardBookingFacts): Money | { none: string } {
  if (b.kind === 'HOTEL') {
    if (!b.hotel) return { none: 'no stay' };
    return { amount: hotelCap(policy, b.hotel.city).amount * b.hotel.nights, currency: policy.currency };
  }
  const cabin = b.cabin ?? b.segments[0]?.cabin;
  if (!cabin || !cabinSchema.safeParse(cabin).success) return { none: 'no cabin' };
  const perTraveller = policy.flight_fare_caps[cabin];
  if (perTraveller === null) return { none: `no fare cap for ${cabin}` };
  return { amount: perTraveller * Math.max(1, b.passengers ?? 1), currency: policy.currency };
}

/**
 * Whether a booking that has just become BOOKED earns a reward, and how much. `today` is the
 * place's calendar day (the policy's minimum days ahead reads it), as the booking rules take it.
 */
export function rewardFor(policy: TravelPolicy, settings: Pick<TravelSettings, 'rewards'>, b: RewardBookingFacts, today: string): RewardDecision {
  if (!settings.rewards.enabled) return { none: 'rewards are off' };
  const cap = rewardCap(policy, b);
  if ('none' in cap) return cap;
  if (cap.currency !== b.price.currency) return { none: `the cap is in ${cap.currency}, the booking in ${b.price.currency}` };
  const verdict = b.kind === 'HOTEL'
    ? evaluateHotelOffer(policy, { price: b.price, hotel: b.hotel! }, today)
    : evaluateFlightOffer(policy, { cabin: (b.cabin ?? b.segments[0]!.cabin), passengers: b.passengers ?? 1, price: b.price, segments: b.segments }, today);
  if (!verdict.in_policy) return { none: 'out of policy' };
  const saved = cap.amount - b.price.amount;
  if (saved <= 0) return { none: 'not below the cap' };
  const amount = Math.round((settings.rewards.share_percent * saved) / 100);
  if (amount <= 0) return { none: 'the share rounds to nothing' };
  return { cap, amount, share_percent: settings.rewards.share_percent };
}
