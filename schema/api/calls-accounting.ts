import { z } from 'zod';
import { defineCall } from './define-call.ts';
import { isoDateTime, uuid } from '../entities/common.ts';
import { mappingRuleInputSchema, mappingRuleSchema } from '../mapping-rules.ts';
import { pageQuerySchema, paginatedSchema } from '../paging.ts';
import { transactionSchema } from '../entities/transaction.ts';

/**
 * Accounting close (issue 12, §7 Accounting), under /v1/auth/accounting. Every call is §6
 * "manage bill pay accounting" (admin, AP clerk, bookkeeper): anyone else is refused 403 before
 * any lookup; another business's ids answer 404.
 *
 * Providers are file-based (no network partner): `csv` (generic), `quickbooks_desktop` (IIF) and
 * `xero_csv` (Xero bank-statement CSV, at most XERO_MAX_LINES lines per file). A **sync commit**
 * takes every coded (GL account set), approved, not-yet-synced item of the business — CLEARED card
 * transactions, APPROVED or PAID reimbursements, APPROVED, SCHEDULED, PAID or RECONCILED bills
 * whose every line has a GL account — into one commit, marks them synced and stores the export
 * files. A bank statement books only money that moved (issue 25): a `xero_csv` commit takes, of
 * those, the bills with a SETTLED payment and the PAID claims whose payment has settled; the rest
 * wait for a later commit. QuickBooks IIF and Xero files are one per currency (Xero: and per
 * statement account), each file's `currency` and `statement_account` say which. Nothing to sync is refused (ACCOUNTING_7303, no empty commit); a commit while another
 * runs for the business is told ACCOUNTING_7302 (409; nothing was done). A synced item refuses
 * coding edits (ACCOUNTING_7301) until `mark-not-synced`.
 */
const scopes = { scopes: ['default'] } as const;
const BASE = '/v1/auth/accounting';

export const ACCOUNTING_PROVIDERS = ['csv', 'quickbooks_desktop', 'xero_csv'] as const;
const accountingProviderSchema = z.enum(ACCOUNTING_PROVIDERS);
export type AccountingProvider = z.infer<typeof accountingProviderSchema>;
/** Xero imports at most 1,000 statement lines per file (issue 12): a fixed limit, not a preference. */
export const XERO_MAX_LINES = 1000;
export const SYNC_OBJECT_TYPES = ['transaction', 'bill', 'reimbursement'] as const;
export type SyncObjectType = (typeof SYNC_OBJECT_TYPES)[number];
/** Items one mark-not-synced call takes. */
const MAX_UNSYNC_ITEMS = 1000;

