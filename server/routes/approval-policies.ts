import {
  addApprovalPolicyStep, bulkUpdateApprovalPolicies, createApprovalGroup, deleteApprovalGroup, deleteApprovalPolicySteps,
  getApprovalPolicy, getAssignedEntities, listApprovalGroups, putAssignedEntities, reapplyInstancePolicy, reorderInstanceStep,
  resetApprovalPolicy, simulateApprovalPolicy, updateApprovalGroup, updateApprovalPolicy,
} from '../../schema/api/calls-approval-policies.ts';
import {
  addPolicyStep, assignEntities, assignedEntities, currentPolicy, deletePolicySteps, policyAnswer, reorderStep, replacePolicies,
  replacePolicy, resetPolicy, simulate,
} from '../domain/approval-policies.ts';
import { createGroup, deleteGroup, listGroups, updateGroup } from '../domain/approval-groups.ts';
import { reapplyInstancePolicy as reapply } from '../domain/instance-policy.ts';
import { ok, type DomainHandlers } from '../http/handler.ts';
import { adminOf, inWriteTx } from './admin.ts';

const nowIso = (ctx: { deps: { now: () => number } }) => new Date(ctx.deps.now()).toISOString();

/** Approval policies and chains (issue 11): admins read, edit and simulate them (rules in domain/approval-policies.ts). */
export const approvalPolicyHandlers = {
  [getApprovalPolicy.id]: async (ctx) => {
    const { businessId } = adminOf(ctx);
    return ok(policyAnswer(await currentPolicy(ctx.db, businessId, ctx.input.params.object_type)));
  },

  [updateApprovalPolicy.id]: async (ctx) => {
    const { businessId, user } = adminOf(ctx);
    return ok(policyAnswer(await replacePolicy(ctx.db, businessId, user.id, ctx.input.params.object_type, ctx.input.body.steps)));
  },

  [addApprovalPolicyStep.id]: async (ctx) => {
    const { businessId, user } = adminOf(ctx);
    const { object_type, step, position } = ctx.input.body;
    return ok(policyAnswer(await addPolicyStep(ctx.db, businessId, user.id, object_type, step, position)));
  },

  [simulateApprovalPolicy.id]: async (ctx) => {
    const { businessId } = adminOf(ctx);
    return ok(await simulate(ctx.db, businessId, ctx.input.body.object_type, ctx.input.body.subject));
  },

  [reorderInstanceStep.id]: async (ctx) => {
    const { businessId } = adminOf(ctx);
    return ok(await reorderStep(ctx.db, businessId, ctx.input.body, new Date(ctx.deps.now()).toISOString()));
  },

  // Issue 29: groups, bulk edits, entity assignment, deletes and re-applying a policy to an instance.
  [listApprovalGroups.id]: async (ctx) => ok({ data: await listGroups(ctx.db, adminOf(ctx).businessId) }),

  [createApprovalGroup.id]: async (ctx) => {
    const { businessId, user } = adminOf(ctx);
    return ok(await createGroup(ctx.db, businessId, user.id, ctx.input.body, nowIso(ctx)), 201);
  },

  [updateApprovalGroup.id]: async (ctx) => {
    const { businessId } = adminOf(ctx);
    return ok(await updateGroup(ctx.db, businessId, ctx.input.params.group_id, ctx.input.body, nowIso(ctx)));
  },

  [deleteApprovalGroup.id]: async (ctx) => {
    const { businessId } = adminOf(ctx);
    return ok(await inWriteTx(ctx, deleteApprovalGroup, (tx) => deleteGroup(tx, businessId, ctx.input.params.group_id, nowIso(ctx))));
  },

  [bulkUpdateApprovalPolicies.id]: async (ctx) => {
    const { businessId, user } = adminOf(ctx);
    return ok({ policies: (await replacePolicies(ctx.db, businessId, user.id, ctx.input.body.policies)).map(policyAnswer) });
  },

  [getAssignedEntities.id]: async (ctx) => {
    const { businessId } = adminOf(ctx);
    const type = ctx.input.params.object_type;
    return ok({ object_type: type, entity_ids: await assignedEntities(ctx.db, businessId, type) });
  },

  [putAssignedEntities.id]: async (ctx) => {
    const { businessId, user } = adminOf(ctx);
    const type = ctx.input.params.object_type;
    return ok(await inWriteTx(ctx, putAssignedEntities, (tx) => assignEntities(tx, businessId, user.id, type, ctx.input.body.entity_ids)));
  },

  [deleteApprovalPolicySteps.id]: async (ctx) => {
    const { businessId, user } = adminOf(ctx);
    const type = ctx.input.params.object_type;
    return ok(policyAnswer(await inWriteTx(ctx, deleteApprovalPolicySteps, (tx) => deletePolicySteps(tx, businessId, user.id, type, ctx.input.body.step_ids))));
  },

  [resetApprovalPolicy.id]: async (ctx) => {
    const { businessId, user } = adminOf(ctx);
    return ok(policyAnswer(await inWriteTx(ctx, resetApprovalPolicy, (tx) => resetPolicy(tx, businessId, user.id, ctx.input.params.object_type))));
  },

  [reapplyInstancePolicy.id]: async (ctx) => {
    const { businessId } = adminOf(ctx);
    return ok(await reapply(ctx.db, businessId, ctx.input.body.instance_id, nowIso(ctx)));
  },
} satisfies DomainHandlers;
