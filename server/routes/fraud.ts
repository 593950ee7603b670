import { respondToFraud } from '../../schema/api/calls-fraud.ts';
import { respondToHeldCharge } from '../domain/fraud.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';

/** Fraud response (issue 24; rules in schema/fraud-rules.ts, writes in domain/fraud.ts). */
export const fraudHandlers = {
  [respondToFraud.id]: async (ctx) =>
    ok(await respondToHeldCharge(ctx.db, actorOf(ctx).user, ctx.input.params.transaction_canonical_uuid, ctx.input.body.response, new Date(ctx.deps.now()))),
} satisfies DomainHandlers;
