/**
 * What the spec names and the product does not build yet, each with the issue that will build it:
 * the one place this is written. docs/coverage.md is generated from it (npm run coverage:doc), and
 * schema/api/coverage.test.ts fails on a spec call, role rule helper, token scope or error code
 * that is neither served nor used nor listed here, and on an entry here that is stale (served or
 * used already, or naming nothing the spec or schema still has).
 */

export const PLANNED_ISSUES = {
  27: 'Travel: trips, booking, travel policy',
  28: 'Procurement: spend requests, allocations, purchase orders',
  29: 'Policies and workflows: expense policies, missing items, workflows, delegation, notifications',
  30: 'Treasury: ledger, wallet, transfers, banking links, flex',
  31: 'Surfaces: advisor console, vendor portal and network, financing application',
  32: 'Integrations and platform: SCIM, API clients, mail, HRIS, chat, saved views, statements, flags',
} as const;
export type PlannedIssue = keyof typeof PLANNED_ISSUES;

/** §7 sections no call of which is served yet, wholly the work of one issue. */
export const PLANNED_SECTIONS: Readonly<Record<string, PlannedIssue>> = {
  'Spend requests and purchase orders': 28,
};

/**
 * Spec calls (labelled as schema/api/spec-calls.ts reads §7) not served, by section. A label also
 * in SPEC_SERVED is served in part (the rest is the issue's).
 */
export const PLANNED_CALLS: Readonly<Record<string, Readonly<Record<string, PlannedIssue>>>> = {
  'Vendors and vendor network': {
    // Issue 31 decided (docs/design/issue-31-surfaces.md D8): custom fields, card acceptance,
    // contracts, exemptions and switching are a payer's own vendor records, not the network's.
    'PUT vendor custom-fields and settings': 32,
    'DELETE vendors: card-acceptance business input': 32,
    'DELETE vendors: contracts': 32,
    'DELETE vendors: expense-item exemptions': 32,
  },
  'Banking links': {
    // Served in part by issue 30 (manual-account, statement, debit-check: calls-banking.ts). The
    // aggregator links (moneykit, finicity, teller) are third-party integrations, issue 32's: none
    // is reachable from here, and a link that cannot be proved end to end is not built.
    '/banking/... (manual-account, statement, moneykit, finicity, teller, debit-check)': 32,
    // Verification by document (a bank letter, a portal screenshot) is reviewed by a person outside
    // the business (the provider's operations); issue 30 verifies by the debit check. Issue 32
    // builds the review queue with the integrations' operations side.
    'DELETE banking/bank-verification-letter/{letter}': 32,
    'DELETE banking-portal-screenshot/{shot}': 32,
  },
  'Treasury, wallet, float': {
    // Payroll providers are connected by the HRIS and payroll integrations (issue 32); treasury
    // then forecasts their debits from the operating account.
    'DELETE treasury payroll providers (body)': 32,
  },
  Accounting: {
    '/accounting/providers/{provider_type}/ (csv, disconnect, sync_commit, tracking_categories, accounts, oauth2_callback)': 32,
    'PATCH coding line memo': 32,
    'PATCH tracking-category selection': 32,
    'PATCH advanced rules': 32,
    'PUT coding line amortization-selection': 32,
    'PUT coding by id': 32,
    'PUT remote-bill match': 32,
    'DELETE coding line-items amortization-selection': 32,
    'DELETE memo': 32,
    'DELETE coding/{coding}/line-items': 32,
    'DELETE advanced-rules/{group}': 32,
    'DELETE providers/{provider}/csv-customization/{usage}/{export}': 32,
    'DELETE financial-statements/{statement}': 32,
    'DELETE remote-bills/{transaction}/suggestions': 32,
    'DELETE tracking_categories/{id}': 32,
    'GET coding': 32,
    'GET reconciliation': 32,
    'GET suggested rules': 32,
    'GET deep links': 32,
    'GET remote bills': 32,
  },
  'Users and authentication': {
    'DELETE users/current/add-receipt-upload-email/{id}': 32,
  },
  'Integrations and other': {
    'Uber (DELETE organizations and employees; invite-all uses a query)': 32,
    Amazon: 32,
    'travel receipts': 27,
    'seat-intel': 32,
    'support webform tickets': 32,
    rewards: 32,
    'gift cards': 32,
    clips: 32,
    'incentive offers': 32,
    'compliance (DELETE compliance/{definition}; PUT challenge documents)': 32,
    'price intelligence': 32,
    negotiations: 32,
    'savings insights': 32,
    'merchants (DELETE contracts and receipt exemptions)': 32,
    'guided-intake/threads': 32,
    'mailbox/delete-business-access': 32,
    'opportunity dismiss': 32,
    'dynamics setup': 32,
  },
};

export type PlannedUse = { issue: PlannedIssue; why: string };

/** schema/roles.ts rule helpers nothing calls yet (§6), with the issue whose feature applies them. */
export const PLANNED_ROLE_RULES: Readonly<Record<string, PlannedUse>> = {
};

/** Token scopes (schema/api/scopes.ts) not yet both minted by the server and gating a call. */
export const PLANNED_SCOPES: Readonly<Record<string, PlannedUse>> = {
  'chrome-extension': { issue: 32, why: 'the browser extension signs in for its own token (it already gates its calls)' },
  'ramp-community': { issue: 32, why: 'community sign-on' },
  'ramp-academy': { issue: 32, why: 'learning sign-on' },
};

/** Catalogued error codes (schema/errors.ts) nothing raises yet. */
export const PLANNED_ERRORS: Readonly<Record<string, PlannedUse>> = {
  '6014': { issue: 32, why: 'webinar invitations' },
  ACCESS_7006: { issue: 32, why: 'real accounting provider connections (OAuth)' },
};
