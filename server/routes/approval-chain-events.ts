import { approvalChainEvents } from '../../schema/api/calls-approval-events.ts';
import { approvalChains } from '../domain/approval-chain-events.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';

/** Issue 32: bulk approval chain events (schema/api/calls-approval-events.ts), a read-only POST. */
export const approvalChainEventHandlers = {
  [approvalChainEvents.id]: async (ctx) => ok({ data: await approvalChains(ctx.db, actorOf(ctx).user, ctx.input.body.approval_ids) }),
} satisfies DomainHandlers;
