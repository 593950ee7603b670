/**
 * What the spec names and the product does not build yet, each with the issue that will build it:
 * the one place this is written. docs/coverage.md is generated from it (npm run coverage:doc), and
 * schema/api/coverage.test.ts fails on a spec call, role rule helper, token scope or error code
 * that is neither served nor used nor listed here, and on an entry here that is stale (served or
 * used already, or naming nothing the spec or schema still has).
 */

export const PLANNED_ISSUES = {
  unfiled: 'Not scheduled: each wants an issue of its own, none is filed yet (groups, reasons and order: docs/design/unscheduled.md)',
  'not applicable': 'Named by the spec, reached by none of its calls: kept in the catalogue, raised by nothing (the reason beside it)',
} as const;
export type PlannedIssue = keyof typeof PLANNED_ISSUES;

/** §7 sections no call of which is served yet, wholly the work of one issue. */
export const PLANNED_SECTIONS: Readonly<Record<string, PlannedIssue>> = {
  // Issue 28 closed with these four deletes and allocation adds unbuilt (docs/design/unscheduled.md).
  'Spend requests and purchase orders': 'unfiled',
};

/**
 * Spec calls (labelled as schema/api/spec-calls.ts reads §7) not served, by section. A label also
 * in SPEC_SERVED is served in part (the rest is the issue's).
 */
export const PLANNED_CALLS: Readonly<Record<string, Readonly<Record<string, PlannedIssue>>>> = {
  'Vendors and vendor network': {
    // Issue 31 decided (docs/design/issue-31-surfaces.md D8): custom fields, card acceptance,
    // contracts, exemptions and switching are a payer's own vendor records, not the network's.
    'PUT vendor custom-fields and settings': 'unfiled',
    'DELETE vendors: card-acceptance business input': 'unfiled',
    'DELETE vendors: contracts': 'unfiled',
    'DELETE vendors: expense-item exemptions': 'unfiled',
  },
  'Banking links': {
    // Served in part by issue 30 (manual-account, statement, debit-check: calls-banking.ts). The
    // aggregator links (moneykit, finicity, teller) are third-party integrations (group C): none is
    // reachable from here, and a link that cannot be proved end to end is not built.
    '/banking/... (manual-account, statement, moneykit, finicity, teller, debit-check)': 'unfiled',
    // Verification by document (a bank letter, a portal screenshot) is reviewed by a person outside
    // the business (the provider's operations); issue 30 verifies by the debit check. The review
    // queue belongs with the operations side of group C.
    'DELETE banking/bank-verification-letter/{letter}': 'unfiled',
    'DELETE banking-portal-screenshot/{shot}': 'unfiled',
  },
  'Treasury, wallet, float': {
    // Payroll providers (group C) are a connection of their own beside the HRIS one; treasury
    // then forecasts their debits from the operating account.
    'DELETE treasury payroll providers (body)': 'unfiled',
  },
  Accounting: {
    '/accounting/providers/{provider_type}/ (csv, disconnect, sync_commit, tracking_categories, accounts, oauth2_callback)': 'unfiled',
    'PATCH coding line memo': 'unfiled',
    'PATCH tracking-category selection': 'unfiled',
    'PATCH advanced rules': 'unfiled',
    'PUT coding line amortization-selection': 'unfiled',
    'PUT coding by id': 'unfiled',
    'PUT remote-bill match': 'unfiled',
    'DELETE coding line-items amortization-selection': 'unfiled',
    'DELETE memo': 'unfiled',
    'DELETE coding/{coding}/line-items': 'unfiled',
    'DELETE advanced-rules/{group}': 'unfiled',
    'DELETE providers/{provider}/csv-customization/{usage}/{export}': 'unfiled',
    'DELETE financial-statements/{statement}': 'unfiled',
    'DELETE remote-bills/{transaction}/suggestions': 'unfiled',
    'DELETE tracking_categories/{id}': 'unfiled',
    'GET coding': 'unfiled',
    'GET reconciliation': 'unfiled',
    'GET suggested rules': 'unfiled',
    'GET deep links': 'unfiled',
    'GET remote bills': 'unfiled',
  },
  'Users and authentication': {
    'DELETE users/current/add-receipt-upload-email/{id}': 'unfiled',
  },
  'Integrations and other': {
    'Uber (DELETE organizations and employees; invite-all uses a query)': 'unfiled',
    Amazon: 'unfiled',
    'travel receipts': 'unfiled',
    'seat-intel': 'unfiled',
    'support webform tickets': 'unfiled',
    rewards: 'unfiled',
    'gift cards': 'unfiled',
    clips: 'unfiled',
    'incentive offers': 'unfiled',
    'compliance (DELETE compliance/{definition}; PUT challenge documents)': 'unfiled',
    'price intelligence': 'unfiled',
    negotiations: 'unfiled',
    'savings insights': 'unfiled',
    'merchants (DELETE contracts and receipt exemptions)': 'unfiled',
    'guided-intake/threads': 'unfiled',
    'mailbox/delete-business-access': 'unfiled',
    'opportunity dismiss': 'unfiled',
    'dynamics setup': 'unfiled',
  },
};

export type PlannedUse = { issue: PlannedIssue; why: string };

/** schema/roles.ts rule helpers nothing calls yet (§6), with the issue whose feature applies them. */
export const PLANNED_ROLE_RULES: Readonly<Record<string, PlannedUse>> = {
};

/** Token scopes (schema/api/scopes.ts) not yet both minted by the server and gating a call. */
export const PLANNED_SCOPES: Readonly<Record<string, PlannedUse>> = {
  // Group E: first-party sign-on clients. The authorization server they would use is built
  // (developer applications: code + PKCE, refresh rotation); each client is a product of its own.
  'chrome-extension': { issue: 'unfiled', why: 'the browser extension signs in for its own token (it already gates its calls)' },
  'ramp-community': { issue: 'unfiled', why: 'community sign-on' },
  'ramp-academy': { issue: 'unfiled', why: 'learning sign-on' },
};

/** Catalogued error codes (schema/errors.ts) nothing raises yet. */
export const PLANNED_ERRORS: Readonly<Record<string, PlannedUse>> = {
  '6014': { issue: 'not applicable', why: 'already invited to a webinar: no call of the spec invites anyone to a webinar' },
  ACCESS_7006: { issue: 'unfiled', why: 'live accounting provider connections over OAuth (group B)' },
};
