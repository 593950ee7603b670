/**
 * Issue 30, §7 "Treasury, wallet, float" (schema/api/calls-treasury.ts, all but the automation
 * policies): the wallet's accounts and their activity, transfers (preview, create, list, cancel),
 * the investment accounts with their yield, and the wallet settings. Admins only: TREASURY_7001
 * (403) before any lookup; another business's account or transfer reads as none (404 REQUEST_7004).
 * Domain code in domain/treasury/.
 */
import {
  cancelTransfer as cancelTransferCall, createBusinessAccount, createTransfer as createTransferCall, deleteBusinessAccount,
  getWalletSettings, listAccountActions, listBusinessAccounts, listInvestmentAccounts as listInvestmentsCall,
  listTransfers as listTransfersCall, previewTransfer as previewTransferCall, putCurrencies, updateBusinessAccount, updateWalletSettings as updateSettingsCall,
} from '../../schema/api/calls-treasury.ts';
import { isAdmin } from '../../schema/roles.ts';
import type { Actor } from '../core/actor.ts';
import { ApiError } from '../core/errors.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import {
  accountActions, createWalletAccount, deleteWalletAccount, listWalletAccounts, putBusinessCurrencies, updateWalletAccount, walletAccount,
} from '../domain/treasury/accounts.ts';
import { cancelTransfer, createTransfer, listTransfers, previewTransfer } from '../domain/treasury/transfers.ts';
import { listInvestmentAccounts } from '../domain/treasury/yield.ts';
import { updateWalletSettings, walletSettings } from '../domain/treasury/settings.ts';

/** The acting admin, or 403 TREASURY_7001 before anything is looked up. */
export function treasuryAdminOf(ctx: { actor: Actor | null }): Actor {
  const actor = actorOf(ctx);
  if (!isAdmin(actor.user)) throw new ApiError('TREASURY_7001');
  return actor;
}

export const treasuryHandlers = {
  [listBusinessAccounts.id]: async (ctx) => {
    const { businessId } = treasuryAdminOf(ctx);
    return ok({ accounts: await listWalletAccounts(ctx.db, businessId) });
  },

  [createBusinessAccount.id]: async (ctx) => {
    const { businessId } = treasuryAdminOf(ctx);
    return ok(await createWalletAccount(ctx.db, businessId, ctx.input.body, new Date(ctx.deps.now())), 201);
  },

  [updateBusinessAccount.id]: async (ctx) => {
    const { businessId } = treasuryAdminOf(ctx);
    const { params, body } = ctx.input;
    if (body.name === undefined && body.is_primary === undefined) return ok(await walletAccount(ctx.db, businessId, params.wallet_account_uuid));
    return ok(await updateWalletAccount(ctx.db, businessId, params.wallet_account_uuid, body));
  },

  [deleteBusinessAccount.id]: async (ctx) => {
    const { businessId } = treasuryAdminOf(ctx);
    const id = ctx.input.params.wallet_account_uuid;
    await ctx.deps.db.transaction((tx) => deleteWalletAccount(tx, businessId, id));
    return ok({ uuid: id, deleted: true });
  },

  [listAccountActions.id]: async (ctx) => {
    const { businessId } = treasuryAdminOf(ctx);
    return ok(await accountActions(ctx.db, businessId, ctx.input.params.wallet_account_uuid, ctx.input.query));
  },

  [previewTransferCall.id]: async (ctx) => {
    const { businessId } = treasuryAdminOf(ctx);
    return ok(await previewTransfer(ctx.db, businessId, ctx.input.params.wallet_account_uuid, ctx.input.body, ctx.deps.now()));
  },

  [createTransferCall.id]: async (ctx) => {
    const { businessId, user } = treasuryAdminOf(ctx);
    const { created, transfer } = await createTransfer(ctx.db, businessId, ctx.input.params.wallet_account_uuid, ctx.input.body, user.id, ctx.deps.now());
    return ok(transfer, created ? 201 : 200);
  },

  [listTransfersCall.id]: async (ctx) => {
    const { businessId } = treasuryAdminOf(ctx);
    return ok(await listTransfers(ctx.db, businessId, ctx.input.params.wallet_account_uuid, ctx.input.query));
  },

  [cancelTransferCall.id]: async (ctx) => {
    const { businessId } = treasuryAdminOf(ctx);
    const { wallet_account_uuid, transfer_uuid } = ctx.input.params;
    return ok(await cancelTransfer(ctx.db, businessId, wallet_account_uuid, transfer_uuid, ctx.deps.now()));
  },

  [listInvestmentsCall.id]: async (ctx) => {
    const { businessId } = treasuryAdminOf(ctx);
    return ok({ accounts: await listInvestmentAccounts(ctx.db, businessId, ctx.deps.now()) });
  },

  [getWalletSettings.id]: async (ctx) => {
    const { businessId } = treasuryAdminOf(ctx);
    return ok(await walletSettings(ctx.db, businessId));
  },

  [updateSettingsCall.id]: async (ctx) => {
    const { businessId, user } = treasuryAdminOf(ctx);
    return ok(await updateWalletSettings(ctx.db, businessId, ctx.input.body, user.id, new Date(ctx.deps.now())));
  },

  [putCurrencies.id]: async (ctx) => {
    const { businessId } = treasuryAdminOf(ctx);
    const at = new Date(ctx.deps.now());
    return ok({ currencies: await ctx.deps.db.transaction((tx) => putBusinessCurrencies(tx, businessId, ctx.input.body.currencies, at)) });
  },
} satisfies DomainHandlers;
