import { describe, expect, it } from 'vitest';
import { isPossibleDuplicate, normalizeMerchant } from './reimbursement-duplicates.ts';

const U = 'u1';
const probe = { id: null, user_id: U, amount: 2318, transaction_date: '2026-11-09', merchant: 'Uber' };
const claim = (over: object = {}) => ({ id: 'c1', user_id: U, amount: 2318, transaction_date: '2026-11-09', merchant: 'UBER *TRIP', status: 'SUBMITTED' as const, deleted: false, ...over });

describe('possible duplicate claims', () => {
  it('normalizes merchants to letters and digits', () => {
    expect(normalizeMerchant('UBER *TRIP 4Q2')).toBe('ubertrip4q2');
    expect(normalizeMerchant('Café de Flore')).toBe('cafédeflore');
    expect(normalizeMerchant(null)).toBe('');
  });

  it('flags the same claimant, amount, date and a similar merchant', () => {
    expect(isPossibleDuplicate(probe, claim())).toBe(true);
    expect(isPossibleDuplicate(probe, claim({ merchant: null }))).toBe(true);
    expect(isPossibleDuplicate({ ...probe, merchant: '' }, claim())).toBe(true);
  });

  it('leaves out another merchant, amount, day or claimant, a canceled or deleted claim, and the claim itself', () => {
    expect(isPossibleDuplicate(probe, claim({ merchant: 'Lyft' }))).toBe(false);
    expect(isPossibleDuplicate(probe, claim({ amount: 2319 }))).toBe(false);
    expect(isPossibleDuplicate(probe, claim({ transaction_date: '2026-11-10' }))).toBe(false);
    expect(isPossibleDuplicate(probe, claim({ user_id: 'u2' }))).toBe(false);
    expect(isPossibleDuplicate(probe, claim({ status: 'CANCELED' }))).toBe(false);
    expect(isPossibleDuplicate(probe, claim({ deleted: true }))).toBe(false);
    expect(isPossibleDuplicate({ ...probe, id: 'c1' }, claim())).toBe(false);
  });
});
