import {
  addApprovalPolicyStep, getApprovalPolicy, reorderInstanceStep, simulateApprovalPolicy, updateApprovalPolicy,
} from '../../schema/api/calls-approval-policies.ts';
import {
  addPolicyStep, currentPolicy, policyAnswer, reorderStep, replacePolicy, simulate,
} from '../domain/approval-policies.ts';
import { ok, type DomainHandlers } from '../http/handler.ts';
import { adminOf } from './admin.ts';

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
} satisfies DomainHandlers;
