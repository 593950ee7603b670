import { describe, expect, it } from 'vitest';
import type { Booking } from '../../../schema/entities/trip.ts';
import type { SpendClaim, SpendTransaction } from '../../../schema/travel-spend.ts';
import { buildItinerary } from './itinerary.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const booking = (n: number, over: Partial<Booking>): Booking => ({
  id: id(n), trip_id: id(1), kind: 'FLIGHT', status: 'BOOKED', offer_id: id(n + 500), price: { amount: 50_000, currency: 'USD' },
  in_policy: true, policy_reasons: [], segments: [], hotel: null, confirmation_code: 'QX7T2P', card_id: id(900), transaction_id: null,
  refund_transaction_id: null, approval_id: null, rejection_reason: null, booked_at: null, canceled_at: null, created_at: '2026-03-01T10:00:00Z', ...over,
});
const segment = (origin: string, destination: string, departs: string, arrives: string) => ({
  airline_code: 'TP', airline_name: 'TAP Air Portugal', flight_number: 'TP238', origin, destination, departs_at: departs, arrives_at: arrives,
  duration_minutes: 600, cabin: 'ECONOMY' as const,
});
const hotel = { hotel_id: 'h1', name: 'Alfama Suites', city: 'LIS', address: 'Rua 1, Lisbon', stars: 4, check_in: '2026-03-10', check_out: '2026-03-12', nights: 2, nightly: { amount: 20_000, currency: 'EUR' }, check_in_time: '15:00' };
const tx = (n: number, at: string): SpendTransaction => ({ id: id(n), user_id: id(2), merchant_name: `Shop ${n}`, merchant_category: 'x', amount: 1_000, currency: 'EUR', occurred_at: at, state: 'CLEARED' });
const claim = (n: number, over: Partial<SpendClaim>): SpendClaim => ({
  id: id(n), user_id: id(2), type: 'OUT_OF_POCKET', status: 'DRAFT', merchant: 'Taxi', amount: 2_000, currency: 'EUR', transaction_date: '2026-03-11',
  location: null, start_date: null, end_date: null, memo: null, ...over,
});

describe('buildItinerary', () => {
  const trip = {
    start_date: '2026-03-10', end_date: '2026-03-12', transaction_ids: [id(30), id(31), id(32)], reimbursement_ids: [id(40), id(41)],
    bookings: [
      booking(10, { transaction_id: id(32), segments: [segment('SFO', 'LIS', '2026-03-09T18:30:00-08:00', '2026-03-10T14:55:00+00:00'), segment('LIS', 'SFO', '2026-03-12T11:00:00+00:00', '2026-03-12T15:20:00-07:00')] }),
      booking(11, { kind: 'HOTEL', hotel }),
      booking(12, { status: 'CANCELED', segments: [segment('LIS', 'OPO', '2026-03-11T09:00:00+00:00', '2026-03-11T10:00:00+00:00')] }),
    ],
  };
  const days = buildItinerary(trip, {
    transactions: [tx(30, '2026-03-11T12:00:00Z'), tx(31, '2026-03-13T08:00:00Z'), tx(32, '2026-03-01T10:00:00Z'), tx(33, '2026-03-11T09:00:00Z')],
    claims: [claim(40, {}), claim(41, { type: 'PER_DIEM', merchant: null, transaction_date: '2026-03-10', start_date: '2026-03-10', end_date: '2026-03-12' })],
  });

  it('has every day of the trip and the days outside it that have something on them, in order', () => {
    expect(days.map((d) => [d.date, d.title, d.inTrip])).toEqual([
      ['2026-03-09', 'Before the trip', false],
      ['2026-03-10', 'Day 1', true],
      ['2026-03-11', 'Day 2', true],
      ['2026-03-12', 'Day 3', true],
      ['2026-03-13', 'After the trip', false],
    ]);
  });

  it('puts a flight on its local departure day at its local time, and leaves canceled bookings off', () => {
    const before = days[0]!.items;
    expect(before).toHaveLength(1);
    expect(before[0]).toMatchObject({ kind: 'flight', time: '18:30' });
    expect(days[2]!.items.some((i) => i.kind === 'flight')).toBe(false);
  });

  it('orders a day by time (check-out first), then card spend, then claims; a booking’s own charge is not a second line', () => {
    expect(days[1]!.items.map((i) => i.kind)).toEqual(['check-in', 'claim']);
    expect(days[2]!.items.map((i) => i.kind)).toEqual(['transaction', 'claim']);
    expect(days[3]!.items.map((i) => i.kind)).toEqual(['check-out', 'flight']);
    expect(days.flatMap((d) => d.items).some((i) => i.key === id(32) || i.key === id(33))).toBe(false);
  });

  it('lists at most 366 days, whatever the stored dates say', () => {
    const days = buildItinerary({ start_date: '2026-03-10', end_date: '9999-12-31', bookings: [], transaction_ids: [], reimbursement_ids: [] }, { transactions: [], claims: [] });
    expect(days).toHaveLength(366);
    expect(days.at(-1)).toMatchObject({ date: '2027-03-10', title: 'Day 366', inTrip: true });
  });
});
