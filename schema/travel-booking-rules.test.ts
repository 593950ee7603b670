import { describe, expect, it } from 'vitest';
import {
  allowedCabin, checkFlightSearch, checkHotelSearch, evaluateFlightOffer, evaluateHotelOffer, formatDuration, hotelCap, localToday,
} from './travel-booking-rules.ts';
import { DEFAULT_TRAVEL_POLICY, type TravelPolicy } from './travel-policy.ts';
import type { Cabin } from './entities/trip.ts';

const policy: TravelPolicy = { ...DEFAULT_TRAVEL_POLICY, min_advance_days: 7 };
const flight = (cabin: Cabin, amount: number, minutes: number[], departs = '2026-12-20T08:00:00-08:00', passengers = 1, currency = 'USD') => ({
  cabin, passengers, price: { amount, currency }, segments: minutes.map((m) => ({ departs_at: departs, duration_minutes: m })),
});
const TODAY = '2026-12-01';

describe('evaluateFlightOffer', () => {
  it('passes an economy fare under the cap, booked ahead', () => {
    expect(evaluateFlightOffer(policy, flight('ECONOMY', 50_000, [125]), TODAY)).toEqual({ in_policy: true, reasons: [], blocked: false });
  });

  it('names the cabin, the longest leg and the rule', () => {
    const v = evaluateFlightOffer(policy, flight('BUSINESS', 100_000, [125]), TODAY);
    expect(v.in_policy).toBe(false);
    expect(v.reasons).toEqual(['Business cabin on a 2 h 05 m flight: the policy allows up to Economy under 6 h']);
  });

  it('reads the longest leg of a connection', () => {
    // 5 h + 6 h 30 m: premium economy allowed from 6 h.
    expect(evaluateFlightOffer(policy, flight('PREMIUM_ECONOMY', 100_000, [300, 390]), TODAY).in_policy).toBe(true);
    expect(evaluateFlightOffer(policy, flight('BUSINESS', 100_000, [300, 390]), TODAY).reasons[0])
      .toBe('Business cabin on a 6 h 30 m flight: the policy allows up to Premium economy under 10 h');
    expect(evaluateFlightOffer(policy, flight('FIRST', 100_000, [700]), TODAY).reasons[0])
      .toBe('First cabin on a 11 h 40 m flight: the policy allows up to Business from 10 h');
  });

  it('caps the fare per cabin and per traveller', () => {
    expect(evaluateFlightOffer(policy, flight('ECONOMY', 80_000, [100]), TODAY).in_policy).toBe(true);
    expect(evaluateFlightOffer(policy, flight('ECONOMY', 80_100, [100]), TODAY).reasons)
      .toEqual(['Economy fare of $801.00 per traveller: the policy caps Economy at $800.00']);
    // Two travellers at $700 each: within the cap.
    expect(evaluateFlightOffer(policy, flight('ECONOMY', 140_000, [100], undefined, 2), TODAY).in_policy).toBe(true);
    // FIRST has no cap (null) in the default policy: only the cabin rule speaks.
    expect(evaluateFlightOffer(policy, flight('FIRST', 9_000_000, [700]), TODAY).reasons).toHaveLength(1);
  });

  it('asks for the minimum days ahead, counted to the local departure date', () => {
    const v = evaluateFlightOffer(policy, flight('ECONOMY', 10_000, [100], '2026-12-04T23:30:00-08:00'), TODAY);
    expect(v.reasons).toEqual(['Booked 3 days before departure: the policy asks for at least 7 days']);
    expect(evaluateFlightOffer(policy, flight('ECONOMY', 10_000, [100], '2026-12-08T06:00:00+09:00'), TODAY).in_policy).toBe(true);
    expect(evaluateFlightOffer(policy, flight('ECONOMY', 10_000, [100], '2026-12-02T06:00:00Z'), TODAY).reasons[0]).toContain('Booked 1 day before');
  });

  it('refuses another currency without comparing its amounts', () => {
    expect(evaluateFlightOffer(policy, flight('ECONOMY', 999_999, [100], undefined, 1, 'EUR'), TODAY).reasons)
      .toEqual(['Priced in EUR: the policy caps USD']);
  });

  it('is blocked only when the policy blocks', () => {
    const block = { ...policy, out_of_policy: 'BLOCK' as const };
    expect(evaluateFlightOffer(block, flight('BUSINESS', 100_000, [125]), TODAY).blocked).toBe(true);
    expect(evaluateFlightOffer(block, flight('ECONOMY', 10_000, [125]), TODAY).blocked).toBe(false);
    expect(evaluateFlightOffer(policy, flight('BUSINESS', 100_000, [125]), TODAY).blocked).toBe(false);
  });

  it('collects every reason at once', () => {
    const v = evaluateFlightOffer(policy, flight('BUSINESS', 700_000, [125], '2026-12-01T20:00:00-08:00'), TODAY);
    expect(v.reasons).toHaveLength(3);
  });
});

