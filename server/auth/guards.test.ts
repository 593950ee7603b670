import { describe, expect, it } from 'vitest';
import { ApiError } from '../core/errors.ts';
import {
  assertMoneyMovementAllowed, assertPayrollReimbursementEligible, last4, PAYROLL_CURRENCY_MESSAGE, SANCTIONS_BLOCK_MESSAGE,
} from './guards.ts';

describe('assertMoneyMovementAllowed', () => {
  it.each(['MANUAL_REVIEW', 'MANUAL_REVIEW_IN_PROGRESS', 'FAILED_MANUAL_CHECK'])('blocks %s with 403 and a clear message', (status) => {
    try {
      assertMoneyMovementAllowed({ ofac_status: status });
      expect.unreachable('must throw');
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).status).toBe(403);
      expect((err as ApiError).message).toBe(SANCTIONS_BLOCK_MESSAGE);
    }
  });

  it.each(['PASSED', 'PENDING', null])('allows %s', (status) => {
    expect(() => assertMoneyMovementAllowed({ ofac_status: status })).not.toThrow();
  });
});

describe('assertPayrollReimbursementEligible', () => {
  it('needs a payroll currency', () => {
    expect(() => assertPayrollReimbursementEligible({ payroll_currency: null })).toThrow(PAYROLL_CURRENCY_MESSAGE);
    expect(() => assertPayrollReimbursementEligible({ payroll_currency: 'USD' })).not.toThrow();
  });
});

describe('last4', () => {
  it.each([
    ['000123456789', '6789'],
    ['12-3456789', '6789'],
  ])('%s → %s', (input, out) => expect(last4(input)).toBe(out));
});
