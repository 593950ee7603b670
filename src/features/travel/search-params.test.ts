import { describe, expect, it } from 'vitest';
import { hotelSearchInitial } from './search-params.ts';

describe('hotelSearchInitial', () => {
  const trip = { destination: 'LIS', start_date: '2026-12-01', end_date: '2026-12-04' };
  it('the trip\'s nights, from today once it has begun', () => {
    expect(hotelSearchInitial(trip, '2026-11-20')).toEqual({ city: 'LIS', check_in: '2026-12-01', check_out: '2026-12-04' });
    expect(hotelSearchInitial(trip, '2026-12-02')).toEqual({ city: 'LIS', check_in: '2026-12-02', check_out: '2026-12-04' });
  });
  it('at least one night: a one-day trip, or its last day, checks out the next day', () => {
    expect(hotelSearchInitial({ ...trip, end_date: '2026-12-01' }, '2026-11-20')).toEqual({ city: 'LIS', check_in: '2026-12-01', check_out: '2026-12-02' });
    expect(hotelSearchInitial(trip, '2026-12-04')).toEqual({ city: 'LIS', check_in: '2026-12-04', check_out: '2026-12-05' });
  });
});
