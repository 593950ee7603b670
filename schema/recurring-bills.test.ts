import { describe, expect, it } from 'vitest';
import {
  duePeriods, invoiceNumberFor, invoicePatternError, latestIndex, nextPeriod, period, periodStart, validateSchedule, type Schedule,
} from './recurring-bills.ts';

const s = (over: Partial<Schedule>): Schedule => ({
  interval: 'MONTHLY', start_date: '2026-01-31', day_of_month: null, day_of_week: null, end_date: null, max_occurrences: null, ...over,
});
const starts = (sch: Schedule, n: number) => Array.from({ length: n }, (_, i) => periodStart(sch, i));

describe('recurring bill periods', () => {
  it.each([
    ['monthly on the 31st clamps to each month end and comes back', s({}), ['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31']],
    ['monthly on the 31st in a leap year', s({ start_date: '2028-01-31' }), ['2028-01-31', '2028-02-29', '2028-03-31', '2028-04-30', '2028-05-31']],
    ['day_of_month after the start day: the same month', s({ start_date: '2026-03-10', day_of_month: 15 }), ['2026-03-15', '2026-04-15', '2026-05-15', '2026-06-15', '2026-07-15']],
    ['day_of_month before the start day: next month', s({ start_date: '2026-03-20', day_of_month: 1 }), ['2026-04-01', '2026-05-01', '2026-06-01', '2026-07-01', '2026-08-01']],
    ['day 30 from a February start clamps there', s({ start_date: '2026-02-01', day_of_month: 30 }), ['2026-02-28', '2026-03-30', '2026-04-30', '2026-05-30', '2026-06-30']],
    ['quarterly from Nov 30 (Feb clamps, May is back on the 30th)', s({ interval: 'QUARTERLY', start_date: '2026-11-30' }), ['2026-11-30', '2027-02-28', '2027-05-30', '2027-08-30', '2027-11-30']],
    ['yearly from Feb 29', s({ interval: 'YEARLY', start_date: '2028-02-29' }), ['2028-02-29', '2029-02-28', '2030-02-28', '2031-02-28', '2032-02-29']],
    ['weekly on the start weekday', s({ interval: 'WEEKLY', start_date: '2026-12-29' }), ['2026-12-29', '2027-01-05', '2027-01-12', '2027-01-19', '2027-01-26']],
    ['weekly on Mondays from a Thursday', s({ interval: 'WEEKLY', start_date: '2026-11-26', day_of_week: 1 }), ['2026-11-30', '2026-12-07', '2026-12-14', '2026-12-21', '2026-12-28']],
    ['weekly on Thursdays from a Thursday', s({ interval: 'WEEKLY', start_date: '2026-11-26', day_of_week: 4 }), ['2026-11-26', '2026-12-03', '2026-12-10', '2026-12-17', '2026-12-24']],
  ] as const)('%s', (_name, sch, expected) => {
    expect(starts(sch, 5)).toEqual(expected);
  });

  it('a period ends the day before the next one starts', () => {
    expect(period(s({}), 1)).toEqual({ index: 1, start: '2026-02-28', end: '2026-03-30' });
    expect(period(s({ interval: 'WEEKLY', start_date: '2026-11-30' }), 0)).toEqual({ index: 0, start: '2026-11-30', end: '2026-12-06' });
  });

  it('finds the latest period started on a day', () => {
    const monthly = s({});
    expect(latestIndex(monthly, '2026-01-30')).toBe(-1);
    expect(latestIndex(monthly, '2026-01-31')).toBe(0);
    expect(latestIndex(monthly, '2026-02-27')).toBe(0);
    expect(latestIndex(monthly, '2026-02-28')).toBe(1);
    expect(latestIndex(monthly, '2026-03-30')).toBe(1);
    expect(latestIndex(monthly, '2027-01-31')).toBe(12);
    expect(latestIndex(s({ interval: 'WEEKLY', start_date: '2026-11-26', day_of_week: 1 }), '2026-12-06')).toBe(0);
  });

  it('lists due periods oldest first, bounded, within the end date, the count and `from`', () => {
    const monthly = s({ start_date: '2026-01-15' });
    expect(duePeriods(monthly, '2026-01-14')).toEqual([]);
    expect(duePeriods(monthly, '2026-03-15').map((p) => p.start)).toEqual(['2026-01-15', '2026-02-15', '2026-03-15']);
    expect(duePeriods(monthly, '2026-03-15', { limit: 2 }).map((p) => p.start)).toEqual(['2026-02-15', '2026-03-15']);
    expect(duePeriods(monthly, '2028-01-15').length).toBe(12);
    expect(duePeriods(monthly, '2028-01-15')[0]!.start).toBe('2027-02-15');
    expect(duePeriods({ ...monthly, max_occurrences: 2 }, '2026-06-01').map((p) => p.start)).toEqual(['2026-01-15', '2026-02-15']);
    expect(duePeriods({ ...monthly, end_date: '2026-03-14' }, '2026-06-01').map((p) => p.start)).toEqual(['2026-01-15', '2026-02-15']);
    expect(duePeriods(monthly, '2026-06-01', { from: '2026-04-01' }).map((p) => p.start)).toEqual(['2026-04-15', '2026-05-15']);
  });

  it('names the next period, none once the schedule ends', () => {
    const monthly = s({ start_date: '2026-01-15', max_occurrences: 3 });
    expect(nextPeriod(monthly, '2026-01-01')?.start).toBe('2026-01-15');
    expect(nextPeriod(monthly, '2026-01-15')?.start).toBe('2026-02-15');
    expect(nextPeriod(monthly, '2026-03-15')).toBeNull();
    expect(nextPeriod(s({ start_date: '2026-01-15' }), '2026-01-20', '2026-05-01')?.start).toBe('2026-05-15');
  });

  it('fills invoice number patterns', () => {
    const p = period(s({ start_date: '2026-11-05' }), 2);
    expect(p.start).toBe('2027-01-05');
    expect(invoiceNumberFor('RENT-{YYYY}-{MM}', p)).toBe('RENT-2027-01');
    expect(invoiceNumberFor('{YY}Q{Q}-{DD} #{N} {X}', p)).toBe('27Q1-05 #3 {X}');
  });

  it('refuses invoice patterns that repeat across periods', () => {
    expect(invoicePatternError('RENT', s({}))).toMatch(/same invoice number/);
    expect(invoicePatternError('RENT', s({ max_occurrences: 1 }))).toBeNull();
    expect(invoicePatternError('RENT-{YYYY}-{MM}', s({}))).toBeNull();
    expect(invoicePatternError('RENT-{YYYY}-{MM}', s({ interval: 'WEEKLY' }))).toMatch(/same invoice number/);
    expect(invoicePatternError('W-{N}', s({ interval: 'WEEKLY' }))).toBeNull();
    expect(invoicePatternError('{YYYY}Q{Q}', s({ interval: 'QUARTERLY' }))).toBeNull();
  });

  it('validates schedules by field', () => {
    expect(validateSchedule(s({}))).toEqual({});
    expect(validateSchedule(s({ start_date: '2026-02-30' }))).toHaveProperty('start_date');
    expect(validateSchedule(s({ end_date: '2026-01-01' }))).toHaveProperty('end_date');
    expect(validateSchedule(s({ start_date: '2026-01-05', day_of_month: 20, end_date: '2026-01-10' }))).toHaveProperty('end_date');
    expect(validateSchedule(s({ day_of_week: 2 }))).toHaveProperty('day_of_week');
    expect(validateSchedule(s({ interval: 'WEEKLY', day_of_month: 2 }))).toHaveProperty('day_of_month');
  });
});