describe('allowedCabin / formatDuration', () => {
  it('picks the greatest threshold not above the duration, in any order', () => {
    const p = { ...policy, cabin_by_duration: [{ min_duration_minutes: 600, max_cabin: 'BUSINESS' as const }, { min_duration_minutes: 0, max_cabin: 'ECONOMY' as const }] };
    expect(allowedCabin(p, 599)).toEqual({ cabin: 'ECONOMY', from: 0, until: 600 });
    expect(allowedCabin(p, 600)).toEqual({ cabin: 'BUSINESS', from: 600, until: null });
    expect(formatDuration(125)).toBe('2 h 05 m');
    expect(formatDuration(360)).toBe('6 h');
  });
});

describe('evaluateHotelOffer', () => {
  const hotel = (city: string, nightly: number, nights = 2, currency = 'USD') => ({
    price: { amount: nightly * nights, currency }, hotel: { city, nightly: { amount: nightly, currency } },
  });
  it('uses the city cap, else the default', () => {
    expect(evaluateHotelOffer(policy, hotel('JFK', 35_000), TODAY).in_policy).toBe(true);
    expect(evaluateHotelOffer(policy, hotel('JFK', 35_100), TODAY).reasons)
      .toEqual(['$351.00 a night in New York: the policy caps New York at $350.00 a night']);
    expect(evaluateHotelOffer(policy, hotel('CDG', 25_100), TODAY).reasons)
      .toEqual(['$251.00 a night in Paris: the policy caps hotels at $250.00 a night']);
    expect(evaluateHotelOffer(policy, hotel('CDG', 25_000), TODAY).in_policy).toBe(true);
  });
  it('applies a city cap to every airport of that city', () => {
    expect(hotelCap(policy, 'LGA')).toEqual({ amount: 35_000, city: 'New York' });
    expect(hotelCap(policy, 'LGW')).toEqual({ amount: 30_000, city: 'London' });
    expect(hotelCap(policy, 'ORD')).toEqual({ amount: 25_000, city: null });
  });
  it('refuses another currency', () => {
    expect(evaluateHotelOffer(policy, hotel('CDG', 100, 1, 'EUR'), TODAY).reasons).toEqual(['Priced in EUR: the policy caps USD']);
  });
});

describe('search checks', () => {
  const now = new Date('2026-12-01T12:00:00Z');
  it('names unknown airports and equal ends', () => {
    expect(checkFlightSearch({ origin: 'XXX', destination: 'JFK', depart_date: '2026-12-10' }, now))
      .toEqual({ origin: 'origin is not a known airport code: XXX' });
    expect(checkFlightSearch({ origin: 'SFO', destination: 'QQQ', depart_date: '2026-12-10' }, now))
      .toEqual({ destination: 'destination is not a known airport code: QQQ' });
    expect(checkFlightSearch({ origin: 'SFO', destination: 'SFO', depart_date: '2026-12-10' }, now))
      .toEqual({ destination: 'destination must differ from origin' });
  });
  it('refuses a return before departure and dates in the past at the origin', () => {
    expect(checkFlightSearch({ origin: 'SFO', destination: 'JFK', depart_date: '2026-12-10', return_date: '2026-12-09' }, now))
      .toEqual({ return_date: 'return_date must be on or after depart_date' });
    expect(checkFlightSearch({ origin: 'SFO', destination: 'JFK', depart_date: '2026-12-10', return_date: '2026-12-10' }, now)).toEqual({});
    expect(checkFlightSearch({ origin: 'SFO', destination: 'JFK', depart_date: '2026-11-30' }, now).depart_date)
      .toBe('depart_date must not be in the past (today is 2026-12-01 there)');
    // 12:00 UTC is already 2 December in Auckland: 1 December is past there, not in San Francisco.
    expect(checkFlightSearch({ origin: 'AKL', destination: 'SYD', depart_date: '2026-12-01' }, now).depart_date).toContain('past');
    expect(checkFlightSearch({ origin: 'SFO', destination: 'JFK', depart_date: '2026-12-01' }, now)).toEqual({});
    expect(checkFlightSearch({ origin: 'SFO', destination: 'JFK', depart_date: '2028-01-01' }, now).depart_date).toContain('within 330 days');
  });
  it('checks a stay', () => {
    expect(checkHotelSearch({ city: 'ZZZ', check_in: '2026-12-10', check_out: '2026-12-11' }, now)).toEqual({ city: 'city is not a known city (airport) code: ZZZ' });
    expect(checkHotelSearch({ city: 'CDG', check_in: '2026-12-10', check_out: '2026-12-10' }, now)).toEqual({ check_out: 'check_out must be after check_in' });
    expect(checkHotelSearch({ city: 'CDG', check_in: '2026-12-10', check_out: '2026-12-09' }, now)).toEqual({ check_out: 'check_out must be after check_in' });
    expect(checkHotelSearch({ city: 'CDG', check_in: '2026-12-10', check_out: '2027-01-10' }, now)).toEqual({ check_out: 'a stay must be at most 30 nights' });
    expect(checkHotelSearch({ city: 'CDG', check_in: '2026-12-10', check_out: '2027-01-09' }, now)).toEqual({});
    expect(checkHotelSearch({ city: 'CDG', check_in: '2026-11-30', check_out: '2026-12-02' }, now).check_in).toContain('past');
  });
  it('reads today in the zone', () => {
    expect(localToday('Pacific/Auckland', now)).toBe('2026-12-02');
    expect(localToday('Pacific/Honolulu', new Date('2026-12-01T05:00:00Z'))).toBe('2026-11-30');
  });
});
