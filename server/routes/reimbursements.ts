import {
  bulkDeleteReimbursements, bulkUpdateReimbursements, cancelReimbursement, cancelReimbursementPayment, createMileage,
  createOutOfPocket, createPerDiem, deleteReimbursement, findDuplicateReimbursements, getReimbursement, listReimbursements,
  patchReimbursement, payReimbursement, resubmitReimbursement, saveDraft, submitReimbursement,
} from '../../schema/api/calls-reimbursements.ts';
import type { CallDef } from '../../schema/api/define-call.ts';
import type { Reimbursement, ReimbursementFilter } from '../../schema/entities/reimbursement.ts';
import {
  bulkDeleteReimbursements as bulkDeleteClaims, bulkUpdateReimbursements as bulkUpdateClaims, findDuplicates,
} from '../domain/reimbursement-bulk.ts';
import { cancelPayment, payReimbursement as payClaim } from '../domain/reimbursement-payments.ts';
import {
  cancelReimbursement as cancelClaim,
  createReimbursement, deleteReimbursement as deleteClaim, saveDraft as saveDraftClaim, findReimbursement, listReimbursements as listClaims,
  submitReimbursement as submitClaim, updateReimbursement,
} from '../domain/reimbursements.ts';
import { visibilityOf, type Visibility } from '../domain/visibility.ts';
import type { ActingUser } from '../core/actor.ts';
import type { Queryable } from '../db/db.ts';
import { actorOf, ok, type DomainHandlers, type HandlerCtx } from '../http/handler.ts';
import { versionedPatch, visibleRowGet } from './versioned.ts';

type ClaimCtx = Pick<HandlerCtx<CallDef>, 'actor' | 'db' | 'deps'> & { input: { params: { reimbursement_uuid: string } } };

/** A status move of one claim the caller sees (submit, resubmit, cancel), at the request's time. */
const claimMove = (move: (tx: Queryable, user: ActingUser, vis: Visibility, id: string, now: Date) => Promise<Reimbursement>) =>
  async (ctx: ClaimCtx) => {
    const { user } = actorOf(ctx);
    const vis = await visibilityOf(ctx.db, user);
    return ok(await move(ctx.db, user, vis, ctx.input.params.reimbursement_uuid, new Date(ctx.deps.now())));
  };

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

  [getReimbursement.id]: visibleRowGet('reimbursements', 'reimbursement_uuid', findReimbursement),

  [patchReimbursement.id]: versionedPatch('reimbursements', 'reimbursement_uuid', async (ctx) => {
    const { user } = actorOf(ctx);
    const vis = await visibilityOf(ctx.db, user);
    const id = ctx.input.params.reimbursement_uuid;
    return ok(await updateReimbursement(ctx.db, user, vis, id, ctx.input.body, new Date(ctx.deps.now())));
  }),

  [submitReimbursement.id]: claimMove(submitClaim),

  // DELETE is not idempotent-keyed, so it is not run in a transaction by register: it opens one.
  [deleteReimbursement.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const id = ctx.input.params.reimbursement_uuid;
    return ok(await ctx.deps.db.transaction(async (tx) => deleteClaim(tx, user, await visibilityOf(tx, user), id)));
  },

  // PUT: not run in a transaction by register (no Idempotency-Key; a repeat saves the same draft).
  [saveDraft.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const id = ctx.input.params.reimbursement_uuid;
    const now = new Date(ctx.deps.now());
    return ok(await ctx.deps.db.transaction(async (tx) => saveDraftClaim(tx, user, await visibilityOf(tx, user), id, ctx.input.body, now)));
  },

  [resubmitReimbursement.id]: claimMove((tx, user, vis, id, now) => submitClaim(tx, user, vis, id, now, 'resubmit')),

  [cancelReimbursement.id]: claimMove(cancelClaim),

  [findDuplicateReimbursements.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const vis = await visibilityOf(ctx.db, user);
    return ok({ data: await findDuplicates(ctx.db, user, vis, ctx.input.body) });
  },

  [bulkUpdateReimbursements.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const vis = await visibilityOf(ctx.db, user);
    const { reimbursement_ids, patch } = ctx.input.body;
    return ok(await bulkUpdateClaims(ctx.db, user, vis, reimbursement_ids, patch, new Date(ctx.deps.now())));
  },

  // DELETE: not run in a transaction by register (no Idempotency-Key), so it opens one.
  [bulkDeleteReimbursements.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const ids = ctx.input.body.reimbursement_ids;
    return ok(await ctx.deps.db.transaction(async (tx) => bulkDeleteClaims(tx, user, await visibilityOf(tx, user), ids)));
  },

  [payReimbursement.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const method = ctx.input.body?.method ?? 'ACH';
    return ok(await payClaim(ctx.db, user, ctx.input.params.reimbursement_uuid, method, new Date(ctx.deps.now())));
  },

  [cancelReimbursementPayment.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    return ok(await cancelPayment(ctx.db, user, ctx.input.params.reimbursement_uuid, new Date(ctx.deps.now())));
  },
} satisfies DomainHandlers;
