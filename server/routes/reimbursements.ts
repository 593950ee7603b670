import {
  createMileage, createOutOfPocket, createPerDiem, deleteReimbursement, getReimbursement, listReimbursements,
  patchReimbursement, submitReimbursement,
} from '../../schema/api/calls-reimbursements.ts';
import type { ReimbursementFilter } from '../../schema/entities/reimbursement.ts';
import {
  createReimbursement, deleteReimbursement as deleteClaim, findReimbursement, listReimbursements as listClaims,
  submitReimbursement as submitClaim, updateReimbursement,
} from '../domain/reimbursements.ts';
import { visibilityOf } from '../domain/visibility.ts';
import { ApiError } from '../core/errors.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';

/** Reimbursements (issue 9 §3): the caller's own claims; reads follow the `owner` visibility rule. */
export const reimbursementHandlers = {
  [createOutOfPocket.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    return ok(await createReimbursement(ctx.db, user, { type: 'OUT_OF_POCKET', body: ctx.input.body }, new Date(ctx.deps.now())));
  },

  [createMileage.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    return ok(await createReimbursement(ctx.db, user, { type: 'MILEAGE', body: ctx.input.body }, new Date(ctx.deps.now())));
  },

  [createPerDiem.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    return ok(await createReimbursement(ctx.db, user, { type: 'PER_DIEM', body: ctx.input.body }, new Date(ctx.deps.now())));
  },

  [listReimbursements.id]: async (ctx) => {
    const actor = actorOf(ctx);
    const { page_size, start, include_count, ...filter } = ctx.input.query;
    const vis = await visibilityOf(ctx.db, actor.user);
    return ok(await listClaims(ctx.db, actor.businessId, vis, {
      filter: filter as ReimbursementFilter, pageSize: page_size, start, includeCount: include_count === true,
    }));
  },

  [getReimbursement.id]: async (ctx) => {
    const actor = actorOf(ctx);
    const vis = await visibilityOf(ctx.db, actor.user);
    const doc = await findReimbursement(ctx.db, actor.businessId, vis, ctx.input.params.reimbursement_uuid);
    if (!doc) throw new ApiError('REQUEST_7004');
    return ok(doc);
  },

  [patchReimbursement.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const vis = await visibilityOf(ctx.db, user);
    const id = ctx.input.params.reimbursement_uuid;
    return ok(await updateReimbursement(ctx.db, user, vis, id, ctx.input.body, new Date(ctx.deps.now())));
  },

  [submitReimbursement.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const vis = await visibilityOf(ctx.db, user);
    return ok(await submitClaim(ctx.db, user, vis, ctx.input.params.reimbursement_uuid, new Date(ctx.deps.now())));
  },

  // DELETE is not idempotent-keyed, so it is not run in a transaction by register: it opens one.
  [deleteReimbursement.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const id = ctx.input.params.reimbursement_uuid;
    return ok(await ctx.deps.db.transaction(async (tx) => deleteClaim(tx, user, await visibilityOf(tx, user), id)));
  },
} satisfies DomainHandlers;
