import { describe, expect, it } from 'vitest';
import type { ReimbursementStatus } from '../../schema/entities/reimbursement.ts';
import type { Actor } from '../../schema/roles.ts';
import { canDecide, claimActions, paymentMethods, type ClaimActionSet } from './claim-actions.ts';

const ME = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';
const actor = (role: string, is_manager = false): Actor => ({ id: ME, role, is_manager, user_permissions: [] });
const NOW = new Date('2026-03-10T12:00:00.000Z');
const claim = (status: ReimbursementStatus, user_id = ME, updated_at = '2026-03-09T12:00:00.000Z') => ({ status, user_id, updated_at });
const on = (set: ClaimActionSet) => Object.entries(set).filter(([, v]) => v).map(([k]) => k).sort();

describe('claimActions: status × role', () => {
  it.each<[ReimbursementStatus, string[]]>([
    ['DRAFT', ['cancel', 'deleteDraft', 'edit', 'submit']],
    ['SUBMITTED', ['cancel']],
    ['REJECTED', ['cancel', 'edit', 'resubmit']],
    ['APPROVED', []],
    ['PAID', []],
    ['CANCELED', []],
  ])('the claimant (employee) on their own %s claim: %j', (status, expected) => {
    expect(on(claimActions(claim(status), actor('BUSINESS_USER'), NOW))).toEqual(expected);
  });

  it.each<[ReimbursementStatus, string[]]>([
    ['DRAFT', []],
    ['SUBMITTED', []],
    ['REJECTED', []],
    ['APPROVED', ['pay']],
    ['PAID', ['cancelPayment']],
    ['CANCELED', []],
  ])('an admin on someone else\'s %s claim: %j', (status, expected) => {
    expect(on(claimActions(claim(status, OTHER), actor('BUSINESS_ADMIN'), NOW))).toEqual(expected);
    expect(on(claimActions(claim(status, OTHER), actor('BUSINESS_OWNER'), NOW))).toEqual(expected);
  });

  it('a manager or bookkeeper never pays; nobody acts on another\'s claim as its owner', () => {
    for (const viewer of [actor('BUSINESS_USER', true), actor('BUSINESS_BOOKKEEPER'), actor('AUDITOR')]) {
      for (const status of ['DRAFT', 'REJECTED', 'APPROVED', 'PAID'] as const) {
        expect(on(claimActions(claim(status, OTHER), viewer, NOW))).toEqual([]);
      }
    }
  });

  it('cancel payment only before the payment settles (3 days after it was made)', () => {
    const admin = actor('BUSINESS_ADMIN');
    expect(claimActions(claim('PAID', OTHER, '2026-03-08T12:00:01.000Z'), admin, NOW).cancelPayment).toBe(true);
    expect(claimActions(claim('PAID', OTHER, '2026-03-07T12:00:00.000Z'), admin, NOW).cancelPayment).toBe(false);
  });
});

describe('canDecide', () => {
  it('reviewers decide pending approvals of other people\'s claims only', () => {
    const pending = { status: 'PENDING' as const, user_id: OTHER };
    expect(canDecide(pending, actor('BUSINESS_ADMIN'))).toBe(true);
    expect(canDecide(pending, actor('BUSINESS_BOOKKEEPER'))).toBe(true);
    expect(canDecide(pending, actor('BUSINESS_USER', true))).toBe(true);
    expect(canDecide(pending, actor('BUSINESS_USER'))).toBe(false);
    expect(canDecide(pending, actor('AUDITOR'))).toBe(false);
    expect(canDecide({ ...pending, user_id: ME }, actor('BUSINESS_ADMIN'))).toBe(false);
    expect(canDecide({ ...pending, status: 'APPROVED' }, actor('BUSINESS_ADMIN'))).toBe(false);
  });

  it('card requests: the §6 card approvers (admin, manager, bookkeeper), never one\'s own request', () => {
    const request = { status: 'PENDING' as const, user_id: OTHER, object_type: 'card_request' as const };
    expect(canDecide(request, actor('BUSINESS_ADMIN'))).toBe(true);
    expect(canDecide(request, actor('BUSINESS_BOOKKEEPER'))).toBe(true);
    expect(canDecide(request, actor('BUSINESS_USER', true))).toBe(true);
    expect(canDecide(request, actor('BUSINESS_USER'))).toBe(false);
    expect(canDecide({ ...request, user_id: ME }, actor('BUSINESS_USER', true))).toBe(false);
    expect(canDecide({ ...request, status: 'CANCELED' }, actor('BUSINESS_ADMIN'))).toBe(false);
  });
});

describe('paymentMethods', () => {
  it('offers payroll only to a claimant with a payroll currency (or when this device cannot know)', () => {
    expect(paymentMethods({ payroll_currency: 'USD' })).toEqual(['ACH', 'PAYROLL']);
    expect(paymentMethods({ payroll_currency: null })).toEqual(['ACH']);
    expect(paymentMethods({})).toEqual(['ACH', 'PAYROLL']);
    expect(paymentMethods(undefined)).toEqual(['ACH', 'PAYROLL']);
  });
});
