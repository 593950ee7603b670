import {
  createWorkflow, deleteWorkflow, deleteWorkflowRule, dryRunWorkflow, getCanvasWorkflow, getWorkflow, listCanvasWorkflows,
  listWorkflowExecutions, listWorkflows, saveCanvasWorkflow, updateWorkflow, updateWorkflowRule,
} from '../../schema/api/calls-workflows.ts';
import { isAdmin } from '../../schema/roles.ts';
import { supportReadsWorkflows } from '../auth/support-access.ts';
import type { Actor } from '../core/actor.ts';
import { ApiError } from '../core/errors.ts';
import { ACTIONS } from '../domain/workflows/actions.ts';
import { dryRun } from '../domain/workflows/dry-run.ts';
import { installWorkflowActions } from '../domain/workflows/engine.ts';
import { listExecutions } from '../domain/workflows/executions.ts';
import {
  createWorkflow as create, deleteRule, deleteWorkflow as remove, draftOf, findWorkflow, listWorkflows as list, patchWorkflow, putRule, saveCanvas,
} from '../domain/workflows/store.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { inWriteTx } from './admin.ts';

// The engine runs inside other domains' writes; its actions call those writes, so they are handed to it from here.
installWorkflowActions(ACTIONS);

/** Automation workflows (issue 29): admins only (rules in domain/workflows/). */
const writerOf = (ctx: { actor: Actor | null }) => {
  const actor = actorOf(ctx);
  if (!isAdmin(actor.user)) throw new ApiError('WORKFLOW_7003');
  return actor;
};
const readerOf = (ctx: { actor: Actor | null }) => {
  const actor = actorOf(ctx);
  if (!isAdmin(actor.user) && !supportReadsWorkflows(actor)) throw new ApiError('FORBIDDEN_7003', 'Only an admin can see workflows and their runs.');
  return actor;
};
const nowOf = (ctx: { deps: { now: () => number } }) => new Date(ctx.deps.now());

export const workflowHandlers = {
  [listWorkflows.id]: async (ctx) => {
    const { businessId } = readerOf(ctx);
    return ok({ data: (await list(ctx.db, businessId, ctx.input.query.trigger)).map((s) => s.workflow) });
  },
  [createWorkflow.id]: async (ctx) => {
    const { businessId, user } = writerOf(ctx);
    return ok((await create(ctx.db, businessId, user.id, draftOf(ctx.input.body), nowOf(ctx))).workflow, 201);
  },
  [getWorkflow.id]: async (ctx) => {
    const { businessId } = readerOf(ctx);
    return ok((await findWorkflow(ctx.db, businessId, ctx.input.params.product_workflow_uuid)).workflow);
  },
  [updateWorkflow.id]: async (ctx) => {
    const { businessId, user } = writerOf(ctx);
    return ok((await patchWorkflow(ctx.db, businessId, user.id, ctx.input.params.product_workflow_uuid, ctx.input.body, nowOf(ctx))).workflow);
  },
  [deleteWorkflow.id]: async (ctx) => {
    const { businessId } = writerOf(ctx);
    return ok(await inWriteTx(ctx, deleteWorkflow, (tx) => remove(tx, businessId, ctx.input.params.product_workflow_uuid, nowOf(ctx))));
  },
  [dryRunWorkflow.id]: async (ctx) => {
    const { businessId } = writerOf(ctx);
    const { workflow_id, workflow, days } = ctx.input.body;
    const w = workflow_id
      ? (await findWorkflow(ctx.db, businessId, workflow_id)).workflow
      : { trigger: workflow!.trigger, rules: draftOf(workflow!).rules.map((r, i) => ({ ...r, id: r.id ?? `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}` })) };
    return ok(await dryRun(ctx.db, businessId, w, days, nowOf(ctx)));
  },
  [updateWorkflowRule.id]: async (ctx) => {
    const { businessId, user } = writerOf(ctx);
    return ok(await inWriteTx(ctx, updateWorkflowRule, async (tx) =>
      (await putRule(tx, businessId, user.id, ctx.input.params.rule_id, ctx.input.body, nowOf(ctx))).workflow));
  },
  [deleteWorkflowRule.id]: async (ctx) => {
    const { businessId, user } = writerOf(ctx);
    return ok(await inWriteTx(ctx, deleteWorkflowRule, async (tx) =>
      (await deleteRule(tx, businessId, user.id, ctx.input.params.rule_id, nowOf(ctx))).workflow));
  },
  [listCanvasWorkflows.id]: async (ctx) => {
    const { businessId } = readerOf(ctx);
    return ok({ data: await list(ctx.db, businessId) });
  },
  [getCanvasWorkflow.id]: async (ctx) => {
    const { businessId } = readerOf(ctx);
    const { workflow, canvas } = await findWorkflow(ctx.db, businessId, ctx.input.params.product_workflow_uuid);
    return ok({ workflow, canvas });
  },
  [saveCanvasWorkflow.id]: async (ctx) => {
    const { businessId, user } = writerOf(ctx);
    return ok(await saveCanvas(ctx.db, businessId, user.id, ctx.input.body, nowOf(ctx)));
  },
  [listWorkflowExecutions.id]: async (ctx) => {
    const { businessId } = readerOf(ctx);
    const { page_size, start, include_count, workflow_id, object_id } = ctx.input.query;
    return ok(await listExecutions(ctx.db, businessId, { workflow_id, object_id, pageSize: page_size, start, includeCount: include_count === true }));
  },
} satisfies DomainHandlers;
