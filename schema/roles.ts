import { z } from 'zod';

export const ROLES = [
  'BUSINESS_ADMIN',
  'BUSINESS_USER',
  'BUSINESS_OWNER',
  'BUSINESS_BOOKKEEPER',
  'GUEST_USER',
  'IT_ADMIN',
  'AUDITOR',
  'DEVELOPER_ADMIN',
  'VENDOR_NETWORK_ADMIN',
  'ADVISOR_CONSOLE_ADMIN',
  'ADVISOR_CONSOLE_USER',
  'PRESALES_DEMO_USER',
  'UNBUNDLED_OWNER',
  'UNBUNDLED_ADMIN',
  'UNBUNDLED_BOOKKEEPER',
  'UNBUNDLED_USER',
] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

const DISPLAY_NAMES: Record<Role, string> = {
  BUSINESS_ADMIN: 'Administrator',
  BUSINESS_USER: 'Employee',
  BUSINESS_OWNER: 'Owner',
  BUSINESS_BOOKKEEPER: 'Bookkeeper',
  GUEST_USER: 'Guest',
  IT_ADMIN: 'IT admin',
  AUDITOR: 'Auditor',
  DEVELOPER_ADMIN: 'Developer admin',
  VENDOR_NETWORK_ADMIN: 'Vendor Network admin',
  // §6 names these roles without a display name; we show them plainly.
  ADVISOR_CONSOLE_ADMIN: 'Advisor console admin',
  ADVISOR_CONSOLE_USER: 'Advisor console user',
  PRESALES_DEMO_USER: 'demo user',
  UNBUNDLED_OWNER: 'Owner',
  UNBUNDLED_ADMIN: 'Admin',
  UNBUNDLED_BOOKKEEPER: 'Bookkeeper',
  UNBUNDLED_USER: 'User',
};

/** The user facts the §6 rules read. */
export interface Actor {
  id: string;
  role: string;
  is_manager: boolean;
  user_permissions: readonly string[];
  external_firm?: { uuid: string; id: string } | null;
  external_firm_role?: string | null;
  has_finished_onboarding?: boolean;
  is_business_locked?: boolean;
  acting_user_is_in_reporting_chain?: boolean;
  business_id?: string;
}

export const isRole = (role: string): role is Role => (ROLES as readonly string[]).includes(role);

/** §6: employee or bookkeeper flagged is_manager shows as Manager; unknown roles show Unknown. */
export function roleDisplayName(role: string, isManager = false): string {
  if (isManager && (role === 'BUSINESS_USER' || role === 'BUSINESS_BOOKKEEPER')) return 'Manager';
  return isRole(role) ? DISPLAY_NAMES[role] : 'Unknown';
}

export const isAdmin = (u: Pick<Actor, 'role'>) =>
  u.role === 'BUSINESS_ADMIN' || u.role === 'BUSINESS_OWNER';
/**
 * Issue 32: who connects the business's integrations (SCIM, HRIS, Slack and Teams): an admin or
 * the IT admin. API clients and developer applications: an admin or the developer admin.
 */
export const canManageIntegrations = (u: Pick<Actor, 'role'>) => isAdmin(u) || u.role === 'IT_ADMIN';
export const canManageApiClients = (u: Pick<Actor, 'role'>) => isAdmin(u) || u.role === 'DEVELOPER_ADMIN';
export const isBookkeeper = (u: Pick<Actor, 'role'>) => u.role === 'BUSINESS_BOOKKEEPER';
export const isManager = (u: Pick<Actor, 'is_manager'>) => u.is_manager;
export const isApClerk = (u: Pick<Actor, 'user_permissions'>) =>
  u.user_permissions.includes('AP_ACCESS');

export const canReviewReimbursements = (u: Actor) => isAdmin(u) || isManager(u) || isBookkeeper(u);
export const canApproveCards = canReviewReimbursements;
export const canIssueCards = (u: Actor) => isAdmin(u) || isManager(u);
export const canCreateSpendAllocations = canIssueCards;
export const canViewFinancingDetails = (u: Actor) => isAdmin(u) || isApClerk(u);
export const canManageBillPayAccounting = (u: Actor) =>
  isAdmin(u) || isApClerk(u) || isBookkeeper(u);
