import type { CallDef } from './define-call.ts';

/**
 * Issue 32: the scopes of a customer API client's access token (OAuth 2.0 client credentials),
 * `resource:read` / `resource:write`. A client acts with its creating admin's rights narrowed to
 * these: a call is reachable only when `apiScopeOf(call)` names a scope the token was granted.
 * `write` does not imply `read` (a client that only files receipts need not read the ledger).
 */
export const API_RESOURCES = [
  'transactions', 'cards', 'receipts', 'reimbursements', 'bills', 'vendors', 'users', 'departments',
  'locations', 'accounting', 'reports', 'statements', 'business', 'procurement', 'policies',
] as const;
export type ApiResource = (typeof API_RESOURCES)[number];
export const API_SCOPES = API_RESOURCES.flatMap((r) => [`${r}:read`, `${r}:write`] as const);
export type ApiScope = `${ApiResource}:${'read' | 'write'}`;
export const isApiScope = (s: string): s is ApiScope => (API_SCOPES as readonly string[]).includes(s);

/** What each resource covers, as the client page shows it next to the checkboxes. */
export const API_RESOURCE_LABELS: Record<ApiResource, { label: string; covers: string }> = {
  transactions: { label: 'Transactions', covers: 'Card transactions, their coding and exports' },
  cards: { label: 'Cards', covers: 'Cards, card requests and spend limits' },
  receipts: { label: 'Receipts', covers: 'Receipt files and attaching them to transactions' },
  reimbursements: { label: 'Reimbursements', covers: 'Claims and mileage rates (never paying them out)' },
  bills: { label: 'Bills', covers: 'Bills, templates, credits and recurring bills (never paying them)' },
  vendors: { label: 'Vendors', covers: 'Vendors and their contacts and documents (never bank details)' },
  users: { label: 'Users', covers: 'People: invite, edit, suspend (never change a role)' },
  departments: { label: 'Departments', covers: 'Departments and their owners' },
  locations: { label: 'Locations', covers: 'Locations and their owners' },
  accounting: { label: 'Accounting', covers: 'GL accounts, tracking categories, sync commits, mapping rules' },
  reports: { label: 'Reports', covers: 'Reports, dashboards and report exports' },
  statements: { label: 'Statements', covers: 'Monthly card and business statements' },
  business: { label: 'Business', covers: 'Entities, merchant restrictions, notification threshold' },
  procurement: { label: 'Procurement', covers: 'Spend requests, purchase orders and item receipts' },
  policies: { label: 'Policies', covers: 'Expense policies and approval policies' },
};

/**
 * Calls no API client ever makes, whatever its scopes: they move money out of the business
 * (payments, transfers, payouts), change who may do what (roles, AP clerks), or only make sense
 * for a person at the app (simulations). Paying is an admin's act with step-up in the app.
 */
const NEVER = new Set<string>([
  'bills.bulk.payNow', 'bills.bulk.retryPayment', 'bills.reversePayment', 'bills.payments.voidCheck',
  'reimbursements.payAch', 'reimbursements.cancelPayment',
  'admin.users.changeRole', 'admin.apClerks.remove', 'cards.simulate',
  'accounting.connect', 'accounting.disconnect',
]);

/** Id prefixes → resource (the first that matches wins, so the narrower come first). */
const RESOURCE_RULES: readonly (readonly [string, ApiResource])[] = [
  ['transactions.attachReceipt', 'receipts'],
  ['transactions.detachReceipt', 'receipts'],
  ['transactions.', 'transactions'],
  ['receipts.', 'receipts'],
  ['cards.', 'cards'],
  ['cardRequests.', 'cards'],
  ['spendAllocations.', 'cards'],
  ['reimbursements.', 'reimbursements'],
  ['reimbursementRates.', 'reimbursements'],
  ['admin.reimbursementRates.', 'reimbursements'],
  ['bills.', 'bills'],
  ['vendors.', 'vendors'],
  ['users.list', 'users'],
  ['admin.users.', 'users'],
  ['departments.', 'departments'],
  ['admin.departments.', 'departments'],
  ['locations.', 'locations'],
  ['admin.locations.', 'locations'],
  ['glAccounts.', 'accounting'],
  ['trackingCategories.', 'accounting'],
  ['accounting.', 'accounting'],
  ['reporting.', 'reports'],
  ['statements.', 'statements'],
  ['entities.', 'business'],
  ['admin.entities.', 'business'],
  ['businesses.merchantRestrictions.', 'business'],
  ['admin.merchantRestrictions.', 'business'],
  ['admin.notifyThreshold.', 'business'],
  ['spendRequests.', 'procurement'],
  ['spendIntents.', 'procurement'],
  ['purchaseOrders.', 'procurement'],
  ['itemReceipts.', 'procurement'],
  ['expensePolicies.', 'policies'],
  ['admin.approvalPolicies.', 'policies'],
  ['admin.approvalGroups.', 'policies'],
];

/** POSTs that only ask a question (a search, a check, a simulation): reading, not writing. */
const READING_POSTS = new Set<string>([
  'transactions.search', 'reimbursements.duplicates', 'admin.approvalPolicies.simulate', 'bills.checkDuplicateInvoice',
  'bills.expectedSettlementDate', 'reporting.generateReport',
]);

/** Vendor bank details: §6 `sensitive`, so never an API client's (no step-up without a person). */
const isBankDetail = (call: Pick<CallDef, 'id'>) => call.id.startsWith('vendors.bankAccount.');

/**
 * The API scope a call needs, or null when no API client may make it: anything that is not a
 * main-app call of the `default` scope (sign-in, MFA, step-up, webauthn, the §6 sensitive calls,
 * public calls, other surfaces), the signed-in person's own things (`/users/current/…`: sessions,
 * favourites, preferences, missing items), identity and access (SSO, support access, firms,
 * impersonation, API clients themselves), the mirror's sync feed, and NEVER above. A call no rule
 * names is null too, so a new call is closed to API clients until someone decides otherwise.
 */
export function apiScopeOf(call: Pick<CallDef, 'id' | 'method' | 'path' | 'auth' | 'surfaces' | 'readOnly'>): ApiScope | null {
  if (call.auth.kind !== 'scopes' || !call.auth.scopes.includes('default')) return null;
  if (!call.surfaces.includes('BUSINESS')) return null;
  if (call.path.includes('/users/current/') || NEVER.has(call.id) || isBankDetail(call)) return null;
  const rule = RESOURCE_RULES.find(([prefix]) => call.id === prefix || (prefix.endsWith('.') && call.id.startsWith(prefix)));
  if (!rule) return null;
  const reads = call.method === 'GET' || call.readOnly || READING_POSTS.has(call.id);
  return `${rule[1]}:${reads ? 'read' : 'write'}`;
}
