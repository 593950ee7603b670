import { describe, expect, it } from 'vitest';
import { emptyTripValues, tripCreateInput } from './trip-form.ts';

const ID = '00000000-0000-4000-8000-000000000009';
const values = { ...emptyTripValues('2026-03-01'), name: ' Lisbon offsite ', destination: 'LIS', start_date: '2026-03-10', end_date: '2026-03-12' };

describe('tripCreateInput', () => {
  it('builds the create command input with the client id, the budget in minor units and no empty optional field', () => {
    expect(tripCreateInput({ ...values, budget: '2,500.50', purpose: ' Team offsite ' }, ID, 'USD')).toEqual({
      ok: true, input: { id: ID, name: 'Lisbon offsite', destination: 'LIS', start_date: '2026-03-10', end_date: '2026-03-12', purpose: 'Team offsite', budget: 250_050 },
    });
    expect(tripCreateInput(values, ID, 'USD')).toEqual({ ok: true, input: { id: ID, name: 'Lisbon offsite', destination: 'LIS', start_date: '2026-03-10', end_date: '2026-03-12' } });
  });

  it('says what is wrong per field: no name, no destination picked, an end before the start, a budget that is no amount', () => {
    const r = tripCreateInput({ ...values, name: ' ', destination: '', end_date: '2026-03-09', budget: 'lots' }, ID, 'USD');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.errors).sort()).toEqual(['budget', 'destination', 'end_date', 'name']);
    expect(r.errors.destination).toBe('Pick a destination from the list.');
    expect(r.errors.end_date).toBe('The trip must end on or after its first day.');
  });
});
