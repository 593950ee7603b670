import { getApprovalPolicy, updateApprovalPolicy, type PolicyResponse, type PolicyStepBody } from '../../schema/api/calls-approval-policies.ts';
import type { PolicyObjectType } from '../../schema/approval-policy.ts';
import type { OnlineFailure } from '../contracts/views.ts';
import { bindDomain, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';

/** An approval policy call's refusal; `offline`: nothing was sent. */
export type ApprovalPolicyFailure = OnlineFailure;
export type ApprovalPolicyResult = { ok: true; policy: PolicyResponse } | ApprovalPolicyFailure;

/** Refused before any request: policies live on the server (nothing mirrored or queued). */
export const APPROVAL_POLICY_OFFLINE = offlineFailure('You’re offline. Approval policies need a connection: nothing was sent.');

const policy = (p: PolicyResponse) => ({ policy: p });

/**
 * Issue 25: the approval policy screen (admins; schema/api/calls-approval-policies.ts): read the
 * current policy of an object type and replace its steps (a new version). Online only; a failure
 * is data (the server's error_v2 with its field errors, or offline).
 */
export const APPROVAL_POLICY_CALLS = onlineDomain(APPROVAL_POLICY_OFFLINE, {
  approvalPolicy: via(getApprovalPolicy, (object_type: PolicyObjectType) => ({ params: { object_type } }), policy),
  saveApprovalPolicy: via(updateApprovalPolicy, (object_type: PolicyObjectType, steps: PolicyStepBody[]) =>
    ({ params: { object_type }, body: { steps } }), policy),
});

export type ApprovalPolicyApi = OnlineApi<typeof APPROVAL_POLICY_CALLS>;

export const approvalPolicyHandlers = (port: OnlinePort): ApprovalPolicyApi => bindDomain(port, APPROVAL_POLICY_CALLS);
