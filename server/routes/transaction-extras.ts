import {
  copyRefundReceipts, deleteAttendeeSplit, deleteSpendEventAttendeeSplit, putAttendeeSplit,
} from '../../schema/api/calls-transaction-extras.ts';
import { canCodeTransactions } from '../../schema/roles.ts';
import { deleteAttendeeSplit as clearSplit, deleteSpendEventSplit, putAttendeeSplit as storeSplit } from '../domain/attendee-split.ts';
import { copyRefundReceipts as copyReceipts } from '../domain/refund-receipts.ts';
import { findTrip } from '../domain/travel/trips.ts';
import { visibilityOf } from '../domain/visibility.ts';
import type { Actor } from '../core/actor.ts';
import { ApiError } from '../core/errors.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { inWriteTx } from './admin.ts';

/** The split is part of the attendees' edit: whoever may code the transaction (auditors and guests read only). */
function assertCanSplit(actor: Actor): void {
  if (!canCodeTransactions(actor.user)) throw new ApiError('FORBIDDEN_7003');
}

/** Issue 32, §7 Transactions' long tail: the attendee split and a refund's receipts (PUT and DELETE open their own transaction). */
export const transactionExtraHandlers = {
  [putAttendeeSplit.id]: async (ctx) => {
    const actor = actorOf(ctx);
    assertCanSplit(actor);
    const id = ctx.input.params.transaction_canonical_uuid;
    return ok(await inWriteTx(ctx, putAttendeeSplit, async (tx) =>
      storeSplit(tx, actor.businessId, await visibilityOf(tx, actor.user), id, ctx.input.body)));
  },

  [deleteAttendeeSplit.id]: async (ctx) => {
    const actor = actorOf(ctx);
    assertCanSplit(actor);
    const id = ctx.input.params.transaction_canonical_uuid;
    return ok(await inWriteTx(ctx, deleteAttendeeSplit, async (tx) => clearSplit(tx, actor.businessId, await visibilityOf(tx, actor.user), id)));
  },

  [deleteSpendEventAttendeeSplit.id]: async (ctx) => {
    const actor = actorOf(ctx);
    assertCanSplit(actor);
    const { trip_id: tripId, transaction_canonical_uuid: id } = ctx.input.params;
    return ok(await inWriteTx(ctx, deleteSpendEventAttendeeSplit, async (tx) => {
      const vis = await visibilityOf(tx, actor.user);
      const trip = await findTrip(tx, actor.businessId, vis, tripId);
      return deleteSpendEventSplit(tx, actor.businessId, vis, tripId, id, trip !== null);
    }));
  },

  [copyRefundReceipts.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const id = ctx.input.params.transaction_canonical_uuid;
    return ok(await inWriteTx(ctx, copyRefundReceipts, async (tx) =>
      copyReceipts(tx, user, await visibilityOf(tx, user), id, ctx.input.body.source_transaction_id, new Date(ctx.deps.now()))));
  },
} satisfies DomainHandlers;
