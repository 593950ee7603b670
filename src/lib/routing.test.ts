import { describe, expect, it } from 'vitest';
import type { SpendUser } from '../../schema/entities/spend-user.ts';
import { canReviewReimbursements } from '../../schema/roles.ts';
import { visibleNav, type NavItem } from './routing.ts';

const NAV: NavItem[] = [
  { to: '/transactions', label: 'Transactions' },
  { to: '/approvals', label: 'Approvals', visible: canReviewReimbursements },
];
const user = (role: string, is_manager = false) => ({ id: 'u', role, is_manager, user_permissions: [] }) as unknown as SpendUser;

describe('visibleNav', () => {
  it('shows an entry with a rule only to the users it allows (Approvals: reviewers)', () => {
    const labels = (u: SpendUser | null) => visibleNav(NAV, u).map((i) => i.label);
    expect(labels(user('BUSINESS_ADMIN'))).toEqual(['Transactions', 'Approvals']);
    expect(labels(user('BUSINESS_BOOKKEEPER'))).toEqual(['Transactions', 'Approvals']);
    expect(labels(user('BUSINESS_USER', true))).toEqual(['Transactions', 'Approvals']);
    expect(labels(user('BUSINESS_USER'))).toEqual(['Transactions']);
    expect(labels(user('AUDITOR'))).toEqual(['Transactions']);
    expect(labels(null)).toEqual(['Transactions']);
  });

  it('also shows an entry its hook answers for (Approvals to a person a chain names, while decisions wait)', () => {
    expect(visibleNav(NAV, user('BUSINESS_USER'), '/approvals').map((i) => i.label)).toEqual(['Transactions', 'Approvals']);
    expect(visibleNav(NAV, user('BUSINESS_USER'), '/elsewhere').map((i) => i.label)).toEqual(['Transactions']);
  });
});
