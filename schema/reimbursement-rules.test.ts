import { describe, expect, it } from 'vitest';
import { REIMBURSEMENT_STATUSES, type ReimbursementStatus } from './entities/reimbursement.ts';
import {
  REIMBURSEMENT_ACTIONS, checkAction, checkDecidable, isSettled, settlesAt, type ReimbursementAction,
  checkDeletable, checkEditable, checkMove, checkOutOfPocket, latestClaimDate, mileageAmount, perDiemAmount,
  mileageRate, partialDayAmount, perDiemRateFor, DEFAULT_PER_DIEM_RATE, type BusinessRates,
} from './reimbursement-rules.ts';

const ALLOWED: [ReimbursementStatus, ReimbursementStatus][] = [
  ['DRAFT', 'SUBMITTED'], ['SUBMITTED', 'APPROVED'], ['APPROVED', 'PAID'], ['SUBMITTED', 'REJECTED'],
  ['REJECTED', 'SUBMITTED'], ['DRAFT', 'CANCELED'], ['SUBMITTED', 'CANCELED'], ['REJECTED', 'CANCELED'], ['PAID', 'APPROVED'],
];

describe('the reimbursement status machine', () => {
  it('allows exactly the listed moves and names the current status when refusing', () => {
    for (const from of REIMBURSEMENT_STATUSES) {
      for (const to of REIMBURSEMENT_STATUSES) {
        const check = checkMove(from, to);
        const allowed = ALLOWED.some(([f, t]) => f === from && t === to);
        expect(check.ok, `${from} → ${to}`).toBe(allowed);
        if (!check.ok) expect(check.message).toContain(`status ${from}`);
      }
    }
  });
  it('edits drafts and rejected claims only; deletes drafts only', () => {
    expect(REIMBURSEMENT_STATUSES.filter((s) => checkEditable(s).ok)).toEqual(['DRAFT', 'REJECTED']);
    expect(REIMBURSEMENT_STATUSES.filter((s) => checkDeletable(s).ok)).toEqual(['DRAFT']);
    const refused = checkDeletable('PAID');
    expect(!refused.ok && refused.message).toContain('status PAID');
  });
});

describe('the actions on the status machine', () => {
  it('each action starts only from its statuses, along an edge of the machine, and names the status it refuses', () => {
    for (const [name, action] of Object.entries(REIMBURSEMENT_ACTIONS)) {
      for (const from of REIMBURSEMENT_STATUSES) {
        const check = checkAction(name as ReimbursementAction, from);
        const allowed = (action.from as readonly string[]).includes(from);
        expect(check.ok, `${name} from ${from}`).toBe(allowed);
        if (allowed) expect(checkMove(from, action.to).ok).toBe(true);
        else expect(!check.ok && check.message).toContain(`status ${from}`);
      }
    }
    expect(checkAction('cancelPayment', 'SUBMITTED').ok).toBe(false);
    expect(checkAction('pay', 'PAID').ok).toBe(false);
  });
  it('decides pending approvals only; a payment settles after 3 days', () => {
    expect(checkDecidable('PENDING').ok).toBe(true);
    const refused = checkDecidable('APPROVED');
    expect(!refused.ok && refused.message).toContain('status APPROVED');
    const paid = new Date('2026-03-01T12:00:00Z');
    expect(settlesAt(paid).toISOString()).toBe('2026-03-04T12:00:00.000Z');
    expect(isSettled(settlesAt(paid), new Date('2026-03-04T11:59:59Z'))).toBe(false);
    expect(isSettled(settlesAt(paid), new Date('2026-03-04T12:00:00Z'))).toBe(true);
  });
});

describe('mileage', () => {
  it('uses the IRS rate of the trip year: 72.5 ¢ in 2026, 70 ¢ in 2025', () => {
    expect(mileageAmount(100, '2026-03-01')).toMatchObject({ amount: 7250 });
    expect(mileageAmount(100, '2025-12-31')).toMatchObject({ amount: 7000 });
    // 12.3 × 72.5 = 891.75 → 892; 0.01 × 72.5 = 0.725 → 1; 1 × 72.5 = 72.5 → 73 (half up).
    expect(mileageAmount(12.3, '2026-01-01')).toMatchObject({ amount: 892 });
    expect(mileageAmount(0.01, '2026-01-01')).toMatchObject({ amount: 1 });
    expect(mileageAmount(1, '2026-01-01')).toMatchObject({ amount: 73 });
    expect(mileageAmount(2000, '2026-01-01')).toMatchObject({ amount: 145000 });
  });
  it('refuses a distance of 0, over 2,000 miles or finer than a hundredth, and a year with no rate', () => {
    expect(mileageAmount(0, '2026-01-01')).toEqual({ errors: { distance_miles: 'distance_miles must be greater than 0' } });
    expect(mileageAmount(2000.01, '2026-01-01')).toEqual({ errors: { distance_miles: 'distance_miles must be at most 2000' } });
    expect(mileageAmount(1.001, '2026-01-01')).toMatchObject({ errors: { distance_miles: expect.stringContaining('2 decimal') } });
    expect(mileageAmount(10, '2024-06-01')).toMatchObject({ errors: { trip_date: expect.stringContaining('2024 has none') } });
  });
});

