/**
 * Issue 30, §7 Businesses "/autopay_threshold" (schema/api/calls-card-autopay.ts): the card autopay
 * threshold, read, set and removed (domain/card-autopay.ts). Admins only, as the other treasury
 * settings: 403 TREASURY_7001 before anything is read; each business reads and writes only its own.
 * PUT and DELETE are not keyed (PUT and DELETE are idempotent by themselves): they open their own
 * transactions.
 */
import { deleteAutopayThreshold, getAutopayThreshold, putAutopayThreshold } from '../../schema/api/calls-card-autopay.ts';
import { ok, type DomainHandlers } from '../http/handler.ts';
import { cardAutopay, deleteCardAutopay, setCardAutopay } from '../domain/card-autopay.ts';
import { nowOf } from './bill-access.ts';
import { treasuryAdminOf } from './treasury.ts';

export const cardAutopayHandlers = {
  [getAutopayThreshold.id]: async (ctx) => {
    const { businessId } = treasuryAdminOf(ctx);
    return ok(await cardAutopay(ctx.db, businessId));
  },
  [putAutopayThreshold.id]: async (ctx) => {
    const { businessId, user } = treasuryAdminOf(ctx);
    return ok(await setCardAutopay(ctx.deps.db, businessId, ctx.input.body, user.id, nowOf(ctx)));
  },
  [deleteAutopayThreshold.id]: async (ctx) => {
    const { businessId, user } = treasuryAdminOf(ctx);
    await ctx.deps.db.transaction((tx) => deleteCardAutopay(tx, businessId, user.id, nowOf(ctx)));
    return ok(await cardAutopay(ctx.deps.db, businessId));
  },
} satisfies DomainHandlers;
