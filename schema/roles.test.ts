import { describe, expect, it } from 'vitest';
import {
  canAccessVendorPortal,
  canApproveCards,
  canCodeTransactions,
  canCreateSpendAllocations,
  canIssueCards,
  canManageBillPayAccounting,
  canRequestSpendForOthers,
  canReviewReimbursements,
  canSeeAllTransactions,
  canUseCopilot,
  canUseFlexBills,
  canViewFinancingDetails,
  canViewReferrals,
  defaultSpendUser,
  isAdmin,
  isCardholder,
  isEligibleForPayrollReimbursement,
  isFirmAdmin,
  isHiddenSpendUser,
  isIssuingRestrictedToTeam,
  isSelfOrInReportingChain,
  roleDisplayName,
  type Actor,
} from './roles.ts';

const actor = (over: Partial<Actor> = {}): Actor => ({
  id: 'u1',
  role: 'BUSINESS_USER',
  is_manager: false,
  user_permissions: [],
  external_firm: null,
  ...over,
});
const admin = actor({ role: 'BUSINESS_ADMIN' });
const owner = actor({ role: 'BUSINESS_OWNER' });
const bookkeeper = actor({ role: 'BUSINESS_BOOKKEEPER' });
const manager = actor({ is_manager: true });
const employee = actor();
const apClerk = actor({ user_permissions: ['AP_ACCESS'] });
const auditor = actor({ role: 'AUDITOR' });

describe('roleDisplayName', () => {
  it.each([
    ['BUSINESS_ADMIN', false, 'Administrator'],
    ['BUSINESS_USER', false, 'Employee'],
    ['BUSINESS_USER', true, 'Manager'],
    ['BUSINESS_BOOKKEEPER', true, 'Manager'],
    ['BUSINESS_BOOKKEEPER', false, 'Bookkeeper'],
    ['BUSINESS_ADMIN', true, 'Administrator'],
    ['BUSINESS_OWNER', false, 'Owner'],
    ['GUEST_USER', false, 'Guest'],
    ['IT_ADMIN', false, 'IT admin'],
    ['AUDITOR', false, 'Auditor'],
    ['DEVELOPER_ADMIN', false, 'Developer admin'],
    ['VENDOR_NETWORK_ADMIN', false, 'Vendor Network admin'],
    ['PRESALES_DEMO_USER', false, 'demo user'],
    ['UNBUNDLED_OWNER', false, 'Owner'],
    ['UNBUNDLED_ADMIN', false, 'Admin'],
    ['UNBUNDLED_BOOKKEEPER', false, 'Bookkeeper'],
    ['UNBUNDLED_USER', false, 'User'],
    ['SOMETHING_NEW', false, 'Unknown'],
  ])('%s (manager=%s) shows as %s', (role, isManager, name) => {
    expect(roleDisplayName(role, isManager)).toBe(name);
  });
});

