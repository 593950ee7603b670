import {
  bulkCodeTransactions,
  getTransaction,
  listTransactions,
  patchTransaction,
  searchTransactions,
} from '../../schema/api/calls.ts';
import { dismissSuggestedContext } from '../../schema/api/calls-accounting.ts';
import { dismissSuggestion } from '../domain/suggestion-dismissal.ts';
import { inWriteTx } from './admin.ts';
import { canCodeTransactions } from '../../schema/roles.ts';
import type { TransactionFilter } from '../../schema/transaction-query.ts';
import { bulkCode, codeTransaction } from '../domain/coding.ts';
import { findTransaction, queryTransactions } from '../domain/transaction-sql.ts';
import { visibilityOf } from '../domain/visibility.ts';
import type { Actor } from '../core/actor.ts';
import { ApiError } from '../core/errors.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { versionedPatch, visibleRowGet } from './versioned.ts';

function assertCanCode(actor: Actor): void {
  if (!canCodeTransactions(actor.user)) throw new ApiError('FORBIDDEN_7003');
}

export const transactionHandlers = {
  // POST /search and GET/PATCH /:transaction_canonical_uuid never compete for a request (other
  // methods); served-catalogue.test.ts checks that every catalogue route matches alone.
  [searchTransactions.id]: async (ctx) => {
    const actor = actorOf(ctx);
    const { filters, sort, paging, include_count } = ctx.input.body;
    const vis = await visibilityOf(ctx.db, actor.user);
    return ok(
      await queryTransactions(ctx.db, actor.businessId, vis, {
        filter: filters,
        sort,
        pageSize: paging.page_size,
        start: paging.start,
        includeCount: include_count,
      }),
    );
  },

  [listTransactions.id]: async (ctx) => {
    const actor = actorOf(ctx);
    const { page_size, start, include_count, ...filter } = ctx.input.query;
    const vis = await visibilityOf(ctx.db, actor.user);
    return ok(
      await queryTransactions(ctx.db, actor.businessId, vis, {
        filter: filter as TransactionFilter,
        sort: 'occurred_desc',
        pageSize: page_size,
        start,
        includeCount: include_count === true,
      }),
    );
  },

  [getTransaction.id]: visibleRowGet('transactions', 'transaction_canonical_uuid', findTransaction),

  [patchTransaction.id]: versionedPatch('transactions', 'transaction_canonical_uuid', async (ctx) => {
    const actor = actorOf(ctx);
    assertCanCode(actor);
    const vis = await visibilityOf(ctx.db, actor.user);
    const id = ctx.input.params.transaction_canonical_uuid;
    return ok(await codeTransaction(ctx.db, actor.businessId, vis, id, ctx.input.body));
  }),

  // Issue 29: the coder dismisses the drawer's coding suggestion (a DELETE: its own transaction).
  [dismissSuggestedContext.id]: async (ctx) => {
    const actor = actorOf(ctx);
    assertCanCode(actor);
    const id = ctx.input.params.transaction_canonical_uuid;
    return ok(await inWriteTx(ctx, dismissSuggestedContext, async (tx) =>
      dismissSuggestion(tx, actor.businessId, await visibilityOf(tx, actor.user), id, new Date(ctx.deps.now()))));
  },

  [bulkCodeTransactions.id]: async (ctx) => {
    const actor = actorOf(ctx);
    assertCanCode(actor);
    const vis = await visibilityOf(ctx.db, actor.user);
    return ok(await bulkCode(ctx.db, actor.businessId, vis, ctx.input.body));
  },
} satisfies DomainHandlers;
