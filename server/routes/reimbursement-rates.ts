import {
  createReimbursementRate, deleteReimbursementRate, listReimbursementRates, updateReimbursementRate,
} from '../../schema/api/calls-reimbursement-rates.ts';
import { createRate, deleteRate, updateRate } from '../domain/reimbursement-rates.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { adminOf, inWriteTx } from './admin.ts';
import { listCollection } from '../domain/reference-lists.ts';

/** Reimbursement rates (issue 9 §3): every member reads them; admins change them. */
export const reimbursementRateHandlers = {
  [listReimbursementRates.id]: async (ctx) => ok(await listCollection(ctx.db, actorOf(ctx).user, 'reimbursement_rates', ctx.input.query)),

  [createReimbursementRate.id]: async (ctx) => {
    const { businessId } = adminOf(ctx);
    return ok(await createRate(ctx.db, businessId, ctx.input.body), 201);
  },

  [updateReimbursementRate.id]: async (ctx) => {
    const { businessId } = adminOf(ctx);
    return ok(await updateRate(ctx.db, businessId, ctx.input.params.rate_uuid, ctx.input.body));
  },

  // DELETE is not run in a transaction by register (no Idempotency-Key): it opens one.
  [deleteReimbursementRate.id]: async (ctx) => {
    const { businessId } = adminOf(ctx);
    return ok(await inWriteTx(ctx, deleteReimbursementRate, (tx) => deleteRate(tx, businessId, ctx.input.params.rate_uuid)));
  },
} satisfies DomainHandlers;
