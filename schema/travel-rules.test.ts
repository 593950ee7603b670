import { afterEach, describe, expect, it, vi } from 'vitest';
import { tripEntity, type Trip } from './entities/trip.ts';
import { earliestTodayAnywhere, effectiveTripStatus, tripDateErrors } from './travel-rules.ts';

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

describe('tripDateErrors', () => {
  const now = new Date('2026-11-20T06:00:00Z');
  it('the end on or after the start; a one-day trip is fine', () => {
    expect(tripDateErrors({ start_date: '2026-12-03', end_date: '2026-12-01' }, now, true)).toEqual({ end_date: 'end_date must be on or after start_date' });
    expect(tripDateErrors({ start_date: '2026-12-01', end_date: '2026-12-01' }, now, true)).toEqual({});
  });
  it('not over today anywhere on Earth (UTC-12) when it must not have ended; a past trip may be kept otherwise', () => {
    expect(earliestTodayAnywhere(now)).toBe('2026-11-19');
    expect(tripDateErrors({ start_date: '2026-11-10', end_date: '2026-11-19' }, now, true)).toEqual({});
    expect(tripDateErrors({ start_date: '2026-11-10', end_date: '2026-11-18' }, now, true)).toEqual({ end_date: 'end_date must not be in the past' });
    expect(tripDateErrors({ start_date: '2026-11-10', end_date: '2026-11-18' }, now, false)).toEqual({});
  });
  it('at most 366 days long and starting at most 330 days after today where it is latest (UTC+14), when checked', () => {
    expect(tripDateErrors({ start_date: '2026-12-01', end_date: '2027-12-01' }, now, true)).toEqual({});
    expect(tripDateErrors({ start_date: '2026-12-01', end_date: '2027-12-02' }, now, true)).toEqual({ end_date: 'a trip must not be longer than 366 days' });
    expect(tripDateErrors({ start_date: '2026-12-01', end_date: '9999-12-31' }, now, true)).toEqual({ end_date: 'a trip must not be longer than 366 days' });
    expect(tripDateErrors({ start_date: '2027-10-16', end_date: '2027-10-17' }, now, true)).toEqual({});
    expect(tripDateErrors({ start_date: '2027-10-17', end_date: '2027-10-17' }, now, true)).toEqual({ start_date: 'start_date must be at most 330 days ahead' });
    expect(tripDateErrors({ start_date: '2026-12-01', end_date: '9999-12-31' }, now, false)).toEqual({});
  });
});

describe('the worker\'s trip filter by status', () => {
  afterEach(() => vi.useRealTimers());
  it('matches the effective status on today\'s UTC day: IN_PROGRESS and COMPLETED by the dates, PLANNED/BOOKED before the start', () => {
    vi.useFakeTimers({ now: new Date('2026-12-02T23:30:00Z') });
    const trip = (status: Trip['status'], start_date: string, end_date: string) => ({ status, start_date, end_date, user_id: 'u' }) as Trip;
    const statuses = (t: Trip) => (['PLANNED', 'BOOKED', 'IN_PROGRESS', 'COMPLETED', 'CANCELED'] as const).filter((s) => tripEntity.query.matches(t, { statuses: [s] }));
    expect(statuses(trip('BOOKED', '2026-12-01', '2026-12-02'))).toEqual(['IN_PROGRESS']);
    expect(statuses(trip('PLANNED', '2026-11-01', '2026-12-01'))).toEqual(['COMPLETED']);
    expect(statuses(trip('PLANNED', '2026-12-03', '2026-12-04'))).toEqual(['PLANNED']);
    expect(statuses(trip('BOOKED', '2026-12-03', '2026-12-04'))).toEqual(['BOOKED']);
    expect(statuses(trip('CANCELED', '2026-11-01', '2026-12-01'))).toEqual(['CANCELED']);
  });
});
