import {
  acknowledgeFailedRuns as acknowledgeCall,
  deleteAutomationPolicy,
  listAutomationPolicies,
  putAutomationPolicy,
  sweepStatus as sweepStatusCall,
} from '../../schema/api/calls-treasury.ts';
import { isAdmin } from '../../schema/roles.ts';
import type { Actor } from '../core/actor.ts';
import { ApiError } from '../core/errors.ts';
import { acknowledgeFailedRuns, deletePolicy, listPolicies, putPolicy } from '../domain/treasury/automation.ts';
import { runDuePoliciesIn, sweepStatus } from '../domain/treasury/automation-job.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { inWriteTx } from './admin.ts';
import { nowOf } from './bill-access.ts';

/**
 * Issue 30: automation policies (sweeps), `/v1/auth/wallet/automation-policy`
 * (domain/treasury/automation.ts, the runs automation-job.ts). Admins only: anyone else is refused
 * with 403 TREASURY_7001 before anything is read. PUT and DELETE open their own transaction.
 */
function treasuryAdminOf(ctx: { actor: Actor | null }): Actor {
  const actor = actorOf(ctx);
  if (!isAdmin(actor.user)) throw new ApiError('TREASURY_7001');
  return actor;
}

export const walletAutomationHandlers = {
  [listAutomationPolicies.id]: async (ctx) => {
    const { businessId } = treasuryAdminOf(ctx);
    return ok({ policies: await listPolicies(ctx.db, businessId) });
  },
  [putAutomationPolicy.id]: async (ctx) => {
    const { businessId, user } = treasuryAdminOf(ctx);
    const { policy, created } = await inWriteTx(ctx, putAutomationPolicy, (tx) => putPolicy(tx, businessId, user.id, ctx.input.body, nowOf(ctx)));
    return ok(policy, created ? 201 : 200);
  },
  [deleteAutomationPolicy.id]: async (ctx) => {
    const { businessId } = treasuryAdminOf(ctx);
    const id = ctx.input.params.policy_id;
    await inWriteTx(ctx, deleteAutomationPolicy, (tx) => deletePolicy(tx, businessId, id, nowOf(ctx)));
    return ok({ id, deleted: true });
  },
  [acknowledgeCall.id]: async (ctx) => {
    const { businessId } = treasuryAdminOf(ctx);
    return ok({ acknowledged: await acknowledgeFailedRuns(ctx.db, businessId, ctx.input.body.policy_ids, nowOf(ctx)) });
  },
  // POST: ctx.db is the request's transaction; the due policies run in it one after another,
  // each claiming its day as the hourly job does, so a racing job run moves nothing twice.
  [sweepStatusCall.id]: async (ctx) => {
    const { businessId } = treasuryAdminOf(ctx);
    const at = nowOf(ctx);
    if (ctx.input.body.run) await runDuePoliciesIn(ctx.db, businessId, at);
    return ok(await sweepStatus(ctx.db, businessId, at));
  },
} satisfies DomainHandlers;