const accountName = z.string().trim().min(1).max(159).regex(/^[^\t\r\n":]+$/, 'must not contain tabs, line breaks, quotes or colons');

/**
 * How Xero statement files write dates. Xero reads the file's dates in the organisation's own
 * format (Settings → General Settings → Formatting): UK, AU and NZ organisations day first, US ones
 * month first; ISO dates read the same everywhere.
 */
const XERO_DATE_FORMATS = ['DD/MM/YYYY', 'MM/DD/YYYY', 'YYYY-MM-DD'] as const;
export const xeroDateFormatSchema = z.enum(XERO_DATE_FORMATS);
export type XeroDateFormat = z.infer<typeof xeroDateFormatSchema>;

const accountingPreferencesSchema = z.object({
  /** The provider a sync commit without a choice uses (the client's default button). */
  default_provider: accountingProviderSchema.nullable(),
  /** QuickBooks Desktop account names (IIF `ACCNT`) the exports credit. */
  iif_card_account: z.string(),
  iif_ap_account: z.string(),
  iif_reimbursement_account: z.string(),
  xero_max_lines_per_file: z.literal(XERO_MAX_LINES),
  xero_date_format: xeroDateFormatSchema,
});
export type AccountingPreferences = z.infer<typeof accountingPreferencesSchema>;

export const accountingPreferencesPatchSchema = z
  .object({
    default_provider: accountingProviderSchema.nullable().optional(),
    iif_card_account: accountName.optional(),
    iif_ap_account: accountName.optional(),
    iif_reimbursement_account: accountName.optional(),
    xero_date_format: xeroDateFormatSchema.optional(),
  })
  .refine((p) => Object.keys(p).length > 0, { message: 'at least one field must change' });

/**
 * The account a Xero statement file is for (issue 25): `card`, the corporate card's charges and
 * refunds; `bank`, the bank account settled bill payments and claim payments leave.
 */
const SYNC_STATEMENT_ACCOUNTS = ['card', 'bank'] as const;
export type SyncStatementAccount = (typeof SYNC_STATEMENT_ACCOUNTS)[number];

const syncFileSchema = z.object({
  name: z.string(),
  /** The GET that downloads it (same business, signed-in bill-pay manager). */
  url: z.string(),
  content_type: z.string(),
  size: z.number().int().nonnegative(),
  /**
   * The one ISO 4217 currency the file books (IIF and Xero files: one per currency, named with
   * the code); null for the generic CSV, which carries a Currency column, and for files of commits
   * made before issue 25.
   */
  currency: z.string().nullable(),
  /** Xero statement files: the account the statement is for; null for the other formats. */
  statement_account: z.enum(SYNC_STATEMENT_ACCOUNTS).nullable(),
});

export const syncCommitSchema = z.object({
  id: uuid,
  provider_type: accountingProviderSchema,
  created_by: uuid,
  created_at: isoDateTime,
  item_count: z.number().int().positive(),
  files: z.array(syncFileSchema),
});
export type SyncCommit = z.infer<typeof syncCommitSchema>;

export const accountingCurrentSchema = z.object({
  provider: z.object({ provider_type: accountingProviderSchema, connected_at: isoDateTime, connected_by: uuid }).nullable(),
  preferences: accountingPreferencesSchema,
  last_commit: syncCommitSchema.nullable(),
});
export type AccountingCurrent = z.infer<typeof accountingCurrentSchema>;

const providerParams = z.object({ provider_type: accountingProviderSchema });
const commitParams = z.object({ sync_commit_uuid: z.uuid() });
const ruleParams = z.object({ mapping_rule_uuid: z.uuid() });
const seqAnswer = z.object({ updated: z.number().int().nonnegative(), change_seq: z.number().int().nullable() });

export const getAccountingCurrent = defineCall({
  id: 'accounting.current', method: 'GET', path: `${BASE}/current`, auth: scopes, response: accountingCurrentSchema,
});
/** Connects a file-based provider (replacing the one connected, if any). */
export const connectAccountingProvider = defineCall({
  id: 'accounting.connect', method: 'POST', path: `${BASE}/providers/:provider_type/connect`, auth: scopes,
  params: providerParams, body: z.object({}).optional(), response: accountingCurrentSchema,
});
/** Only the connected provider disconnects (ACCOUNTING_7304 otherwise); commits and marks stay. */
export const disconnectAccountingProvider = defineCall({
  id: 'accounting.disconnect', method: 'POST', path: `${BASE}/providers/:provider_type/disconnect`, auth: scopes,
  params: providerParams, body: z.object({}).optional(), response: accountingCurrentSchema,
});
export const updateAccountingPreferences = defineCall({
  id: 'accounting.preferences.update', method: 'PATCH', path: `${BASE}/preferences`, auth: scopes,
  body: accountingPreferencesPatchSchema, response: accountingPreferencesSchema,
});

/** 201 with the commit; the provider must be the connected one (ACCOUNTING_7304). */
export const createSyncCommit = defineCall({
  id: 'accounting.syncCommit', method: 'POST', path: `${BASE}/providers/:provider_type/sync_commit`, auth: scopes,
  params: providerParams, body: z.object({}).optional(), response: syncCommitSchema,
});
/**
 * Issue 25: what "Sync now" would export and lock right now, read with the commit's own selection
 * (server/domain/accounting/sync-items.ts `SYNCABLE`): per source and currency, the count and the
 * sum (minor units). Nothing is locked or marked; the provider must be the connected one.
 */
export const syncPreviewSchema = z.object({
  provider_type: accountingProviderSchema,
  item_count: z.number().int().nonnegative(),
  groups: z.array(z.object({
    type: z.enum(SYNC_OBJECT_TYPES),
    currency: z.string(),
    count: z.number().int().positive(),
    amount: z.number().int(),
  })),
});
export type SyncPreview = z.infer<typeof syncPreviewSchema>;
export const previewSyncCommit = defineCall({
  id: 'accounting.syncPreview', method: 'GET', path: `${BASE}/providers/:provider_type/sync_preview`, auth: scopes,
  params: providerParams, response: syncPreviewSchema,
});
export const listSyncCommits = defineCall({
  id: 'accounting.syncCommits.list', method: 'GET', path: `${BASE}/sync_commits`, auth: scopes, retry: 'paged',
  query: pageQuerySchema, response: paginatedSchema(syncCommitSchema),
});
export const getSyncCommit = defineCall({
  id: 'accounting.syncCommits.get', method: 'GET', path: `${BASE}/sync_commits/:sync_commit_uuid`, auth: scopes,
  params: commitParams, response: syncCommitSchema,
});
/** The file itself (`Content-Disposition: attachment`), not JSON. */
export const downloadSyncFile = defineCall({
  id: 'accounting.syncCommits.file', method: 'GET', path: `${BASE}/sync_commits/:sync_commit_uuid/files/:file_name`, auth: scopes,
  params: commitParams.extend({ file_name: z.string().regex(/^[A-Za-z0-9._-]{1,120}$/, 'must be a file name of this commit') }),
  response: z.string(),
});

/** All or nothing: every item must be the business's (404 otherwise); already unsynced ones count 0. */
export const markNotSynced = defineCall({
  id: 'accounting.markNotSynced', method: 'POST', path: `${BASE}/mark-not-synced`, auth: scopes,
  body: z.object({
    items: z.array(z.object({ type: z.enum(SYNC_OBJECT_TYPES), id: z.uuid() })).min(1).max(MAX_UNSYNC_ITEMS),
  }),
  response: seqAnswer,
});

export const listMappingRules = defineCall({
  id: 'accounting.mappingRules.list', method: 'GET', path: `${BASE}/mapping_rules`, auth: scopes,
  response: z.object({ data: z.array(mappingRuleSchema) }),
});
export const createMappingRule = defineCall({
  id: 'accounting.mappingRules.create', method: 'POST', path: `${BASE}/mapping_rules`, auth: scopes,
  body: mappingRuleInputSchema, response: mappingRuleSchema,
});
export const replaceMappingRule = defineCall({
  id: 'accounting.mappingRules.replace', method: 'PUT', path: `${BASE}/mapping_rules/:mapping_rule_uuid`, auth: scopes,
  params: ruleParams, body: mappingRuleInputSchema, response: mappingRuleSchema,
});
export const deleteMappingRule = defineCall({
  id: 'accounting.mappingRules.delete', method: 'DELETE', path: `${BASE}/mapping_rules/:mapping_rule_uuid`, auth: scopes,
  params: ruleParams, response: z.object({ id: uuid, deleted: z.literal(true) }),
});
/** Codes every uncoded, unsynced transaction the caller may code that a rule matches. */
export const applyMappingRules = defineCall({
  id: 'accounting.mappingRules.apply', method: 'POST', path: `${BASE}/mapping_rules/apply`, auth: scopes,
  body: z.object({}).optional(), response: seqAnswer,
});

export const reconciliationMatchSchema = z.object({
  id: uuid,
  transaction_id: uuid,
  bill_id: uuid.nullable(),
  bank_line_id: z.string().nullable(),
  created_by: uuid,
  created_at: isoDateTime,
});
/** A card transaction matched to the bill it paid (same currency and amount) or to a bank line id. 201. */
export const manualMatch = defineCall({
  id: 'accounting.reconciliation.manualMatch', method: 'POST', path: `${BASE}/reconciliation/manual-match`, auth: scopes,
  body: z.union([
    z.object({ transaction_id: z.uuid(), bill_id: z.uuid() }),
    z.object({ transaction_id: z.uuid(), bank_line_id: z.string().trim().min(1).max(200) }),
  ]),
  response: reconciliationMatchSchema,
});

/**
 * §7 Accounting `DELETE suggested-context/{transaction}` (issue 29): dismisses the coding
 * suggestion the transaction drawer shows (the first matching mapping rule's coding,
 * schema/mapping-rules.ts `suggestCoding`, computed on the device from the mirrored rules). Unlike
 * the calls above it is the transaction coder's action, not accounting management: whoever may
 * code the transaction (schema/roles.ts, server `assertCanCode`) and sees it; another business's
 * or an unseen transaction answers 404. Stored as `coding_suggestion_dismissed_at` on the
 * transaction (mirrored), kept on a repeat; answers the transaction. Offline it is the outbox
 * command `transaction.dismissSuggestion`.
 */
export const dismissSuggestedContext = defineCall({
  id: 'accounting.suggestedContext.dismiss', method: 'DELETE', path: `${BASE}/suggested-context/:transaction_canonical_uuid`, auth: scopes,
  params: z.object({ transaction_canonical_uuid: z.uuid() }),
  response: transactionSchema,
});

export const ACCOUNTING_CALLS = [
  getAccountingCurrent, connectAccountingProvider, disconnectAccountingProvider, updateAccountingPreferences,
  createSyncCommit, listSyncCommits, getSyncCommit, downloadSyncFile, markNotSynced,
  listMappingRules, createMappingRule, replaceMappingRule, deleteMappingRule, applyMappingRules, manualMatch,
  previewSyncCommit, dismissSuggestedContext,
] as const;
