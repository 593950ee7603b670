import { describe, expect, it } from 'vitest';
import { bankHolidays, expectedSettlementDate, isBusinessDay, nextBusinessDay } from './business-days.ts';

describe('the Federal Reserve holiday calendar', () => {
  // Published Fed calendars (federalreserve.gov) for these years.
  const YEARS: Record<number, string[]> = {
    2025: ['2025-01-01', '2025-01-20', '2025-02-17', '2025-05-26', '2025-06-19', '2025-07-04', '2025-09-01', '2025-10-13', '2025-11-11', '2025-11-27', '2025-12-25'],
    // Independence Day 2026 is a Saturday: the Fed is open Friday 2026-07-03.
    2026: ['2026-01-01', '2026-01-19', '2026-02-16', '2026-05-25', '2026-06-19', '2026-09-07', '2026-10-12', '2026-11-11', '2026-11-26', '2026-12-25'],
    // Juneteenth and Christmas 2027 are Saturdays (not observed); Independence Day is a Sunday (Monday 5th).
    2027: ['2027-01-01', '2027-01-18', '2027-02-15', '2027-05-31', '2027-07-05', '2027-09-06', '2027-10-11', '2027-11-11', '2027-11-25'],
  };

  it.each(Object.entries(YEARS))('lists %s’s observed holidays', (year, dates) => {
    expect(bankHolidays(Number(year)).map((h) => h.date)).toEqual(dates);
  });

  it('names each holiday', () => {
    expect(bankHolidays(2026).find((h) => h.date === '2026-11-26')?.name).toBe('Thanksgiving Day');
    expect(bankHolidays(2027).find((h) => h.date === '2027-07-05')?.name).toBe('Independence Day');
  });

  it.each([
    ['2026-11-26', false, 'Thanksgiving'],
    ['2026-11-27', true, 'the Friday after Thanksgiving'],
    ['2026-11-28', false, 'a Saturday'],
    ['2026-11-29', false, 'a Sunday'],
    ['2026-07-03', true, 'the Friday before a Saturday Independence Day (OPM closes, the Fed does not)'],
    ['2027-12-24', true, 'the Friday before a Saturday Christmas'],
    ['2027-12-31', true, 'the Friday before a Saturday New Year (2028-01-01)'],
    ['2027-07-05', false, 'the Monday after a Sunday Independence Day'],
    ['2028-01-17', false, 'MLK Day 2028'],
    ['2028-05-29', false, 'Memorial Day 2028 (last Monday of May)'],
    ['2029-11-22', false, 'Thanksgiving 2029'],
  ])('%s is a business day: %s (%s)', (date, expected) => {
    expect(isBusinessDay(date)).toBe(expected);
  });

  it('refuses what is not a calendar date', () => {
    for (const bad of ['2026-02-30', '2026-13-01', '26-11-26', '2026-11-26T00:00:00Z', '']) {
      expect(() => isBusinessDay(bad), bad).toThrow(RangeError);
    }
  });
});

describe('expectedSettlementDate', () => {
  it.each([
    // [payment date, business days, settles, why]
    ['2026-11-24', 1, '2026-11-25', 'Tuesday + 1'],
    ['2026-11-25', 1, '2026-11-27', 'Thanksgiving skipped'],
    ['2026-11-25', 2, '2026-11-30', 'Thanksgiving and the weekend skipped'],
    ['2026-11-26', 0, '2026-11-27', 'sent on a holiday: processed the next business day'],
    ['2026-11-26', 1, '2026-11-30', 'processed Friday, settles Monday'],
    ['2026-11-28', 0, '2026-11-30', 'sent on a Saturday: processed Monday'],
    ['2026-11-30', 0, '2026-11-30', 'a business day with 0 days is itself'],
    ['2026-12-23', 3, '2026-12-29', 'Christmas (Friday) and the weekend skipped'],
    ['2027-12-23', 1, '2027-12-24', 'a Saturday Christmas keeps Friday open'],
    ['2027-12-23', 2, '2027-12-27', 'then the weekend'],
    ['2027-12-30', 2, '2028-01-03', 'across the year; Saturday New Year not observed'],
    ['2025-12-31', 1, '2026-01-02', "New Year's Day skipped"],
    ['2027-07-02', 1, '2027-07-06', 'Sunday Independence Day observed Monday'],
    ['2025-01-17', 1, '2025-01-21', 'MLK Day 2025 skipped'],
    ['2026-10-09', 1, '2026-10-13', 'Columbus Day 2026 skipped'],
    ['2026-06-18', 1, '2026-06-22', 'Juneteenth (Friday) skipped'],
  ])('%s + %i business days → %s (%s)', (paymentDate, days, settles) => {
    expect(expectedSettlementDate(paymentDate, days)).toBe(settles);
  });

  it('refuses a negative or fractional count and a bad date', () => {
    expect(() => expectedSettlementDate('2026-11-24', -1)).toThrow(RangeError);
    expect(() => expectedSettlementDate('2026-11-24', 1.5)).toThrow(RangeError);
    expect(() => expectedSettlementDate('2026-11-31', 1)).toThrow(RangeError);
  });

  it('nextBusinessDay rolls weekends and holidays forward only', () => {
    expect(nextBusinessDay('2026-12-25')).toBe('2026-12-28');
    expect(nextBusinessDay('2026-12-28')).toBe('2026-12-28');
  });
});
