import { describe, expect, it } from 'vitest';
import { AIRPORTS, distanceKm } from '../../../schema/travel/airports.ts';
import { fromUsd, inventoryCurrency, USD_RATES } from '../../../schema/travel/fx-rates.ts';
import {
  CABIN_MULTIPLIER, cityCostLevel, compareFlights, flightMinutes, localIso, localToInstant, searchFlightInventory, searchHotelInventory,
} from './inventory.ts';

describe('flight inventory', () => {
  const q = { origin: 'SFO', destination: 'JFK', depart_date: '2026-12-14', passengers: 1 } as const;

  it('is deterministic and sorted by price', () => {
    const one = searchFlightInventory(q);
    expect(searchFlightInventory({ ...q })).toEqual(one);
    expect(one.length).toBeGreaterThan(3);
    expect([...one].sort(compareFlights)).toEqual(one);
    for (let i = 1; i < one.length; i++) expect(one[i]!.price.amount).toBeGreaterThanOrEqual(one[i - 1]!.price.amount);
    // Another date is another schedule.
    expect(searchFlightInventory({ ...q, depart_date: '2026-12-15' })).not.toEqual(one);
  });

  it('times legs by great-circle distance at 800 km/h plus 30 minutes, in local times', () => {
    const nonstop = searchFlightInventory({ ...q, cabin: 'ECONOMY' }).find((f) => f.stops === 0)!;
    const leg = nonstop.segments[0]!;
    expect(leg.duration_minutes).toBe(flightMinutes(distanceKm(AIRPORTS.SFO!, AIRPORTS.JFK!)));
    expect(leg.duration_minutes % 5).toBe(0);
    expect(leg.departs_at).toMatch(/-08:00$/); // San Francisco in December
    expect(leg.arrives_at).toMatch(/-05:00$/); // New York
    expect(Date.parse(leg.arrives_at) - Date.parse(leg.departs_at)).toBe(leg.duration_minutes * 60_000);
    const local = Number(leg.departs_at.slice(11, 13));
    expect(local).toBeGreaterThanOrEqual(6);
    expect(local).toBeLessThanOrEqual(21);
  });

  it('connects via a hub with a layover, and prices cabins by their multiplier', () => {
    const all = searchFlightInventory(q);
    const connection = all.find((f) => f.stops === 1)!;
    expect(connection.segments).toHaveLength(2);
    expect(connection.segments[0]!.destination).toBe(connection.segments[1]!.origin);
    expect(Date.parse(connection.segments[1]!.departs_at)).toBeGreaterThanOrEqual(Date.parse(connection.segments[0]!.arrives_at) + 60 * 60_000);
    const byCabin = (cabin: 'ECONOMY' | 'BUSINESS') => searchFlightInventory({ ...q, cabin }).map((f) => f.price.amount).sort((a, b) => a - b);
    const [eco, biz] = [byCabin('ECONOMY'), byCabin('BUSINESS')];
    expect(biz[0]! / eco[0]!).toBeCloseTo(CABIN_MULTIPLIER.BUSINESS, 1);
    expect(new Set(all.map((f) => f.cabin))).toEqual(new Set(['ECONOMY', 'PREMIUM_ECONOMY', 'BUSINESS', 'FIRST']));
    // A short hop sells no first class.
    expect(searchFlightInventory({ ...q, destination: 'LAX' }).some((f) => f.cabin === 'FIRST')).toBe(false);
  });

  it('adds the return legs and counts passengers', () => {
    const back = searchFlightInventory({ ...q, return_date: '2026-12-18', cabin: 'ECONOMY', passengers: 2 });
    for (const f of back) {
      expect(f.segments[0]!.origin).toBe('SFO');
      expect(f.segments.at(-1)!.destination).toBe('SFO');
      expect(f.segments.some((s) => s.destination === 'JFK')).toBe(true);
      expect(f.price.amount % 2).toBe(0);
      expect(f.passengers).toBe(2);
    }
  });

  it('finds carriers for any pair of airports', () => {
    const far = searchFlightInventory({ origin: 'ULN', destination: 'SCL', depart_date: '2026-12-14', passengers: 1 });
    expect(far.length).toBeGreaterThan(0);
  });
});

