import type { z } from 'zod';
import {
  acknowledgeFailedRuns, deleteAutomationPolicy, getWalletSettings, listAccountActions, listAutomationPolicies, listInvestmentAccounts,
  previewTransfer, putAutomationPolicy, sweepStatus, updateWalletSettings,
  type AutomationPolicy, type accountActionSchema, type automationPolicyBodySchema, type investmentAccountSchema, type transferPreviewBodySchema,
  type transferPreviewSchema, type walletSettingsSchema,
} from '../../schema/api/calls-treasury.ts';
import { deleteAutopayThreshold, getAutopayThreshold, putAutopayThreshold, type CardAutopay } from '../../schema/api/calls-card-autopay.ts';
import { bindDomain, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';

export type TreasuryAccountAction = z.infer<typeof accountActionSchema>;
export type TreasuryInvestment = z.infer<typeof investmentAccountSchema>;
export type TreasuryPreview = z.infer<typeof transferPreviewSchema>;
export type TreasuryPreviewBody = z.input<typeof transferPreviewBodySchema>;
export type TreasurySettings = z.infer<typeof walletSettingsSchema>;
export type TreasuryPolicyBody = z.input<typeof automationPolicyBodySchema>;
export type TreasurySweepStatus = { day: string; policies: { id: string; status: string; transfer_id: string | null }[] };
export type TreasuryPolicy = AutomationPolicy;
/** The card autopay threshold (or null) and the unpaid card balance in its currency. */
export type TreasuryCardAutopay = CardAutopay;

/** Refused before any request: these figures and settings live on the server (balances and transfers are mirrored). */
export const TREASURY_OFFLINE = offlineFailure('You’re offline. This needs a connection: nothing was sent.');

/** How many activity rows one page asks for. */
export const ACTIONS_PAGE_SIZE = 25;

/**
 * Issue 30, the Treasury page's direct calls (schema/api/calls-treasury.ts), admins only, online
 * only. Balances, their history and transfers are mirrored (reference data `wallet_accounts`,
 * `wallet_transfers`) and transfers are made and canceled through the outbox (`transfer.create`,
 * `transfer.cancel`); what is here is read or changed on the server: an account's activity page,
 * the online transfer preview, the investment account's yield, wallet settings, automation
 * policies (sweeps) and their runs, the card autopay threshold, and the linked bank accounts a transfer may name.
 */
export const TREASURY_CALLS = onlineDomain(TREASURY_OFFLINE, {
  /** One page of an account's activity, newest first; `cursor` from the previous page's `next`. */
  treasuryAccountActions: via(listAccountActions, (walletAccountId: string, cursor?: string) => ({
    params: { wallet_account_uuid: walletAccountId }, query: { page_size: ACTIONS_PAGE_SIZE, ...(cursor ? { cursor } : {}) },
  }), (d) => ({ rows: d.data as TreasuryAccountAction[], next: d.page.next })),
  /** The server's fee, settlement date and balance after, for the path's wallet account. */
  previewTransfer: via(previewTransfer, (walletAccountId: string, body: TreasuryPreviewBody) => ({
    params: { wallet_account_uuid: walletAccountId }, body,
  }), (preview: TreasuryPreview) => ({ preview })),
  investmentAccounts: via(listInvestmentAccounts, () => ({}), (d) => ({ accounts: d.accounts as TreasuryInvestment[] })),
  walletSettings: via(getWalletSettings, () => ({}), (settings: TreasurySettings) => ({ settings })),
  saveWalletSettings: via(updateWalletSettings, (patch: Partial<TreasurySettings>) => ({ body: patch }), (settings: TreasurySettings) => ({ settings })),
  automationPolicies: via(listAutomationPolicies, () => ({}), (d) => ({ rows: d.policies as AutomationPolicy[] })),
  /** Creates (no id) or replaces the policy `id`; TREASURY_7009 names the field that does not fit. */
  saveAutomationPolicy: via(putAutomationPolicy, (body: TreasuryPolicyBody) => ({ body }), (policy: AutomationPolicy) => ({ policy })),
  deleteAutomationPolicy: via(deleteAutomationPolicy, (policyId: string) => ({ params: { policy_id: policyId } })),
  acknowledgeFailedRuns: via(acknowledgeFailedRuns, (policyIds: string[]) => ({ body: { policy_ids: policyIds } }),
    (d) => ({ acknowledged: d.acknowledged })),
  /** Today's state of every policy; `run` runs the due ones now (the job's once-a-day key). */
  sweepStatus: via(sweepStatus, (run: boolean) => ({ body: { run } }), (status: TreasurySweepStatus) => ({ status })),
  /** The card autopay threshold and the unpaid card balance (cleared charges not yet paid). */
  cardAutopay: via(getAutopayThreshold, () => ({}), (autopay: CardAutopay) => ({ autopay })),
  /** Sets it; a balance that already reaches it is paid in the same request (the answer shows what is left). */
  saveCardAutopay: via(putAutopayThreshold, (amount: { amount: number; currency: string }) => ({ body: { amount } }), (autopay: CardAutopay) => ({ autopay })),
  removeCardAutopay: via(deleteAutopayThreshold, () => ({}), (autopay: CardAutopay) => ({ autopay })),
});

export type TreasuryApi = OnlineApi<typeof TREASURY_CALLS>;

export const treasuryHandlers = (port: OnlinePort): TreasuryApi => bindDomain(port, TREASURY_CALLS);
