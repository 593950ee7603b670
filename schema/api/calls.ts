import { z } from 'zod';
import { defineCall } from './define-call.ts';
import { ANY_SURFACE } from './scopes.ts';
import { identitySchema } from '../entities/identity.ts';
import { spendUserSchema, userRowSchema } from '../entities/spend-user.ts';
import { departmentSchema } from '../entities/department.ts';
import { locationSchema } from '../entities/location.ts';
import { glAccountSchema } from '../entities/gl-account.ts';
import { trackingCategorySchema } from '../entities/tracking-category.ts';
import { transactionSchema } from '../entities/transaction.ts';
import { businessSchema } from '../entities/business.ts';
import { pageQuerySchema, pagingBodySchema, paginatedSchema } from '../paging.ts';
import { changesQuerySchema, changesResponseSchema } from '../sync-feed.ts';
import { transactionFilterSchema, transactionSortSchema } from '../transaction-query.ts';
import { codingPatchSchema, bulkCodingBodySchema } from '../commands/coding-patch.ts';
import { IDENTITY_CALLS } from './calls-identity.ts';
import { ADMIN_CALLS } from './calls-admin.ts';
import { ORG_CALLS } from './calls-org.ts';
import { BUSINESS_CALLS, identityBusinessesSchema } from './calls-business.ts';
import { REIMBURSEMENT_CALLS } from './calls-reimbursements.ts';
import { REIMBURSEMENT_RATE_CALLS } from './calls-reimbursement-rates.ts';
import { RECEIPT_CALLS } from './calls-receipts.ts';
import { APPROVAL_CALLS } from './calls-approvals.ts';
import { CARD_CALLS } from './calls-cards.ts';
import { APPROVAL_POLICY_CALLS } from './calls-approval-policies.ts';
import { COPILOT_CALLS } from './calls-copilot.ts';
import { VENDOR_CALLS } from './calls-vendors.ts';
import { BILL_CALLS } from './calls-bills.ts';
import { BILL_CARD_MATCH_CALLS } from './calls-bill-card-match.ts';
import { BILL_BULK_CALLS } from './calls-bill-bulk.ts';
import { BILL_RAIL_CALLS } from './calls-bill-rails.ts';
import { PROVISIONAL_BILL_CALLS } from './calls-provisional-bills.ts';
import { BILL_EXTRA_CALLS } from './calls-bill-extras.ts';
import { REPORTING_CALLS } from './calls-reporting.ts';
import { ACCOUNTING_CALLS } from './calls-accounting.ts';
import { SSO_CALLS } from './calls-sso.ts';
import { WEBAUTHN_CALLS } from './calls-webauthn.ts';
import { SUPPORT_ACCESS_CALLS } from './calls-support-access.ts';
import { FRAUD_CALLS } from './calls-fraud.ts';
import { BOOKING_CALLS, TRIP_CALLS } from './calls-travel.ts';
import { BILL_MATCH_CALLS, PURCHASE_ORDER_CALLS, SPEND_BUDGET_CALLS, SPEND_REQUEST_CALLS } from './calls-procurement.ts';
import { EXPENSE_POLICY_CALLS } from './calls-expense-policies.ts';
import { WORKFLOW_CALLS } from './calls-workflows.ts';
import { COMMENT_CALLS } from './calls-comments.ts';
import { NOTIFICATION_CALLS } from './calls-notifications.ts';
import { FLOAT_CALLS } from './calls-float.ts';
import { BANKING_CALLS } from './calls-banking.ts';
import { AUTOMATION_CALLS, TREASURY_CALLS } from './calls-treasury.ts';
import { CARD_AUTOPAY_CALLS } from './calls-card-autopay.ts';
import { SURFACE_CALLS } from './calls-surfaces.ts';
import { EXTERNAL_FIRM_CALLS } from './calls-external-firm.ts';
import { VENDOR_NETWORK_CALLS } from './calls-vendor-network.ts';
import { APPLICATION_CALLS } from './calls-application.ts';
import { FINANCING_START_CALLS } from './calls-financing-starts.ts';
import { HRIS_CALLS } from './calls-hris.ts';
import { SFTP_CALLS } from './calls-sftp.ts';
import { SWITCHING_CALLS } from './calls-switching.ts';
import { DEVELOPER_APP_CALLS } from './calls-developer-apps.ts';
import { TRANSACTION_EXTRA_CALLS } from './calls-transaction-extras.ts';
import { BUSINESS_SETTING_CALLS } from './calls-business-settings.ts';
import { CARD_RENEWAL_CALLS } from './calls-card-renewal.ts';
import { JOB_CALLS } from './calls-jobs.ts';
import { SAVED_VIEW_CALLS } from './calls-saved-views.ts';
import { EXPORT_SETTINGS_CALLS } from './calls-export-settings.ts';
import { CHAT_CALLS } from './calls-chat.ts';
import { PLATFORM_CALLS } from './calls-platform.ts';
import { API_CLIENT_CALLS } from './calls-api-clients.ts';
import { SCIM_CALLS } from './calls-scim.ts';
import { BILL_QUERY_CALLS } from './calls-bill-query.ts';
import { APPROVAL_EVENT_CALLS } from './calls-approval-events.ts';
import { USER_CALLS } from './calls-users.ts';
import { PUSH_CALLS } from './calls-push.ts';

