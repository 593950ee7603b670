import { getMerchantRestrictions, putMerchantRestrictions } from '../../schema/api/calls-business.ts';
import { readMerchantRestrictions, writeMerchantRestrictions } from '../domain/merchant-restrictions.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { adminOf, inWriteTx } from './admin.ts';

/** Issue 29: the business's merchant restrictions (domain/merchant-restrictions.ts). */
export const merchantRestrictionHandlers = {
  [getMerchantRestrictions.id]: async (ctx) => ok(await readMerchantRestrictions(ctx.db, actorOf(ctx).businessId)),
  // Admins only (403 before anything is read); a PUT opens its own transaction.
  [putMerchantRestrictions.id]: async (ctx) => {
    const { businessId } = adminOf(ctx);
    const categories = ctx.input.body.blocked_merchant_categories;
    return ok(await inWriteTx(ctx, putMerchantRestrictions, (tx) => writeMerchantRestrictions(tx, businessId, categories, new Date(ctx.deps.now()))));
  },
} satisfies DomainHandlers;
