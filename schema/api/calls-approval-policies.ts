import { z } from 'zod';
import { defineCall } from './define-call.ts';
import {
  INSTANCE_STATUSES, MAX_POLICY_STEPS, approverSpecSchema, instanceStepSchema, policyObjectTypeSchema, policyStepSchema,
  stepConditionSchema, subjectSchema,
} from '../approval-policy.ts';

/**
 * Approval policies and chains (issue 11, §7 Approvals). One policy per object type; editing it
 * makes a new version (version 0 is the built-in default: the requester's manager, else the
 * admins). Instances keep the version and the chain they were resolved with, so an edit never
 * rewrites an instance already running. Every call here is admin-only (`admin.` ids): policies are
 * the business's controls, as Ramp keeps them.
 */
const scopes = { scopes: ['default'] } as const;

/** A step as an edit sends it: the server names a step sent without an id. */
const policyStepBodySchema = policyStepSchema.extend({ id: z.uuid().optional() });
export type PolicyStepBody = z.infer<typeof policyStepBodySchema>;

export const policyResponseSchema = z.object({
  object_type: policyObjectTypeSchema,
  /** 0: the built-in default (never edited). */
  version: z.number().int().nonnegative(),
  is_default: z.boolean(),
  steps: z.array(policyStepSchema),
  updated_by: z.uuid().nullable(),
  updated_at: z.iso.datetime({ offset: true }).nullable(),
});
export type PolicyResponse = z.infer<typeof policyResponseSchema>;

const typeParams = z.object({ object_type: policyObjectTypeSchema });

export const getApprovalPolicy = defineCall({
  id: 'admin.approvalPolicies.get',
  method: 'GET',
  path: '/v1/auth/approval_policy/:object_type',
  auth: scopes,
  params: typeParams,
  response: policyResponseSchema,
});

/** §7 PATCH /approval_policy/{type}: the steps, in order, replace the policy's (a new version). */
export const updateApprovalPolicy = defineCall({
  id: 'admin.approvalPolicies.update',
  method: 'PATCH',
  path: '/v1/auth/approval_policy/:object_type',
  auth: scopes,
  params: typeParams,
  body: z.object({ steps: z.array(policyStepBodySchema).max(MAX_POLICY_STEPS) }),
  response: policyResponseSchema,
});

/** §7 POST /approval_policy/chain/add-step: one step into the current policy (a new version). */
export const addApprovalPolicyStep = defineCall({
  id: 'admin.approvalPolicies.addStep',
  method: 'POST',
  path: '/v1/auth/approval_policy/chain/add-step',
  auth: scopes,
  body: z.object({
    object_type: policyObjectTypeSchema,
    step: policyStepBodySchema,
    /** 0-based; the end when absent (a position past the end is the end). */
    position: z.number().int().nonnegative().max(MAX_POLICY_STEPS).optional(),
  }),
  response: policyResponseSchema,
});

const approverSchema = z.object({ user_id: z.uuid(), name: z.string() });
const simulatedStepSchema = z.object({
  step_id: z.uuid(),
  applies: z.boolean(),
  /** Why the step applies (no condition, condition matches, admins instead) or is skipped. */
  reason: z.string(),
  /** The policy step's approvers; null on the admins' step added when no policy step applies. */
  approvers: approverSpecSchema.nullable(),
  condition: stepConditionSchema.nullable(),
  /** Set when the step applies: who approves it and how. */
  mode: z.enum(['any', 'all']).nullable(),
  resolved_approvers: z.array(approverSchema),
  fallback: z.boolean(),
});

/**
 * §7 POST /approval_policy/request_simulation: the chain an object would get now, step by step.
 * `department_id` and `entity_id` default to the requester's own (what a submission uses).
 */
export const simulateApprovalPolicy = defineCall({
  id: 'admin.approvalPolicies.simulate',
  method: 'POST',
  path: '/v1/auth/approval_policy/request_simulation',
  auth: scopes,
  body: z.object({ object_type: policyObjectTypeSchema, subject: subjectSchema }),
  response: z.object({
    object_type: policyObjectTypeSchema,
    version: z.number().int().nonnegative(),
    /** Every policy step in order, applied or skipped; then the admins' step when none applied. */
    steps: z.array(simulatedStepSchema),
  }),
});

export const approvalInstanceSchema = z.object({
  id: z.uuid(),
  object_type: policyObjectTypeSchema,
  object_id: z.uuid(),
  requester_id: z.uuid(),
  policy_version: z.number().int().nonnegative(),
  status: z.enum(INSTANCE_STATUSES),
  steps: z.array(instanceStepSchema),
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
});
export type ApprovalInstance = z.infer<typeof approvalInstanceSchema>;

/** §7 PATCH /approvals_v2/instance/reorder-step: a step not started yet moves among those not started. */
export const reorderInstanceStep = defineCall({
  id: 'admin.approvalInstances.reorderStep',
  method: 'PATCH',
  path: '/v1/auth/approvals_v2/instance/reorder-step',
  auth: scopes,
  body: z.object({ instance_id: z.uuid(), step_id: z.uuid(), position: z.number().int().nonnegative().max(MAX_POLICY_STEPS) }),
  response: approvalInstanceSchema,
});

export const APPROVAL_POLICY_CALLS = [
  getApprovalPolicy, updateApprovalPolicy, addApprovalPolicyStep, simulateApprovalPolicy, reorderInstanceStep,
] as const;
