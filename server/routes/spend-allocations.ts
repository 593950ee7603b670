import {
  addSpendAllocationUsers, cancelSpendIntent, createSpendAllocation, createSpendIntent, getSpendAllocation, listSpendAllocations,
  listSpendIntents, updateSpendAllocation,
} from '../../schema/api/calls-procurement.ts';
import { listCollection } from '../domain/reference-lists.ts';
import { addAllocationUsers, createAllocation, findAllocation, updateAllocation } from '../domain/procurement/allocations.ts';
import { cancelIntent, createIntent, listIntents } from '../domain/procurement/intents.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';

/**
 * Budgets (spend allocations) and spend intents (issue 28, SPEND_BUDGET_CALLS): the rules are in
 * domain/procurement/allocations.ts and intents.ts; a card's authorization on a budget or with an
 * intent is domain/card-spend.ts. PUT and DELETE are not idempotency-keyed, so register runs them
 * outside a transaction: they open one.
 */
export const spendBudgetHandlers = {
  [createSpendAllocation.id]: async (ctx) =>
    ok(await createAllocation(ctx.db, actorOf(ctx).user, ctx.input.body, new Date(ctx.deps.now())), 201),

  [listSpendAllocations.id]: async (ctx) => ok(await listCollection(ctx.db, actorOf(ctx).user, 'spend_allocations', ctx.input.query)),

  [getSpendAllocation.id]: async (ctx) => ok(await findAllocation(ctx.db, actorOf(ctx).user, ctx.input.params.spend_allocation_id)),

  [updateSpendAllocation.id]: async (ctx) =>
    ok(await updateAllocation(ctx.db, actorOf(ctx).user, ctx.input.params.spend_allocation_id, ctx.input.body, new Date(ctx.deps.now()))),

  [addSpendAllocationUsers.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const now = new Date(ctx.deps.now());
    const { params, body } = ctx.input;
    return ok(await ctx.deps.db.transaction((tx) => addAllocationUsers(tx, user, params.spend_allocation_id, body.user_ids, now)));
  },

  [createSpendIntent.id]: async (ctx) => ok(await createIntent(ctx.db, actorOf(ctx).user, ctx.input.body, new Date(ctx.deps.now())), 201),

  [listSpendIntents.id]: async (ctx) => {
    const { page_size, start, include_count, card_id } = ctx.input.query;
    const req = { pageSize: page_size, start, includeCount: include_count === true };
    return ok(await listIntents(ctx.db, actorOf(ctx).user, card_id, req, new Date(ctx.deps.now())));
  },

  [cancelSpendIntent.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const now = new Date(ctx.deps.now());
    return ok(await ctx.deps.db.transaction((tx) => cancelIntent(tx, user, ctx.input.params.intent_id, now)));
  },
} satisfies DomainHandlers;