describe('per diem', () => {
  it('pays 75 % on the first and last day: 3 days = 170 USD, 2 days = 102 USD, 1 day = 51 USD', () => {
    expect(perDiemAmount('2026-03-01', '2026-03-03')).toMatchObject({ amount: 17000, days: 3 });
    expect(perDiemAmount('2026-03-01', '2026-03-02')).toMatchObject({ amount: 10200, days: 2 });
    expect(perDiemAmount('2026-03-01', '2026-03-01')).toMatchObject({ amount: 5100, days: 1 });
    expect(perDiemAmount('2026-02-27', '2026-03-02')).toMatchObject({ amount: 5100 * 2 + 6800 * 2, days: 4 });
  });
  it('refuses an end before the start', () => {
    expect(perDiemAmount('2026-03-02', '2026-03-01')).toEqual({ errors: { end_date: 'end_date must be on or after start_date' } });
  });
});

describe("the business's rates", () => {
  const rates: BusinessRates = [
    { kind: 'MILEAGE', name: null, year: 2026, rate: 800, currency: 'USD' },
    { kind: 'MILEAGE', name: null, year: 2027, rate: 750, currency: 'USD' },
    { kind: 'PER_DIEM', name: 'New York', year: null, rate: 7900, currency: 'USD' },
    { kind: 'PER_DIEM', name: 'London', year: null, rate: 7500, currency: 'GBP' },
  ];

  it("uses the business's mileage rate for its year over the IRS rate, the IRS rate for other years", () => {
    expect(mileageRate(2026, rates)).toBe(800);
    expect(mileageRate(2025, rates)).toBe(700);
    expect(mileageAmount(100, '2026-03-01', rates)).toEqual({ amount: 8000, rate: 800 });
    expect(mileageAmount(100, '2025-03-01', rates)).toEqual({ amount: 7000, rate: 700 });
    // 12.3 × 80 = 984 exactly; 0.01 × 75 = 0.75 → 1 (half up).
    expect(mileageAmount(12.3, '2026-01-01', rates)).toMatchObject({ amount: 984 });
    expect(mileageAmount(0.01, '2027-01-01', rates)).toMatchObject({ amount: 1 });
  });

  it('accepts a year the IRS has no rate for once the business set one, and names the known years otherwise', () => {
    expect(mileageAmount(10, '2027-06-01', rates)).toEqual({ amount: 750, rate: 750 });
    expect(mileageAmount(10, '2027-06-01')).toMatchObject({ errors: { trip_date: expect.stringContaining('2027 has none') } });
    expect(mileageAmount(10, '2024-06-01', rates)).toMatchObject({ errors: { trip_date: expect.stringContaining('(2025, 2026, 2027)') } });
  });

  it('finds a per-diem location by name (trimmed, any case), else the default 68 USD', () => {
    expect(perDiemRateFor(' new york ', rates)).toEqual({ location: 'New York', daily: 7900, currency: 'USD' });
    expect(perDiemRateFor('London', rates)).toEqual({ location: 'London', daily: 7500, currency: 'GBP' });
    expect(perDiemRateFor('Chicago', rates)).toEqual(DEFAULT_PER_DIEM_RATE);
    expect(perDiemRateFor('', rates)).toEqual(DEFAULT_PER_DIEM_RATE);
    expect(perDiemRateFor('New York')).toEqual(DEFAULT_PER_DIEM_RATE);
  });

  it("pays a location's rate in its currency, 75 % on the first and last day (half up)", () => {
    const ny = perDiemRateFor('New York', rates);
    // 79 × 0.75 = 59.25: 3 days = 59.25 + 79 + 59.25 = 197.50 USD; 1 day = 59.25.
    expect(perDiemAmount('2026-03-01', '2026-03-03', ny)).toEqual({ amount: 19750, days: 3, currency: 'USD' });
    expect(perDiemAmount('2026-03-01', '2026-03-01', ny)).toEqual({ amount: 5925, days: 1, currency: 'USD' });
    expect(perDiemAmount('2026-03-01', '2026-03-04', perDiemRateFor('london', rates))).toEqual({ amount: 5625 * 2 + 7500 * 2, days: 4, currency: 'GBP' });
    // An odd rate: 75 % of 0.01 is 0.0075 → 0.01; of 0.03, 0.0225 → 0.02; of 0.02, 0.015 → 0.02 (half up).
    expect([partialDayAmount(1), partialDayAmount(3), partialDayAmount(2), partialDayAmount(6800)]).toEqual([1, 2, 2, 5100]);
  });
});

describe('out of pocket', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  it('needs a positive integer amount and a date that is not in the future', () => {
    expect(checkOutOfPocket({ amount: 1250, transaction_date: '2026-11-23' }, now)).toEqual({});
    expect(checkOutOfPocket({ amount: 0, transaction_date: '2026-11-01' }, now)).toHaveProperty('amount');
    expect(checkOutOfPocket({ amount: -5, transaction_date: '2026-11-01' }, now)).toHaveProperty('amount');
    expect(checkOutOfPocket({ amount: 1.5, transaction_date: '2026-11-01' }, now)).toHaveProperty('amount');
    expect(checkOutOfPocket({ amount: 100, transaction_date: '2026-11-25' }, now)).toEqual({
      transaction_date: 'transaction_date must not be in the future',
    });
  });
  it('treats today anywhere on Earth (UTC+14) as not in the future', () => {
    expect(latestClaimDate(new Date('2026-11-23T09:59:00Z'))).toBe('2026-11-23');
    expect(latestClaimDate(new Date('2026-11-23T10:00:00Z'))).toBe('2026-11-24');
  });
});
