import { deleteDelegation, listDelegations, putDelegation } from '../../schema/api/calls-copilot.ts';
import {
  deleteDelegation as removeDelegation, listDelegations as listRows, putDelegation as storeDelegation,
} from '../domain/delegations.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { inWriteTx } from './admin.ts';

/** Delegation, copilot (issue 29): anyone names a delegate holding COPILOT for a period (rules in domain/delegations.ts). */
export const copilotHandlers = {
  [listDelegations.id]: async (ctx) => ok(await listRows(ctx.db, actorOf(ctx).user)),

  [putDelegation.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    return ok(await inWriteTx(ctx, putDelegation, (tx) => storeDelegation(tx, user, ctx.input.body)));
  },

  [deleteDelegation.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    return ok(await inWriteTx(ctx, deleteDelegation, (tx) => removeDelegation(tx, user, ctx.input.params.user_id)));
  },
} satisfies DomainHandlers;
