import { z } from 'zod';
import { callGroup } from './call-group.ts';
import {
  MAX_RULE_ACTIONS, MAX_RULE_CONDITIONS, workflowActionSchema, workflowConditionSchema, workflowExecutionSchema, workflowInputSchema,
  workflowSchema, workflowTriggerSchema, actionResultSchema, DRY_RUN_DAYS,
} from '../workflow.ts';
import { canvasSchema } from '../workflow-canvas.ts';
import { pageQuerySchema, paginatedSchema } from '../paging.ts';

/**
 * Issue 29, automation workflows (§7 "Workflows": /workflows, /workflows/{product_workflow_uuid},
 * /blank-canvas/workflows, /blank-canvas/executions, DELETE workflows/{workflow}, rules/{rule}, PUT
 * rules by id). Admins write them (WORKFLOW_7003 otherwise); reads also admit the
 * `impersonation-workflows-read` scope (§6: support reading workflows while acting as someone).
 * A save whose actions could reach its own trigger answers 422 WORKFLOW_7001 naming the chain; an
 * action or condition the trigger's object has no use for, 422 WORKFLOW_7002 with the fields
 * (schema/workflow.ts `workflowProblems`); a canvas that does not read as a workflow, 422
 * WORKFLOW_7006 with the nodes (schema/workflow-canvas.ts `canvasToWorkflow`).
 */
const scopes = { scopes: ['default'] } as const;
const readScopes = { scopes: ['default', 'impersonation-workflows-read'] } as const;

const workflowParams = z.object({ product_workflow_uuid: z.uuid() });
const ruleParams = z.object({ rule_id: z.uuid() });

export const workflowPatchSchema = workflowInputSchema.partial();
export type WorkflowPatch = z.infer<typeof workflowPatchSchema>;

const workflows = callGroup('/v1/auth/workflows', scopes);
const workflowReads = callGroup('/v1/auth/workflows', readScopes);

export const listWorkflows = workflowReads('workflows.list', 'GET', '', {
  query: z.object({ trigger: workflowTriggerSchema.optional() }), response: z.object({ data: z.array(workflowSchema) }),
});
/** 201. */
export const createWorkflow = workflows('workflows.create', 'POST', '', { body: workflowInputSchema, response: workflowSchema });
export const getWorkflow = workflowReads('workflows.get', 'GET', '/:product_workflow_uuid', { params: workflowParams, response: workflowSchema });
/** `conditions`/`actions` replace the first rule's, `rules` the others'; the version goes up by one. */
export const updateWorkflow = workflows('workflows.update', 'PATCH', '/:product_workflow_uuid', {
  params: workflowParams, body: workflowPatchSchema, response: workflowSchema,
});
/** §7 DELETE workflows/{workflow}: it stops running; its executions stay readable. */
export const deleteWorkflow = workflows('workflows.delete', 'DELETE', '/:product_workflow_uuid', {
  params: workflowParams, response: z.object({ id: z.uuid(), deleted: z.literal(true) }),
});

/**
 * The dry run: what the workflow (saved, or as edited and not yet saved) would have done over the
 * last `days` days of its trigger's events, acting on nothing. `results` lists at most the newest 200.
 */
export const dryRunWorkflow = workflows('workflows.dryRun', 'POST', '/dry-run', {
  body: z.object({
    workflow_id: z.uuid().optional(),
    workflow: workflowInputSchema.optional(),
    days: z.number().int().min(1).max(90).default(DRY_RUN_DAYS),
  }).refine((b) => (b.workflow_id === undefined) !== (b.workflow === undefined), { message: 'Send workflow_id or workflow, not both.' }),
  response: z.object({
    from: z.iso.date(),
    to: z.iso.date(),
    events: z.number().int().nonnegative(),
    matched: z.number().int().nonnegative(),
    /** Per action kind, how many times it would have run. */
    by_action: z.record(z.string(), z.number().int().nonnegative()),
    results: z.array(z.object({
      event_key: z.string(), object_type: z.string(), object_id: z.uuid(), occurred_at: z.iso.datetime({ offset: true }),
      summary: z.string(), rule_id: z.uuid().nullable(), actions: z.array(actionResultSchema),
    })),
    /** True when more events matched than `results` lists. */
    truncated: z.boolean(),
  }),
});

// --- Rules (§7 "DELETE rules/{rule}", "PUT rules by id") -----------------------------------------

const rules = callGroup('/v1/auth/rules', scopes);
export const updateWorkflowRule = rules('workflows.rules.update', 'PUT', '/:rule_id', {
  params: ruleParams,
  body: z.object({ conditions: z.array(workflowConditionSchema).max(MAX_RULE_CONDITIONS), actions: z.array(workflowActionSchema).min(1).max(MAX_RULE_ACTIONS) }),
  response: workflowSchema,
});
/** A workflow keeps at least one rule (WORKFLOW_7004). */
export const deleteWorkflowRule = rules('workflows.rules.delete', 'DELETE', '/:rule_id', { params: ruleParams, response: workflowSchema });

// --- The blank canvas -----------------------------------------------------------------------------

const canvasAnswerSchema = z.object({ workflow: workflowSchema, canvas: canvasSchema });
const canvasWrites = callGroup('/v1/auth/blank-canvas', scopes);
const canvasReads = callGroup('/v1/auth/blank-canvas', readScopes);

export const listCanvasWorkflows = canvasReads('blankCanvas.workflows.list', 'GET', '/workflows', {
  response: z.object({ data: z.array(canvasAnswerSchema) }),
});
export const getCanvasWorkflow = canvasReads('blankCanvas.workflows.get', 'GET', '/workflows/:product_workflow_uuid', {
  params: workflowParams, response: canvasAnswerSchema,
});
/** Creates (no id) or replaces (id) a workflow from its graph; node positions are kept as drawn. */
export const saveCanvasWorkflow = canvasWrites('blankCanvas.workflows.save', 'POST', '/workflows', {
  body: z.object({ id: z.uuid().optional(), name: z.string().trim().min(1).max(120), enabled: z.boolean(), canvas: canvasSchema }),
  response: canvasAnswerSchema,
});
/** The execution log, newest first. */
export const listWorkflowExecutions = canvasReads('blankCanvas.executions.list', 'GET', '/executions', {
  query: pageQuerySchema.extend({ workflow_id: z.uuid().optional(), object_id: z.uuid().optional() }),
  response: paginatedSchema(workflowExecutionSchema),
});

export const WORKFLOW_CALLS = [
  listWorkflows, createWorkflow, getWorkflow, updateWorkflow, deleteWorkflow, dryRunWorkflow, updateWorkflowRule, deleteWorkflowRule,
  listCanvasWorkflows, getCanvasWorkflow, saveCanvasWorkflow, listWorkflowExecutions,
] as const;
