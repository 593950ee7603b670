import {
  createApprovalGroup, deleteApprovalGroup, getApprovalPolicy, listApprovalGroups, resetApprovalPolicy, simulateApprovalPolicy, updateApprovalGroup,
  updateApprovalPolicy, type ApprovalGroup, type PolicyResponse, type PolicyStepBody,
} from '../../schema/api/calls-approval-policies.ts';
import { deleteDelegation, listDelegations, putDelegation, type Delegation } from '../../schema/api/calls-copilot.ts';
import type { PolicyObjectType, Subject } from '../../schema/approval-policy.ts';
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
  // Issue 29: back to the default, named groups, the simulation, and delegation (copilot).
  resetApprovalPolicy: via(resetApprovalPolicy, (object_type: PolicyObjectType) => ({ params: { object_type }, body: {} }), policy),
  approvalGroups: via(listApprovalGroups, () => ({}), (r) => ({ groups: r.data })),
  createApprovalGroup: via(createApprovalGroup, (body: GroupBody) => ({ body }), (group: ApprovalGroup) => ({ group })),
  updateApprovalGroup: via(updateApprovalGroup, (group_id: string, body: GroupBody) => ({ params: { group_id }, body }), (group: ApprovalGroup) => ({ group })),
  deleteApprovalGroup: via(deleteApprovalGroup, (group_id: string) => ({ params: { group_id }, body: {} })),
  simulateApprovalPolicy: via(simulateApprovalPolicy, (object_type: PolicyObjectType, subject: Subject) => ({ body: { object_type, subject } }),
    (simulation) => ({ simulation })),
  delegations: via(listDelegations, () => ({}), (r) => r),
  delegate: via(putDelegation, (body: { delegate_id: string; starts_on: string; ends_on: string }) => ({ body }), (delegation: Delegation) => ({ delegation })),
  endDelegation: via(deleteDelegation, (user_id: string) => ({ params: { user_id }, body: {} })),
});

type GroupBody = { name: string; mode: 'any' | 'all'; user_ids: string[] };

export type ApprovalPolicyApi = OnlineApi<typeof APPROVAL_POLICY_CALLS>;

export const approvalPolicyHandlers = (port: OnlinePort): ApprovalPolicyApi => bindDomain(port, APPROVAL_POLICY_CALLS);
