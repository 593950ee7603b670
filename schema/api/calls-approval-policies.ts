import { z } from 'zod';
import { defineCall } from './define-call.ts';
import {
  INSTANCE_STATUSES, MAX_GROUP_SIZE, MAX_POLICY_STEPS, approverSpecSchema, instanceStepSchema, policyObjectTypeSchema, policyStepSchema,
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
  /** Issue 29: the named group's name when the step names one. */
  group_name: z.string().nullable().optional(),
  /** Issue 29: delegates active now who may decide for a resolved approver ("by X for Y"). */
  delegates: z.array(z.object({ user_id: z.uuid(), name: z.string(), for_user_id: z.uuid() })).optional(),
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

/** Issue 29: named approval groups (§7 `DELETE approval_policy/group/{group}`), `any` one or `all` of them approve. */
export const approvalGroupSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  mode: z.enum(['any', 'all']),
  user_ids: z.array(z.uuid()),
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
});
export type ApprovalGroup = z.infer<typeof approvalGroupSchema>;
const groupNameSchema = z.string().trim().min(1).max(120);
const groupMembersSchema = z.array(z.uuid()).min(1).max(MAX_GROUP_SIZE);
const groupParams = z.object({ group_id: z.uuid() });

/** Registered before `GET /approval_policy/:object_type`, whose parameter would take `group`. */
export const listApprovalGroups = defineCall({
  id: 'admin.approvalGroups.list',
  method: 'GET',
  path: '/v1/auth/approval_policy/group',
  auth: scopes,
  response: z.object({ data: z.array(approvalGroupSchema) }),
});

export const createApprovalGroup = defineCall({
  id: 'admin.approvalGroups.create',
  method: 'POST',
  path: '/v1/auth/approval_policy/group',
  auth: scopes,
  body: z.object({ name: groupNameSchema, mode: z.enum(['any', 'all']), user_ids: groupMembersSchema }),
  response: approvalGroupSchema,
});

/** Members changed here reach chains submitted from now on; running ones keep whom they resolved. */
export const updateApprovalGroup = defineCall({
  id: 'admin.approvalGroups.update',
  method: 'PATCH',
  path: '/v1/auth/approval_policy/group/:group_id',
  auth: scopes,
  params: groupParams,
  body: z.object({ name: groupNameSchema.optional(), mode: z.enum(['any', 'all']).optional(), user_ids: groupMembersSchema.optional() }),
  response: approvalGroupSchema,
});

/** §7 DELETE approval_policy/group/{group}: refused (409 POLICY_7022) while a current policy names it. */
export const deleteApprovalGroup = defineCall({
  id: 'admin.approvalGroups.delete',
  method: 'DELETE',
  path: '/v1/auth/approval_policy/group/:group_id',
  auth: scopes,
  params: groupParams,
  body: z.object({}).optional(),
  response: z.object({ id: z.uuid(), deleted: z.literal(true) }),
});

/** §7 "bulk variants" of PATCH /approval_policy/{type}: several types replaced in one transaction (each a new version). */
export const bulkUpdateApprovalPolicies = defineCall({
  id: 'admin.approvalPolicies.bulkUpdate',
  method: 'PATCH',
  path: '/v1/auth/approval_policy',
  auth: scopes,
  body: z.object({
    policies: z.array(z.object({ object_type: policyObjectTypeSchema, steps: z.array(policyStepBodySchema).max(MAX_POLICY_STEPS) })).min(1).max(7),
  }),
  response: z.object({ policies: z.array(policyResponseSchema) }),
});

const assignedEntitiesSchema = z.object({
  object_type: policyObjectTypeSchema,
  /** null: the policy applies to every entity (nothing assigned). */
  entity_ids: z.array(z.uuid()).nullable(),
});

/** Which entities a type's policy applies to; objects of other entities run the built-in default. */
export const getAssignedEntities = defineCall({
  id: 'admin.approvalPolicies.entities',
  method: 'GET',
  path: '/v1/auth/approval_policy/:object_type/entities',
  auth: scopes,
  params: typeParams,
  response: assignedEntitiesSchema,
});

/** §7 PUT assigned approval chain entities: an empty list assigns it to none; `null` to every entity. */
export const putAssignedEntities = defineCall({
  id: 'admin.approvalPolicies.assignEntities',
  method: 'PUT',
  path: '/v1/auth/approval_policy/:object_type/entities',
  auth: scopes,
  params: typeParams,
  body: z.object({ entity_ids: z.array(z.uuid()).max(200).nullable() }),
  response: assignedEntitiesSchema,
});

/** §7 DELETE approvals_v2/{policy} (body): the named steps leave the type's policy (a new version). */
export const deleteApprovalPolicySteps = defineCall({
  id: 'admin.approvalPolicies.deleteSteps',
  method: 'DELETE',
  path: '/v1/auth/approvals_v2/:object_type',
  auth: scopes,
  params: typeParams,
  body: z.object({ step_ids: z.array(z.uuid()).min(1).max(MAX_POLICY_STEPS) }),
  response: policyResponseSchema,
});

/** §7 DELETE policy/{policy}: the type goes back to the built-in default (kept as a version). */
export const resetApprovalPolicy = defineCall({
  id: 'admin.approvalPolicies.reset',
  method: 'DELETE',
  path: '/v1/auth/policy/:object_type',
  auth: scopes,
  params: typeParams,
  body: z.object({}).optional(),
  response: policyResponseSchema,
});

/**
 * §7 PATCH approval instance policy: an admin re-resolves a running instance with the current
 * policy; steps already decided stay decided (schema/approval-policy.ts `reresolveInstance`).
 */
export const reapplyInstancePolicy = defineCall({
  id: 'admin.approvalInstances.reapplyPolicy',
  method: 'PATCH',
  path: '/v1/auth/approvals_v2/instance/policy',
  auth: scopes,
  body: z.object({ instance_id: z.uuid() }),
  response: approvalInstanceSchema,
});

export const APPROVAL_POLICY_CALLS = [
  listApprovalGroups, createApprovalGroup, updateApprovalGroup, deleteApprovalGroup,
  getApprovalPolicy, updateApprovalPolicy, addApprovalPolicyStep, simulateApprovalPolicy, reorderInstanceStep,
  bulkUpdateApprovalPolicies, getAssignedEntities, putAssignedEntities, deleteApprovalPolicySteps, resetApprovalPolicy, reapplyInstancePolicy,
] as const;
