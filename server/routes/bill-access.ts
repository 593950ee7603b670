/**
 * What every bill-pay route (bills, bulk actions, recurring bills, vendor credits, templates)
 * starts with: the acting user, refused with 403 before any lookup unless a bill manager (admin,
 * AP clerk, bookkeeper: domain/bills.ts `assertMayManageBills`), and the request's clock.
 */
import { assertMayManageBills } from '../domain/bills.ts';
import { actorOf } from '../http/handler.ts';

export function billManagerOf(ctx: Parameters<typeof actorOf>[0]) {
  const actor = actorOf(ctx);
  // A firm's advisor in a client (issue 31) got here through the advisor gate, which opened this
  // call for its authorization's rights (READ reads every bill; CODE and CLOSE_BOOKS their calls).
  if (!actor.advisor) assertMayManageBills(actor.user);
  return actor.user;
}

export const nowOf = (ctx: { deps: { now: () => number } }) => new Date(ctx.deps.now());
