import { z } from 'zod';
import { callGroup } from './call-group.ts';
import { knownCurrencySchema, moneyValueSchema, nonNegativeMoneySchema, positiveMoneySchema } from '../money.ts';
import { walletAccountKindSchema } from '../entities/wallet-account.ts';
import { walletTransferSchema } from '../entities/wallet-transfer.ts';

/**
 * Issue 30, §7 "Treasury, wallet, float": the wallet's accounts, transfers, the investment
 * account, wallet settings and automation policies (sweeps). Admins only (TREASURY_7001, 403
 * before any lookup); another business's account, transfer or policy is 404 REQUEST_7004.
 * Money is `{amount, currency}` with `amount` in integer minor units (cents): zero, negative or
 * fractional amounts are 422 REQUEST_7001 on `amount.amount`. Every write that moves money is
 * keyed (Idempotency-Key; the offline outbox sends its command id) and exactly once: the ledger's
 * entry keys and the rows' unique keys hold it even across server processes.
 */
const scopes = { scopes: ['default'] } as const;

/** GET business-accounts: the wallet list (§3: `accounts` with `uuid`). */
export const businessAccountSchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  kind: walletAccountKindSchema,
  /** What can be spent or moved now (holds of pending transfers already deducted). */
  balance: moneyValueSchema,
  /** PENDING transfers on their way in / out (out: amount plus fee, already held). */
  pending_in: moneyValueSchema,
  pending_out: moneyValueSchema,
  is_primary: z.boolean(),
  created_at: z.iso.datetime({ offset: true }),
});
export type BusinessAccount = z.infer<typeof businessAccountSchema>;

const walletParams = z.object({ wallet_account_uuid: z.uuid() });
const transferParams = z.object({ wallet_account_uuid: z.uuid(), transfer_uuid: z.uuid() });

/**
 * A transfer's body. `to_account_id`: a wallet account's uuid or a linked bank account's id
 * (verified: TREASURY_7007); the source is the path's wallet account, or `from_bank_account_id`
 * (a verified linked bank account) pulls money into the path's wallet account instead.
 * `expected_fee`: the fee the client previewed; the server recomputes it and refuses with
 * TREASURY_7006 naming the new figures (`errors.fee`, `errors.expected_settlement_date`) when it
 * differs. `id`: the client's id for the transfer (offline: the outbox's), so a retry answers the
 * stored transfer.
 */
export const transferBodySchema = z.object({
  id: z.uuid().optional(),
  to_account_id: z.uuid(),
  from_bank_account_id: z.uuid().optional(),
  amount: positiveMoneySchema,
  memo: z.string().trim().max(200).optional(),
  expected_fee: moneyValueSchema.optional(),
});
export type TransferBody = z.infer<typeof transferBodySchema>;
export const transferPreviewBodySchema = transferBodySchema.omit({ id: true, expected_fee: true });

export const transferPreviewSchema = z.object({
  fee: moneyValueSchema,
  /** Bank business days (schema/business-days.ts), as bills count them. */
  expected_settlement_date: z.iso.date(),
  /** The source's balance once the hold (amount plus fee) is taken. */
  balance_after: moneyValueSchema,
});

/** The transfer as answered: the issue's `{id, status, fee, expected_settlement_date}` and the rest of the mirrored row. */
export const transferAnswerSchema = walletTransferSchema.omit({ business_id: true, change_seq: true, updated_at: true, deleted: true }).extend({
  fee: moneyValueSchema,
  amount: moneyValueSchema,
});
export type TransferAnswer = z.infer<typeof transferAnswerSchema>;

const group = callGroup('/v1/auth/treasury', scopes);

export const listBusinessAccounts = group('treasury.accounts.list', 'GET', '/business-accounts', {
  response: z.object({ accounts: z.array(businessAccountSchema) }),
});
/** Opens another wallet account (a second RESERVE, say); OPERATING of a currency the business has no primary of becomes primary. */
export const createBusinessAccount = group('treasury.accounts.create', 'POST', '/business-accounts', {
  body: z.object({ name: z.string().trim().min(1).max(100), kind: walletAccountKindSchema, currency: knownCurrencySchema }),
  response: businessAccountSchema,
});
/** §7 Businesses "treasury/business-accounts/{wallet}": rename, or make primary. */
export const updateBusinessAccount = group('treasury.accounts.update', 'PATCH', '/business-accounts/:wallet_account_uuid', {
  params: walletParams,
  body: z.object({ name: z.string().trim().min(1).max(100).optional(), is_primary: z.literal(true).optional() }),
  response: businessAccountSchema,
});
/** Closes an empty account with nothing on its way (TREASURY_7010 otherwise); a primary account cannot be closed. */
export const deleteBusinessAccount = group('treasury.accounts.delete', 'DELETE', '/business-accounts/:wallet_account_uuid', {
  params: walletParams,
  response: z.object({ uuid: z.uuid(), deleted: z.literal(true) }),
});