export const canUseFlexBills = (u: Actor, business: { ap_clerks_can_flex: boolean }) =>
  isAdmin(u) || (isApClerk(u) && business.ap_clerks_can_flex);
export const canRequestSpendForOthers = (u: Actor) => isManager(u) || isBookkeeper(u);
/** Non-admin managers and AP clerks may issue only to their own team. */
export const isIssuingRestrictedToTeam = (u: Actor) => !isAdmin(u) && (isManager(u) || isApClerk(u));
export const canViewReferrals = (u: Actor) => !u.external_firm;
export const canUseCopilot = (u: Actor) => u.user_permissions.includes('COPILOT');
export const isCardholder = (u: Actor) => u.role === 'BUSINESS_USER' && !u.is_manager;
export const isSelfOrInReportingChain = (actor: Actor, targetUserId: string) =>
  actor.id === targetUserId || actor.acting_user_is_in_reporting_chain === true;
export const isHiddenSpendUser = (u: Pick<Actor, 'role'>) =>
  u.role === 'VENDOR_NETWORK_ADMIN' ||
  u.role === 'ADVISOR_CONSOLE_ADMIN' ||
  u.role === 'ADVISOR_CONSOLE_USER';
export const isFirmAdmin = (u: Pick<Actor, 'external_firm_role'>) =>
  u.external_firm_role === 'EXTERNAL_FIRM_ADMIN';
export const canAccessVendorPortal = (users: readonly Pick<Actor, 'role'>[]) =>
  users.some((u) => u.role === 'VENDOR_NETWORK_ADMIN');
export const isEligibleForPayrollReimbursement = (u: { payroll_currency: string | null }) =>
  u.payroll_currency !== null;

/**
 * §6 default spend user: the one matching the stored business id; else the first non-firm,
 * onboarded, unlocked, non-hidden user; else the first approved (accepted agreement) one. A hidden
 * spend user (a firm's or a vendor network admin's user in a business) is never the default, by
 * any of the three (issue 31: it is reached only through its own surface).
 */
export function defaultSpendUser<
  U extends Actor & { business_id: string; has_accepted_cardholder_agreement?: boolean },
>(users: readonly U[], storedBusinessId: string | null): U | undefined {
  const shown = users.filter((u) => !isHiddenSpendUser(u));
  if (storedBusinessId) {
    const stored = shown.find((u) => u.business_id === storedBusinessId);
    if (stored) return stored;
  }
  return (
    shown.find((u) => !u.external_firm && u.has_finished_onboarding !== false && !u.is_business_locked) ??
    shown.find((u) => u.has_accepted_cardholder_agreement)
  );
}

/** The roles of a firm user's hidden spend user in a client (issue 31). */
export const ADVISOR_ROLES = ['ADVISOR_CONSOLE_ADMIN', 'ADVISOR_CONSOLE_USER'] as const;
/** A role read from storage (any string) is an advisor's. */
export const isAdvisorRole = (role: string) => (ADVISOR_ROLES as readonly string[]).includes(role);
/** A firm user's hidden spend user in a client (issue 31): reads business-wide; what it may change is its authorization's. */
export const isAdvisor = (u: Pick<Actor, 'role'>) => isAdvisorRole(u.role);

/**
 * Which transactions a user mirrors and may read: admins, owners, bookkeepers, auditors and a
 * firm's advisors see the business; a manager adds their reports' cards; everyone sees their own.
 */
export type TransactionVisibility = { kind: 'business' } | { kind: 'users'; userIds: string[] };
export function canSeeAllTransactions(u: Pick<Actor, 'role'>): boolean {
  return isAdmin(u) || isBookkeeper(u) || u.role === 'AUDITOR' || u.role === 'IT_ADMIN' || isAdvisor(u);
}

/** Coding a transaction: the business-wide roles code anything; others code what they can see. */
export function canCodeTransactions(u: Pick<Actor, 'role'>): boolean {
  return u.role !== 'AUDITOR' && u.role !== 'GUEST_USER';
}