/**
 * The call catalogue: every API call the product makes, declared once. The server registers
 * its routes from these entries; the client's HTTP layer reads the same entry for headers,
 * retry class and the scope gate.
 */
const fullScopes = { scopes: ['default'] } as const;
const lowRisk = { scopes: ['default', 'low-risk'] } as const;
const extension = { scopes: ['default', 'chrome-extension'] } as const;

export const signIn = defineCall({
  id: 'auth.signIn',
  method: 'POST',
  path: '/v1/public/sign-in',
  auth: 'public',
  body: z.object({
    email: z.email().max(320),
    password: z.string().min(1).max(1024),
    /** §3: sign straight into this business when the identity belongs to it (else the §6 default). */
    business_id: z.uuid().optional(),
  }),
  response: z.object({ id_token: z.string(), mfa_required: z.boolean() }),
});

export const signOut = defineCall({
  id: 'users.signOut',
  method: 'POST',
  path: '/v1/auth/users/current/sign-out',
  auth: fullScopes,
  surfaces: ANY_SURFACE,
  body: z.object({}).optional(),
  response: z.object({ ok: z.literal(true) }),
});

export const currentIdentity = defineCall({
  id: 'identity.current',
  method: 'GET',
  path: '/v1/auth/identity',
  auth: extension,
  surfaces: ANY_SURFACE,
  response: z.object({
    identity: identitySchema,
    /** Null on a token of another surface than the main app (issue 31): it acts as no spend user. */
    user: spendUserSchema.nullable(),
    business: businessSchema.nullable(),
    /** Every business the identity has a live spend user in, named for the business switcher. */
    businesses: identityBusinessesSchema.optional(),
  }),
});

const listOf = <Id extends string, T extends z.ZodType>(id: Id, path: string, item: T) =>
  defineCall({
    id,
    method: 'GET',
    path,
    auth: fullScopes,
    retry: 'paged',
    query: pageQuerySchema,
    response: paginatedSchema(item),
  });

export const listDepartments = listOf('departments.list', '/v1/auth/businesses/departments', departmentSchema);
export const listLocations = listOf('locations.list', '/v1/auth/businesses/locations', locationSchema);
export const listGlAccounts = listOf('glAccounts.list', '/v1/auth/accounting/gl-accounts', glAccountSchema);
export const listTrackingCategories = listOf(
  'trackingCategories.list',
  '/v1/auth/accounting/tracking_categories',
  trackingCategorySchema,
);
export const listUsers = listOf('users.list', '/v1/auth/businesses/users', userRowSchema);

/** Keyset list, newest first; `start` is an opaque cursor from page.next. */
export const listTransactions = defineCall({
  id: 'transactions.list',
  method: 'GET',
  path: '/v1/auth/transactions',
  auth: lowRisk,
  retry: 'paged',
  query: pageQuerySchema.extend(transactionFilterSchema.shape),
  response: paginatedSchema(transactionSchema),
});

export const searchTransactions = defineCall({
  id: 'transactions.search',
  method: 'POST',
  path: '/v1/auth/transactions/search',
  auth: lowRisk,
  retry: 'paged',
  // A query in a body: no transaction, no Idempotency-Key (issue 33: three round trips fewer).
  readOnly: true,
  body: z.object({
    filters: transactionFilterSchema.default({}),
    sort: transactionSortSchema.default('occurred_desc'),
    paging: pagingBodySchema.default({ page_size: 50 }),
    include_count: z.boolean().default(false),
  }),
  response: paginatedSchema(transactionSchema),
});

const transactionParams = z.object({ transaction_canonical_uuid: z.uuid() });

export const getTransaction = defineCall({
  id: 'transactions.get',
  method: 'GET',
  path: '/v1/auth/transactions/:transaction_canonical_uuid',
  auth: lowRisk,
  params: transactionParams,
  response: transactionSchema,
});

