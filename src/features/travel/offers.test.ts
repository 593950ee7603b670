import { describe, expect, it } from 'vitest';
import type { FlightOffer } from '../../../schema/api/calls-travel.ts';
import { byPrice, expiryText, type Offer, flightLines, flightSearchBody, hotelSearchBody, policyBadge } from './offers.ts';

const leg = (origin: string, destination: string, departs: string, arrives: string, n = '238') => ({
  airline_code: 'TP', airline_name: 'TAP', flight_number: `TP${n}`, origin, destination, departs_at: departs, arrives_at: arrives, duration_minutes: 60, cabin: 'ECONOMY' as const,
});

describe('policyBadge', () => {
  it('words the three outcomes', () => {
    expect(policyBadge({ in_policy: true, blocked: false })).toMatchObject({ label: 'In policy', tone: 'ok' });
    expect(policyBadge({ in_policy: false, blocked: false })).toMatchObject({ label: 'Needs approval', tone: 'warn' });
    expect(policyBadge({ in_policy: false, blocked: true })).toMatchObject({ label: 'Not allowed', tone: 'danger' });
  });
});

describe('expiryText', () => {
  const now = Date.parse('2026-03-01T10:00:00Z');
  it('counts whole minutes up and says when the offer is gone', () => {
    expect(expiryText('2026-03-01T10:29:01Z', now)).toEqual({ text: 'Expires in 30 min', expired: false });
    expect(expiryText('2026-03-01T10:00:00Z', now)).toEqual({ text: 'Expired: search again', expired: true });
  });
});

describe('flightLines', () => {
  it('joins connecting legs into one journey and splits the return', () => {
    const lines = flightLines({ segments: [
      leg('SFO', 'JFK', '2026-03-10T08:00:00-08:00', '2026-03-10T16:30:00-05:00', '100'),
      leg('JFK', 'LIS', '2026-03-10T19:00:00-05:00', '2026-03-11T07:00:00+00:00', '200'),
      leg('LIS', 'SFO', '2026-03-14T11:00:00+00:00', '2026-03-14T15:00:00-07:00', '300'),
    ] } as Pick<FlightOffer, 'segments'>);
    expect(lines).toEqual([
      'TP100, TP200 · 08:00 SFO → 07:00 LIS · 15 h 00 m · 1 stop',
      'TP300 · 11:00 LIS → 15:00 SFO · 11 h 00 m · nonstop',
    ]);
  });
});

describe('flightSearchBody', () => {
  const base = { origin: 'SFO', destination: 'LIS', depart_date: '2026-03-10', return_date: '2026-03-14', cabin: '' as const, passengers: '2' };
  it('builds the call body (numbers as numbers, empty optional fields left out)', () => {
    expect(flightSearchBody({ ...base, return_date: '' }, '2026-03-01', '00000000-0000-4000-8000-000000000001')).toEqual({
      ok: true, body: { origin: 'SFO', destination: 'LIS', depart_date: '2026-03-10', passengers: 2, trip_id: '00000000-0000-4000-8000-000000000001' },
    });
  });
  it('refuses a return before departure, a past departure, the same airport, an unpicked airport and too many passengers', () => {
    const r = flightSearchBody({ ...base, return_date: '2026-02-19', depart_date: '2026-02-20', destination: 'SFO', passengers: '12' }, '2026-03-01');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.errors).sort()).toEqual(['depart_date', 'destination', 'passengers', 'return_date']);
    expect(r.errors.destination).toBe('From and To are the same airport.');
    expect(flightSearchBody({ ...base, origin: '' }, '2026-03-01')).toMatchObject({ ok: false, errors: { origin: 'Pick an airport from the list.' } });
    expect(flightSearchBody({ ...base, passengers: '0' }, '2026-03-01')).toMatchObject({ ok: false, errors: { passengers: 'From 1 to 9 passengers.' } });
  });
});

describe('hotelSearchBody', () => {
  it('needs check-out after check-in, not in the past', () => {
    expect(hotelSearchBody({ city: 'LIS', check_in: '2026-03-10', check_out: '2026-03-12' }, '2026-03-01')).toEqual({ ok: true, body: { city: 'LIS', check_in: '2026-03-10', check_out: '2026-03-12' } });
    expect(hotelSearchBody({ city: 'LIS', check_in: '2026-03-10', check_out: '2026-03-10' }, '2026-03-01')).toMatchObject({ ok: false, errors: { check_out: 'Check-out must be after check-in.' } });
    expect(hotelSearchBody({ city: 'LIS', check_in: '2026-02-10', check_out: '2026-03-10' }, '2026-03-01')).toMatchObject({ ok: false, errors: { check_in: 'Check-in is in the past.' } });
  });
});

describe('byPrice', () => {
  it('sorts cheapest first without touching the input', () => {
    const offers = [{ offer_id: 'b', price: { amount: 300 } }, { offer_id: 'a', price: { amount: 100 } }, { offer_id: 'c', price: { amount: 100 } }] as unknown as Offer[];
    expect(byPrice(offers).map((o) => o.offer_id)).toEqual(['a', 'c', 'b']);
    expect(offers[0]!.offer_id).toBe('b');
  });
});
