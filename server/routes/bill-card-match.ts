import { getBillPaidByCard, markBillPaidByCard, payByCardMatching, undoBillPaidByCard } from '../../schema/api/calls-bill-card-match.ts';
import { billPaidByCard, closeBillByCard, payByCardSuggestions, undoBillPaidByCard as undo } from '../domain/bill-card-match.ts';
import { ok, type DomainHandlers } from '../http/handler.ts';
import { inWriteTx } from './admin.ts';
import { billManagerOf, nowOf } from './bill-access.ts';

/**
 * Bills paid by card (issue 30, domain/bill-card-match.ts): the suggestions, the close, the link
 * and its undo. Bill managers only (403 before any lookup), like every bill-pay route.
 */
export const billCardMatchHandlers = {
  [payByCardMatching.id]: async (ctx) => {
    const user = billManagerOf(ctx);
    const { bill_id, page_size, start, include_count } = ctx.input.query;
    return ok(await payByCardSuggestions(ctx.db, user, { billId: bill_id, pageSize: page_size, start, includeCount: include_count === true }));
  },

  [markBillPaidByCard.id]: async (ctx) =>
    ok(await closeBillByCard(ctx.db, billManagerOf(ctx), ctx.input.params.bill_uuid, ctx.input.body.transaction_id, nowOf(ctx))),

  [getBillPaidByCard.id]: async (ctx) => ok(await billPaidByCard(ctx.db, billManagerOf(ctx), ctx.input.params.bill_uuid)),

  // DELETE is not run in a transaction by register (no Idempotency-Key): it opens one.
  [undoBillPaidByCard.id]: async (ctx) => {
    const user = billManagerOf(ctx);
    return ok(await inWriteTx(ctx, undoBillPaidByCard, (tx) => undo(tx, user, ctx.input.params.bill_uuid, nowOf(ctx))));
  },
} satisfies DomainHandlers;