export const patchTransaction = defineCall({
  id: 'transactions.patch',
  method: 'PATCH',
  path: '/v1/auth/transactions/:transaction_canonical_uuid',
  // §6: the missing-items token may set the memo and coding of the holder's own transaction.
  auth: { scopes: ['default', 'low-risk', 'missing-items'] },
  params: transactionParams,
  body: codingPatchSchema,
  response: transactionSchema,
});

/** Atomic: every listed transaction is coded, or none is. */
export const bulkCodeTransactions = defineCall({
  id: 'transactions.bulkCode',
  method: 'PATCH',
  path: '/v1/auth/accounting/coding/bulk-update',
  auth: lowRisk,
  body: bulkCodingBodySchema,
  response: z.object({ updated: z.number().int().nonnegative(), change_seq: z.number().int() }),
});

export const syncChanges = defineCall({
  id: 'sync.changes',
  method: 'GET',
  path: '/v1/auth/sync/changes',
  auth: fullScopes,
  retry: 'paged',
  query: changesQuerySchema,
  response: changesResponseSchema,
});

/** Server-sent events announcing the newest change seq; read with fetch (headers carry the token). */
export const syncStream = defineCall({
  id: 'sync.stream',
  method: 'GET',
  path: '/v1/auth/sync/stream',
  auth: fullScopes,
  retry: 'stream',
  response: z.string(),
});

export const CATALOGUE = [
  signIn,
  signOut,
  currentIdentity,
  listDepartments,
  listLocations,
  listGlAccounts,
  listTrackingCategories,
  listUsers,
  listTransactions,
  searchTransactions,
  getTransaction,
  patchTransaction,
  bulkCodeTransactions,
  syncChanges,
  syncStream,
  ...IDENTITY_CALLS,
  ...WEBAUTHN_CALLS,
  ...ADMIN_CALLS,
  ...ORG_CALLS,
  ...BUSINESS_CALLS,
  ...REIMBURSEMENT_CALLS,
  ...REIMBURSEMENT_RATE_CALLS,
  ...RECEIPT_CALLS,
  ...APPROVAL_CALLS,
  ...CARD_CALLS,
  ...APPROVAL_POLICY_CALLS,
  ...COPILOT_CALLS,
  ...VENDOR_CALLS,
  ...BILL_CALLS,
  ...BILL_RAIL_CALLS,
  ...BILL_BULK_CALLS,
  ...PROVISIONAL_BILL_CALLS,
  ...BILL_EXTRA_CALLS,
  ...REPORTING_CALLS,
  ...ACCOUNTING_CALLS,
  ...SSO_CALLS,
  ...SUPPORT_ACCESS_CALLS,
  ...FRAUD_CALLS,
  ...BOOKING_CALLS,
  ...TRIP_CALLS,
  ...PURCHASE_ORDER_CALLS,
  ...SPEND_REQUEST_CALLS,
  ...SPEND_BUDGET_CALLS,
  ...BILL_MATCH_CALLS,
  ...BILL_CARD_MATCH_CALLS,
  ...EXPENSE_POLICY_CALLS,
  ...WORKFLOW_CALLS,
  ...COMMENT_CALLS,
  ...NOTIFICATION_CALLS,
  ...FLOAT_CALLS,
  ...AUTOMATION_CALLS,
  ...BANKING_CALLS,
  ...TREASURY_CALLS,
  ...CARD_AUTOPAY_CALLS,
  ...SURFACE_CALLS,
  ...EXTERNAL_FIRM_CALLS,
  ...VENDOR_NETWORK_CALLS,
  ...APPLICATION_CALLS,
  ...FINANCING_START_CALLS,
  ...SCIM_CALLS,
  ...API_CLIENT_CALLS,
  ...PLATFORM_CALLS,
  ...CHAT_CALLS,
  ...SAVED_VIEW_CALLS,
  ...JOB_CALLS,
  ...HRIS_CALLS,
  ...EXPORT_SETTINGS_CALLS,
  ...SFTP_CALLS,
  ...SWITCHING_CALLS,
  ...BILL_QUERY_CALLS,
  ...APPROVAL_EVENT_CALLS,
  ...DEVELOPER_APP_CALLS,
  ...TRANSACTION_EXTRA_CALLS,
  ...USER_CALLS,
  ...PUSH_CALLS,
  ...BUSINESS_SETTING_CALLS,
  ...CARD_RENEWAL_CALLS,
] as const;
