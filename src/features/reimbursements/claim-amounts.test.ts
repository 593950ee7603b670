import { describe, expect, it } from 'vitest';
import { perDiemRateFor, type BusinessRates } from '../../../schema/reimbursement-rules.ts';
import {
  distanceInMiles, kmToMiles, mileagePreview, OTHER_LOCATION, perDiemChoice, perDiemLocationOptions, perDiemPreview, perDiemRateNote,
} from './claim-amounts.ts';

const RATES: BusinessRates = [
  { kind: 'PER_DIEM', name: 'San Francisco', year: null, rate: 7900, currency: 'USD' },
  { kind: 'PER_DIEM', name: 'London', year: null, rate: 7500, currency: 'GBP' },
  { kind: 'MILEAGE', name: null, year: 2026, rate: 800, currency: 'USD' },
];

describe('kmToMiles', () => {
  it.each([
    [1.609344, 1],
    [100, 62.14],
    [160.9344, 100],
    [10, 6.21],
    [0.5, 0.31],
  ])('%s km → %s mi', (km, miles) => {
    expect(kmToMiles(km)).toBe(miles);
  });
});

describe('distanceInMiles', () => {
  it.each([
    ['124', 'mi', 124],
    [' 12.5 ', 'mi', 12.5],
    ['1,200', 'mi', 1200],
    ['100', 'km', 62.14],
    ['', 'mi', null],
    ['abc', 'km', null],
    ['-3', 'mi', null],
  ] as const)('%j %s → %s', (text, unit, miles) => {
    expect(distanceInMiles(text, unit)).toBe(miles);
  });
});

describe('mileagePreview', () => {
  it.each([
    [124, '2026-03-02', 8990, '124 mi × $0.725 = $89.90'],
    [124, '2025-12-31', 8680, '124 mi × $0.70 = $86.80'],
    [62.14, '2026-01-10', 4505, '62.14 mi × $0.725 = $45.05'],
  ])('%s mi on %s', (miles, date, amount, text) => {
    expect(mileagePreview(miles, date)).toEqual({ ok: true, amount, text });
  });

  it('says why when the rules refuse, and nothing while a field is empty', () => {
    expect(mileagePreview(10, '2024-06-01')).toEqual({ ok: false, text: expect.stringContaining('known mileage rate') });
    expect(mileagePreview(3000, '2026-01-01')).toEqual({ ok: false, text: 'distance_miles must be at most 2000' });
    expect(mileagePreview(null, '2026-01-01')).toEqual({ ok: false, text: null });
    expect(mileagePreview(5, '')).toEqual({ ok: false, text: null });
  });
});

describe('perDiemPreview', () => {
  it.each([
    ['2026-03-02', '2026-03-04', 3, 17000, '3 days = 2 travel days × $51.00 (75 %) + 1 full day × $68.00 = $170.00'],
    ['2026-03-02', '2026-03-02', 1, 5100, '1 day = 1 travel day × $51.00 (75 %) = $51.00'],
    ['2026-03-02', '2026-03-03', 2, 10200, '2 days = 2 travel days × $51.00 (75 %) = $102.00'],
    ['2026-03-01', '2026-03-05', 5, 30600, '5 days = 2 travel days × $51.00 (75 %) + 3 full days × $68.00 = $306.00'],
  ])('%s → %s', (start, end, days, amount, text) => {
    expect(perDiemPreview(start, end)).toEqual({ ok: true, days, amount, currency: 'USD', text });
  });

  it('refuses an end before the start', () => {
    expect(perDiemPreview('2026-03-04', '2026-03-02')).toEqual({ ok: false, text: 'end_date must be on or after start_date' });
    expect(perDiemPreview('', '2026-03-02')).toEqual({ ok: false, text: null });
  });
});

describe("at the business's rates", () => {
  it('uses the mileage override for its year and says so; the IRS rate for other years', () => {
    expect(mileagePreview(124, '2026-03-02', RATES)).toEqual({ ok: true, amount: 9920, text: '124 mi × $0.80 (business rate) = $99.20' });
    expect(mileagePreview(124, '2025-12-31', RATES)).toEqual({ ok: true, amount: 8680, text: '124 mi × $0.70 = $86.80' });
  });

  it("breaks a per diem down at the chosen location's rate and currency", () => {
    expect(perDiemPreview('2026-03-02', '2026-03-04', perDiemRateFor('San Francisco', RATES))).toEqual({
      ok: true, days: 3, amount: 19750, currency: 'USD', text: '3 days = 2 travel days × $59.25 (75 %) + 1 full day × $79.00 = $197.50',
    });
    expect(perDiemPreview('2026-03-02', '2026-03-02', perDiemRateFor('london', RATES))).toMatchObject({
      amount: 5625, currency: 'GBP', text: '1 day = 1 travel day × £56.25 (75 %) = £56.25',
    });
  });

  it('offers the per-diem locations with their rates, sorted; mileage rows are not places', () => {
    expect(perDiemLocationOptions(RATES)).toEqual([
      { value: 'London', label: 'London · £75.00 a day' },
      { value: 'San Francisco', label: 'San Francisco · $79.00 a day' },
    ]);
    expect(perDiemLocationOptions([])).toEqual([]);
  });

  it("shows a known name as its location, any other as Other, and Other while it is picked", () => {
    expect(perDiemChoice('san francisco ', RATES)).toBe('San Francisco');
    expect(perDiemChoice('Chicago', RATES)).toBe(OTHER_LOCATION);
    expect(perDiemChoice('', RATES)).toBe('');
    expect(perDiemChoice('', RATES, true)).toBe(OTHER_LOCATION);
    expect(perDiemChoice('London', RATES, true)).toBe(OTHER_LOCATION);
  });

  it('words the rate in use', () => {
    expect(perDiemRateNote(perDiemRateFor('London', RATES))).toBe('£75.00 a day in London, 75 % on the first and last day');
    expect(perDiemRateNote(perDiemRateFor('Chicago', RATES))).toBe('$68.00 a day (default rate), 75 % on the first and last day');
  });
});
