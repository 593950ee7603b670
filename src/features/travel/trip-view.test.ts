import { describe, expect, it } from 'vitest';
import { bookingSummary, durationText, flightNumber, routeText, tripDates } from '../../lib/trip-labels.ts';
import { moneyList, tripLine } from './trip-view.ts';

const trip = {
  status: 'BOOKED' as const, start_date: '2026-03-10', end_date: '2026-03-12', destination: 'LIS', destination_name: 'Lisbon',
  total: { amount: 61_200, currency: 'USD' }, totals: [{ amount: 61_200, currency: 'USD' }, { amount: 2_500, currency: 'EUR' }],
  budget: { amount: 200_000, currency: 'USD' },
};

describe('tripLine', () => {
  it('shows the status by the dates, where, the totals per currency and the budget', () => {
    expect(tripLine(trip, '2026-03-01')).toMatchObject({ status: 'BOOKED', statusLabel: 'Booked', where: 'Lisbon (LIS)', total: '$612.00 + €25.00', budget: 'of $2,000.00 budget' });
    expect(tripLine(trip, '2026-03-11')).toMatchObject({ status: 'IN_PROGRESS', statusLabel: 'In progress' });
    expect(tripLine(trip, '2026-03-13')).toMatchObject({ status: 'COMPLETED' });
    expect(tripLine({ ...trip, status: 'CANCELED' }, '2026-03-11')).toMatchObject({ status: 'CANCELED' });
  });
  it('falls back to the total and the code', () => {
    expect(tripLine({ ...trip, totals: [], budget: null, destination_name: 'LIS' }, '2026-03-01')).toMatchObject({ where: 'LIS', total: '$612.00', budget: null });
  });
});

describe('trip labels', () => {
  it('words dates, durations, flight numbers and routes', () => {
    expect(tripDates('2026-03-10', '2026-03-12')).toBe('Mar 10 – Mar 12, 2026');
    expect(tripDates('2026-12-30', '2027-01-02')).toBe('Dec 30, 2026 – Jan 2, 2027');
    expect(tripDates('2026-03-10', '2026-03-10')).toBe('Mar 10, 2026');
    expect(durationText(125)).toBe('2 h 05 m');
    expect(durationText(45)).toBe('45 m');
    expect(flightNumber({ airline_code: 'TP', flight_number: '238' })).toBe('TP 238');
    expect(flightNumber({ airline_code: 'TP', flight_number: 'TP238' })).toBe('TP238');
    expect(routeText([{ origin: 'SFO', destination: 'JFK' }, { origin: 'JFK', destination: 'LIS' }])).toBe('SFO → JFK → LIS');
    expect(moneyList([])).toBe('');
  });
  it('summarises a booking in one line', () => {
    const seg = { airline_code: 'TP', airline_name: 'TAP', flight_number: 'TP238', origin: 'SFO', destination: 'LIS', departs_at: '2026-03-09T18:30:00-08:00', arrives_at: '2026-03-10T14:55:00+00:00', duration_minutes: 625, cabin: 'BUSINESS' as const };
    expect(bookingSummary({ kind: 'FLIGHT', segments: [seg], hotel: null, price: { amount: 312_000, currency: 'USD' } })).toBe('Flight SFO → LIS · Mar 9 · Business · $3,120.00');
    const hotel = { hotel_id: 'h', name: 'Alfama Suites', city: 'LIS', address: 'a', stars: 4, check_in: '2026-03-10', check_out: '2026-03-12', nights: 2, nightly: { amount: 20_000, currency: 'EUR' }, check_in_time: '15:00' };
    expect(bookingSummary({ kind: 'HOTEL', segments: [], hotel, price: { amount: 40_000, currency: 'EUR' } })).toBe('Hotel Alfama Suites · 2 nights from Mar 10 · €400.00');
  });
});
