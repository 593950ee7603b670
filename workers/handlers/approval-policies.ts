import { getApprovalPolicy, updateApprovalPolicy } from '../../schema/api/calls-approval-policies.ts';
import type { CallDef, CallResponse } from '../../schema/api/define-call.ts';
import type { CallOptions } from '../../sync/index.ts';
import type { ApprovalPolicyApi, ApprovalPolicyFailure } from '../api.ts';
import { actionFailure } from '../identity.ts';
import type { WorkerContext } from '../worker-context.ts';

/** Refused before any request: policies live on the server (nothing mirrored or queued). */
export const APPROVAL_POLICY_OFFLINE: ApprovalPolicyFailure = {
  ok: false,
  offline: true,
  error: { error_code: 'OFFLINE', message: 'You’re offline. Approval policies need a connection: nothing was sent.' },
};

/**
 * Approval policies (issue 25; schema/api/calls-approval-policies.ts): direct calls through the
 * session's HTTP client, like handlers/support-access.ts. Online only; a failure is data (the
 * server's error_v2 with its field errors, or offline); a 401 expires the session.
 */
export function approvalPolicyHandlers(ctx: WorkerContext): ApprovalPolicyApi {
  async function send<C extends CallDef>(def: C, opts: CallOptions<C>): Promise<{ ok: true; data: CallResponse<C> } | ApprovalPolicyFailure> {
    if (!ctx.hub.online) return APPROVAL_POLICY_OFFLINE;
    const res = ctx.watch401(await ctx.requireHttp().call(def, opts));
    if (res.ok) return { ok: true, data: res.data };
    if ((res.kind === 'network' || res.kind === 'timeout') && !res.maybeSent) return APPROVAL_POLICY_OFFLINE;
    return actionFailure(res);
  }
  return {
    async approvalPolicy(object_type) {
      const r = await send(getApprovalPolicy, { params: { object_type } });
      return r.ok ? { ok: true, policy: r.data } : r;
    },
    async saveApprovalPolicy(object_type, steps) {
      const r = await send(updateApprovalPolicy, { params: { object_type }, body: { steps } });
      return r.ok ? { ok: true, policy: r.data } : r;
    },
  };
}
