import { describe, expect, it } from 'vitest';
import { emptyTripValues, tripCreateInput } from './trip-form.ts';

const NOW = new Date('2026-03-01T12:00:00Z');
const ID = '00000000-0000-4000-8000-000000000009';
const values = { ...emptyTripValues('2026-03-01'), name: ' Lisbon offsite ', destination: 'LIS', start_date: '2026-03-10', end_date: '2026-03-12' };

describe('tripCreateInput', () => {
  it('builds the create command input with the client id, the budget in minor units and no empty optional field', () => {
    expect(tripCreateInput({ ...values, budget: '2,500.50', purpose: ' Team offsite ' }, ID, 'USD', NOW)).toEqual({
      ok: true, input: { id: ID, name: 'Lisbon offsite', destination: 'LIS', start_date: '2026-03-10', end_date: '2026-03-12', purpose: 'Team offsite', budget: 250_050 },
    });
    expect(tripCreateInput(values, ID, 'USD', NOW)).toEqual({ ok: true, input: { id: ID, name: 'Lisbon offsite', destination: 'LIS', start_date: '2026-03-10', end_date: '2026-03-12' } });
  });

  it('says what is wrong per field: no name, no destination picked, an end before the start, a budget that is no amount', () => {
    const r = tripCreateInput({ ...values, name: ' ', destination: '', end_date: '2026-03-09', budget: 'lots' }, ID, 'USD', NOW);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.errors).sort()).toEqual(['budget', 'destination', 'end_date', 'name']);
    expect(r.errors.destination).toBe('Pick a destination from the list.');
    expect(r.errors.end_date).toBe('End date must be on or after start date');
  });

  it('runs the server\'s date rules: a trip over 366 days or starting more than 330 days ahead is refused on its field', () => {
    const long = tripCreateInput({ ...values, end_date: '9999-12-31' }, ID, 'USD', NOW);
    expect(long).toEqual({ ok: false, errors: { end_date: 'A trip must not be longer than 366 days' } });
    expect(tripCreateInput({ ...values, start_date: '2026-03-10', end_date: '2027-03-10' }, ID, 'USD', NOW).ok).toBe(true);
    expect(tripCreateInput({ ...values, start_date: '2026-03-10', end_date: '2027-03-11' }, ID, 'USD', NOW).ok).toBe(false);
    const far = tripCreateInput({ ...values, start_date: '2027-01-27', end_date: '2027-01-28' }, ID, 'USD', NOW);
    expect(far).toEqual({ ok: false, errors: { start_date: 'Start date must be at most 330 days ahead' } });
    expect(tripCreateInput({ ...values, start_date: '2027-01-26', end_date: '2027-01-27' }, ID, 'USD', NOW).ok).toBe(true);
  });
});