describe('§6 permission rules', () => {
  const table: [string, (a: Actor) => boolean, Actor[], Actor[]][] = [
    ['admin', isAdmin, [admin, owner], [bookkeeper, manager, employee, auditor]],
    ['review reimbursements', canReviewReimbursements, [admin, owner, manager, bookkeeper], [employee, apClerk, auditor]],
    ['approve cards', canApproveCards, [admin, manager, bookkeeper], [employee, auditor]],
    ['issue cards', canIssueCards, [admin, owner, manager], [bookkeeper, employee, apClerk]],
    ['create spend allocations', canCreateSpendAllocations, [admin, manager], [bookkeeper, employee]],
    ['view financing details', canViewFinancingDetails, [admin, owner, apClerk], [bookkeeper, manager, employee]],
    ['manage bill pay accounting', canManageBillPayAccounting, [admin, apClerk, bookkeeper], [manager, employee]],
    ['request spend for others', canRequestSpendForOthers, [manager, bookkeeper], [admin, employee]],
    ['issuing restricted to team', isIssuingRestrictedToTeam, [manager, apClerk], [admin, owner, employee]],
    ['referrals', canViewReferrals, [admin, employee], [actor({ external_firm: { uuid: 'f', id: '1' } })]],
    ['copilot', canUseCopilot, [actor({ user_permissions: ['COPILOT'] })], [admin, employee]],
    ['cardholder', isCardholder, [employee], [manager, admin, bookkeeper]],
    ['hidden spend user', isHiddenSpendUser, [actor({ role: 'VENDOR_NETWORK_ADMIN' }), actor({ role: 'ADVISOR_CONSOLE_ADMIN' }), actor({ role: 'ADVISOR_CONSOLE_USER' })], [admin, employee]],
    ['firm admin', (a) => isFirmAdmin(a), [actor({ external_firm_role: 'EXTERNAL_FIRM_ADMIN' })], [actor({ external_firm_role: 'EXTERNAL_FIRM_USER' }), admin]],
    ['sees all transactions', canSeeAllTransactions, [admin, owner, bookkeeper, auditor], [manager, employee]],
    ['codes transactions', canCodeTransactions, [admin, bookkeeper, manager, employee], [auditor, actor({ role: 'GUEST_USER' })]],
  ];
  for (const [name, rule, yes, no] of table) {
    it(name, () => {
      for (const a of yes) expect(rule(a), `${a.role} ${JSON.stringify(a.user_permissions)}`).toBe(true);
      for (const a of no) expect(rule(a), `${a.role} ${JSON.stringify(a.user_permissions)}`).toBe(false);
    });
  }

  it('flex bills: admin always, AP clerk only when the business allows it', () => {
    expect(canUseFlexBills(admin, { ap_clerks_can_flex: false })).toBe(true);
    expect(canUseFlexBills(apClerk, { ap_clerks_can_flex: false })).toBe(false);
    expect(canUseFlexBills(apClerk, { ap_clerks_can_flex: true })).toBe(true);
    expect(canUseFlexBills(employee, { ap_clerks_can_flex: true })).toBe(false);
  });

  it('self or in reporting chain', () => {
    expect(isSelfOrInReportingChain(actor({ id: 'a' }), 'a')).toBe(true);
    expect(isSelfOrInReportingChain(actor({ id: 'a' }), 'b')).toBe(false);
    expect(isSelfOrInReportingChain(actor({ id: 'a', acting_user_is_in_reporting_chain: true }), 'b')).toBe(true);
  });

  it('vendor portal needs a vendor network admin user; payroll needs a currency', () => {
    expect(canAccessVendorPortal([employee, actor({ role: 'VENDOR_NETWORK_ADMIN' })])).toBe(true);
    expect(canAccessVendorPortal([employee, admin])).toBe(false);
    expect(isEligibleForPayrollReimbursement({ payroll_currency: 'USD' })).toBe(true);
    expect(isEligibleForPayrollReimbursement({ payroll_currency: null })).toBe(false);
  });
});

describe('defaultSpendUser', () => {
  const u = (id: string, over: Partial<Actor & { has_accepted_cardholder_agreement: boolean }> = {}) => ({
    ...actor({ id, business_id: `b-${id}`, has_finished_onboarding: true, is_business_locked: false }),
    business_id: `b-${id}`,
    has_accepted_cardholder_agreement: false,
    ...over,
  });
  it('prefers the stored business', () => {
    expect(defaultSpendUser([u('1'), u('2')], 'b-2')?.id).toBe('2');
  });
  it('else the first non-firm, onboarded, unlocked, non-hidden user', () => {
    const users = [
      u('firm', { external_firm: { uuid: 'f', id: '1' } }),
      u('new', { has_finished_onboarding: false }),
      u('locked', { is_business_locked: true }),
      u('hidden', { role: 'VENDOR_NETWORK_ADMIN' }),
      u('ok'),
    ];
    expect(defaultSpendUser(users, 'b-missing')?.id).toBe('ok');
  });
  it('else the first approved one', () => {
    const users = [
      u('firm', { external_firm: { uuid: 'f', id: '1' } }),
      u('locked', { is_business_locked: true, has_accepted_cardholder_agreement: true }),
    ];
    expect(defaultSpendUser(users, null)?.id).toBe('locked');
  });
  it('none at all', () => {
    expect(defaultSpendUser([u('firm', { external_firm: { uuid: 'f', id: '1' } })], null)).toBeUndefined();
  });
});