/**
 * `/actions`: the account's activity, newest first: every ledger entry that moved its balance
 * (transfers, bill payments, claims, card settlements, yield, flex), with the balance after it.
 */
export const accountActionSchema = z.object({
  entry_id: z.uuid(),
  kind: z.string(),
  memo: z.string(),
  amount: moneyValueSchema,
  balance_after: moneyValueSchema,
  effective_date: z.iso.date(),
  created_at: z.iso.datetime({ offset: true }),
  source_type: z.string().nullable(),
  source_id: z.uuid().nullable(),
  /**
   * A yield accrual's annual rate in basis points, as it was on the day it accrued (yield_accruals
   * keeps it: a later change of the rate never rewrites an accrued day); null for any other entry.
   */
  yield_rate_bps: z.number().int().min(0).max(2_000).nullable(),
});
export const listAccountActions = group('treasury.accounts.actions', 'GET', '/business-accounts/:wallet_account_uuid/actions', {
  params: walletParams,
  query: z.object({ cursor: z.string().max(200).optional(), page_size: z.coerce.number().int().min(1).max(200).optional() }),
  response: z.object({ data: z.array(accountActionSchema), page: z.object({ next: z.string().nullable() }) }),
  retry: 'paged',
});

export const previewTransfer = group('treasury.transfers.preview', 'POST', '/business-accounts/:wallet_account_uuid/transfers/preview', {
  params: walletParams, body: transferPreviewBodySchema, response: transferPreviewSchema, readOnly: true,
});
/** 201 with the PENDING transfer (its hold posted); a retry of the same `id` or Idempotency-Key answers it again (200). */
export const createTransfer = group('treasury.transfers.create', 'POST', '/business-accounts/:wallet_account_uuid/transfers', {
  params: walletParams, body: transferBodySchema, response: transferAnswerSchema,
});
export const listTransfers = group('treasury.transfers.list', 'GET', '/business-accounts/:wallet_account_uuid/transfers', {
  params: walletParams,
  query: z.object({ cursor: z.string().max(200).optional(), page_size: z.coerce.number().int().min(1).max(200).optional() }),
  response: z.object({ data: z.array(transferAnswerSchema), page: z.object({ next: z.string().nullable() }) }),
  retry: 'paged',
});
/** PENDING → CANCELED, the hold released; after settlement (or a second cancel) 409 TREASURY_7005. */
export const cancelTransfer = group('treasury.transfers.cancel', 'POST', '/business-accounts/:wallet_account_uuid/transfers/:transfer_uuid/cancel', {
  params: transferParams, response: transferAnswerSchema,
});

/** The investment account (INVESTMENT kind) with its yield: a rate per business, accrued daily exactly once. */
export const investmentAccountSchema = businessAccountSchema.extend({
  /** Annual rate in basis points (450 = 4.50 %). */
  yield_rate_bps: z.number().int().min(0).max(2_000),
  accrued_this_month: moneyValueSchema,
  accrued_total: moneyValueSchema,
  last_accrual_date: z.iso.date().nullable(),
});
export const listInvestmentAccounts = group('treasury.investments.list', 'GET', '/investment-accounts', {
  response: z.object({ accounts: z.array(investmentAccountSchema) }),
});

/** Wallet settings: the yield rate and the transfer fee schedule (fees are the server's to compute). */
export const walletSettingsSchema = z.object({
  yield_rate_bps: z.number().int().min(0).max(2_000),
  /** Fee of a transfer to a linked bank account (minor units of the account's currency); internal transfers are free. */
  external_transfer_fee: z.number().int().min(0).max(100_000),
  /** Bank business days an external transfer takes (internal ones settle the same business day). */
  external_settlement_days: z.number().int().min(0).max(5),
});
const walletGroup = callGroup('/v1/auth/wallet', scopes);
export const getWalletSettings = walletGroup('wallet.settings.get', 'GET', '/settings', { response: walletSettingsSchema });
export const updateWalletSettings = walletGroup('wallet.settings.update', 'PATCH', '/settings', {
  body: walletSettingsSchema.partial(), response: walletSettingsSchema,
});

/**
 * An automation policy (a sweep): once a day (and on demand) SWEEP_ABOVE moves what `account_id`
 * holds above `threshold` down to `target` into `target_account_id`; TOP_UP_BELOW brings it from
 * below `threshold` up to `target` out of `target_account_id`. One transfer per policy per day.
 * SWEEP_ABOVE needs target ≤ threshold, TOP_UP_BELOW target ≥ threshold (TREASURY_7009 naming the field).
 */
