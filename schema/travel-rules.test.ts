import { describe, expect, it } from 'vitest';
import { effectiveTripStatus } from './travel-rules.ts';

describe('effectiveTripStatus', () => {
  const trip = { start_date: '2026-12-01', end_date: '2026-12-04' };
  it('follows the dates: before, during (first and last day), after', () => {
    expect(effectiveTripStatus({ ...trip, status: 'BOOKED' }, '2026-11-30')).toBe('BOOKED');
    expect(effectiveTripStatus({ ...trip, status: 'PLANNED' }, '2026-12-01')).toBe('IN_PROGRESS');
    expect(effectiveTripStatus({ ...trip, status: 'BOOKED' }, '2026-12-04')).toBe('IN_PROGRESS');
    expect(effectiveTripStatus({ ...trip, status: 'BOOKED' }, '2026-12-05')).toBe('COMPLETED');
  });
  it('a canceled trip stays canceled whatever the day', () => {
    expect(effectiveTripStatus({ ...trip, status: 'CANCELED' }, '2026-12-02')).toBe('CANCELED');
    expect(effectiveTripStatus({ ...trip, status: 'CANCELED' }, '2027-01-01')).toBe('CANCELED');
  });
});