describe('local times', () => {
  it('places a wall-clock time in its zone across DST', () => {
    expect(localIso(localToInstant('2026-07-01', 9 * 60, 'Europe/London'), 'Europe/London')).toBe('2026-07-01T09:00:00+01:00');
    expect(localIso(localToInstant('2026-12-01', 9 * 60, 'Europe/London'), 'Europe/London')).toBe('2026-12-01T09:00:00+00:00');
    expect(localIso(localToInstant('2026-12-01', 9 * 60, 'Asia/Kolkata'), 'Asia/Kolkata')).toBe('2026-12-01T09:00:00+05:30');
  });
});

describe('hotel inventory', () => {
  it('gives a city 8–12 hotels, the same for each of its airports, priced by stars and city', () => {
    const paris = searchHotelInventory({ city: 'CDG', check_in: '2026-12-14', check_out: '2026-12-16' });
    expect(paris.length).toBeGreaterThanOrEqual(8);
    expect(paris.length).toBeLessThanOrEqual(12);
    expect(new Set(paris.map((h) => h.hotel.name)).size).toBe(paris.length);
    expect(searchHotelInventory({ city: 'ORY', check_in: '2026-12-14', check_out: '2026-12-16' }).map((h) => h.hotel.name)).toEqual(paris.map((h) => h.hotel.name));
    for (const h of paris) {
      expect(h.hotel.stars).toBeGreaterThanOrEqual(2);
      expect(h.hotel.stars).toBeLessThanOrEqual(5);
      expect(h.hotel.nights).toBe(2);
      expect(h.price.amount).toBe(h.hotel.nightly.amount * 2);
    }
    for (let i = 1; i < paris.length; i++) expect(paris[i]!.price.amount).toBeGreaterThanOrEqual(paris[i - 1]!.price.amount);
    expect(cityCostLevel(AIRPORTS.CDG!)).toBeGreaterThan(cityCostLevel(AIRPORTS.BKK!));
  });
});

describe('inventory currency', () => {
  it('prices in the asked currency at the fixed rates, per passenger and per night, in whole major units', () => {
    const q = { origin: 'SFO', destination: 'JFK', depart_date: '2026-12-14', passengers: 2, cabin: 'ECONOMY' } as const;
    const usd = searchFlightInventory(q);
    const jpy = searchFlightInventory({ ...q, currency: 'JPY' });
    expect(jpy.map((f) => f.price)).toEqual(usd.map((f) => ({ amount: fromUsd(f.price.amount / 2, 'JPY').amount * 2, currency: 'JPY' })));
    expect(fromUsd(12_300, 'JPY')).toEqual({ amount: Math.round(123 * USD_RATES.JPY!), currency: 'JPY' });
    expect(fromUsd(12_300, 'EUR')).toEqual({ amount: Math.round(123 * USD_RATES.EUR!) * 100, currency: 'EUR' });
    const stay = { city: 'LHR', check_in: '2026-12-14', check_out: '2026-12-17' };
    const gbp = searchHotelInventory({ ...stay, currency: 'GBP' });
    expect(gbp.map((h) => h.hotel.nightly)).toEqual(searchHotelInventory(stay).map((h) => fromUsd(h.hotel.nightly.amount, 'GBP')));
    expect(gbp.every((h) => h.price.amount === h.hotel.nightly.amount * 3 && h.price.currency === 'GBP')).toBe(true);
  });

  it('prices a business in a currency the table lacks in USD', () => {
    expect(inventoryCurrency('EUR')).toBe('EUR');
    expect(inventoryCurrency('XOF')).toBe('USD');
  });
});
