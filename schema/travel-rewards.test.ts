import { describe, expect, it } from 'vitest';
import type { FlightSegment, HotelStay } from './entities/trip.ts';
import { DEFAULT_TRAVEL_POLICY, type TravelPolicy } from './travel-policy.ts';
import { rewardFor, type RewardBookingFacts } from './travel-rewards.ts';

const ON = { rewards: { enabled: true, share_percent: 50 } };
const TODAY = '2026-12-01';
const leg: FlightSegment = {
  airline_code: 'UA', airline_name: 'United', flight_number: 'UA 100', origin: 'SFO', destination: 'JFK',
  departs_at: '2026-12-20T08:00:00-08:00', arrives_at: '2026-12-20T16:30:00-05:00', duration_minutes: 330, cabin: 'ECONOMY',
};
const stay: HotelStay = {
  hotel_id: 'h1', name: 'Harbor Inn', city: 'JFK', address: '1 Main St', stars: 3, check_in: '2026-12-20', check_out: '2026-12-23',
  nights: 3, nightly: { amount: 30_000, currency: 'USD' }, check_in_time: '15:00',
};
const flight = (amount: number, over: Partial<RewardBookingFacts> = {}): RewardBookingFacts => ({
  kind: 'FLIGHT', price: { amount, currency: 'USD' }, segments: [leg], hotel: null, cabin: 'ECONOMY', passengers: 1, ...over,
});
const hotel = (nightly: number): RewardBookingFacts => ({
  kind: 'HOTEL', price: { amount: nightly * 3, currency: 'USD' }, segments: [], hotel: { ...stay, nightly: { amount: nightly, currency: 'USD' } },
});
const policy = (over: Partial<TravelPolicy> = {}): TravelPolicy => ({ ...DEFAULT_TRAVEL_POLICY, ...over });

describe('rewardFor', () => {
  const cases: [string, TravelPolicy, typeof ON, RewardBookingFacts, ReturnType<typeof rewardFor>][] = [
    ['economy below the cap: half the savings', policy(), ON, flight(50_000), { cap: { amount: 80_000, currency: 'USD' }, amount: 15_000, share_percent: 50 }],
    ['the share rounds half up', policy(), ON, flight(79_999), { cap: { amount: 80_000, currency: 'USD' }, amount: 1, share_percent: 50 }],
    ['the cap counts every passenger', policy(), ON, flight(100_000, { passengers: 2 }), { cap: { amount: 160_000, currency: 'USD' }, amount: 30_000, share_percent: 50 }],
    ['at the cap: nothing', policy(), ON, flight(80_000), { none: 'not below the cap' }],
    ['above the cap: out of policy', policy(), ON, flight(80_001), { none: 'out of policy' }],
    ['rewards off', policy(), { rewards: { enabled: false, share_percent: 50 } }, flight(50_000), { none: 'rewards are off' }],
    ['a share of 0 %', policy(), { rewards: { enabled: true, share_percent: 0 } }, flight(50_000), { none: 'the share rounds to nothing' }],
    ['a cabin with no cap', policy({ cabin_by_duration: [{ min_duration_minutes: 0, max_cabin: 'FIRST' }] }), ON,
      flight(50_000, { cabin: 'FIRST', segments: [{ ...leg, cabin: 'FIRST' }] }), { none: 'no fare cap for FIRST' }],
    ['a cabin the policy does not allow', policy(), ON, flight(50_000, { cabin: 'BUSINESS', segments: [{ ...leg, cabin: 'BUSINESS' }] }), { none: 'out of policy' }],
    ['the cap in another currency', policy({ currency: 'EUR' }), ON, flight(50_000), { none: 'the cap is in EUR, the booking in USD' }],
    ['booked too late for the policy', policy({ min_advance_days: 30 }), ON, flight(50_000), { none: 'out of policy' }],
    ['a hotel: the city cap × nights', policy(), ON, hotel(30_000), { cap: { amount: 105_000, currency: 'USD' }, amount: 7_500, share_percent: 50 }],
    ['a hotel at its nightly cap', policy(), ON, hotel(35_000), { none: 'not below the cap' }],
  ];
  it.each(cases)('%s', (_name, p, settings, booking, expected) => {
    expect(rewardFor(p, settings, booking, TODAY)).toEqual(expected);
  });

  it('reads the cabin from the legs when the offer did not name it', () => {
    expect(rewardFor(policy(), ON, flight(60_000, { cabin: undefined, passengers: undefined }), TODAY)).toMatchObject({ amount: 10_000 });
  });
});