export const AUTOMATION_KINDS = ['SWEEP_ABOVE', 'TOP_UP_BELOW'] as const;
export const automationPolicyBodySchema = z.object({
  id: z.uuid().optional(),
  kind: z.enum(AUTOMATION_KINDS),
  account_id: z.uuid(),
  target_account_id: z.uuid(),
  threshold: positiveMoneySchema,
  target: nonNegativeMoneySchema,
  enabled: z.boolean().optional(),
});
export const automationRunSchema = z.object({
  id: z.uuid(),
  run_day: z.iso.date(),
  status: z.enum(['MOVED', 'NOTHING_TO_DO', 'FAILED']),
  transfer_id: z.uuid().nullable(),
  amount: moneyValueSchema.nullable(),
  failure_reason: z.string().nullable(),
  acknowledged_at: z.iso.datetime({ offset: true }).nullable(),
  created_at: z.iso.datetime({ offset: true }),
});
export const automationPolicySchema = automationPolicyBodySchema.omit({ id: true }).extend({
  id: z.uuid(),
  enabled: z.boolean(),
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
  /** The last runs, newest first (at most 30). */
  runs: z.array(automationRunSchema),
  unacknowledged_failures: z.number().int().nonnegative(),
});
export type AutomationPolicy = z.infer<typeof automationPolicySchema>;

export const listAutomationPolicies = walletGroup('wallet.automation.list', 'GET', '/automation-policy', {
  response: z.object({ policies: z.array(automationPolicySchema) }),
});
/**
 * Creates (no `id`, or a new one: 201) or replaces the policy `id` (200). Exactly once without an
 * Idempotency-Key (PUT is not keyed): the natural key is one live policy per (account_id, kind).
 * A create without `id` asking for exactly what that key's live policy is (target account,
 * threshold, target, enabled) is a repeat and answers it (200, nothing written); other figures are
 * 422 TREASURY_7009 on `account_id`. Racing creates: one row, the others answer it. A client that
 * mints `id` once per new policy gets a replace with the same values on a repeat.
 */
export const putAutomationPolicy = walletGroup('wallet.automation.put', 'PUT', '/automation-policy', {
  body: automationPolicyBodySchema, response: automationPolicySchema,
});
export const deleteAutomationPolicy = walletGroup('wallet.automation.delete', 'DELETE', '/automation-policy/:policy_id', {
  params: z.object({ policy_id: z.uuid() }), response: z.object({ id: z.uuid(), deleted: z.literal(true) }),
});
/** Marks the listed policies' failed runs seen; nothing left to acknowledge → 409 TREASURY_7008. */
export const acknowledgeFailedRuns = walletGroup('wallet.automation.acknowledge', 'POST', '/automation-policy/acknowledge-failed-runs', {
  body: z.object({ policy_ids: z.array(z.uuid()).min(1).max(50) }),
  response: z.object({ acknowledged: z.number().int().nonnegative() }),
});
/** Today's state of every policy; `run: true` runs the due ones now (the same once-a-day key as the job). */
export const sweepStatus = walletGroup('wallet.automation.sweepStatus', 'POST', '/automation-policy/sweep-status', {
  body: z.object({ run: z.boolean().optional() }),
  response: z.object({
    day: z.iso.date(),
    policies: z.array(z.object({
      id: z.uuid(), status: z.enum(['MOVED', 'NOTHING_TO_DO', 'FAILED', 'DUE', 'DISABLED']), transfer_id: z.uuid().nullable(),
    })),
  }),
});

/**
 * §7 Businesses "PUT currencies": the currencies the business keeps money in. Each listed currency
 * without a primary OPERATING account gets one ("Operating (EUR)"); a currency left out has its
 * wallet accounts closed, which needs them empty with nothing on its way (409 TREASURY_7010 naming
 * the currency). The business's home currency stays (422 on `currencies`). Answers every currency
 * with its primary OPERATING account, home currency first.
 */
export const putCurrencies = callGroup('/v1/auth/businesses', scopes)('treasury.currencies.put', 'PUT', '/currencies', {
  body: z.object({ currencies: z.array(knownCurrencySchema).min(1).max(20) }),
  response: z.object({ currencies: z.array(z.object({ currency: z.string().length(3), primary_account: businessAccountSchema })) }),
});

/** Served (in CATALOGUE, handlers in server/routes/treasury.ts). */
export const TREASURY_CALLS = [
  listBusinessAccounts, createBusinessAccount, updateBusinessAccount, deleteBusinessAccount, listAccountActions,
  previewTransfer, createTransfer, listTransfers, cancelTransfer, listInvestmentAccounts,
  getWalletSettings, updateWalletSettings, putCurrencies,
] as const;
/** The automation calls (served: server/routes/wallet-automation.ts). */
export const AUTOMATION_CALLS = [
  listAutomationPolicies, putAutomationPolicy, deleteAutomationPolicy, acknowledgeFailedRuns, sweepStatus,
] as const;
