import type { z } from 'zod';
import {
  deleteWorkflow, dryRunWorkflow, getCanvasWorkflow, listWorkflowExecutions, listWorkflows, saveCanvasWorkflow, updateWorkflow,
} from '../../schema/api/calls-workflows.ts';
import type { CallResponse } from '../../schema/api/define-call.ts';
import type { Canvas } from '../../schema/workflow-canvas.ts';
import type { Workflow, WorkflowExecution, WorkflowInput } from '../../schema/workflow.ts';
import type { OnlineFailure } from '../contracts/views.ts';
import { bindDomain, custom, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';

/** Refused before any request: workflows, their dry runs and their logs live on the server (nothing mirrored or queued). */
export const WORKFLOW_OFFLINE = offlineFailure('You’re offline. Workflows need a connection: nothing was sent.');

export type DryRunAnswer = CallResponse<typeof dryRunWorkflow>;
export type DryRunInput = z.input<typeof dryRunWorkflow.body>;
export type { Canvas, Workflow, WorkflowExecution, WorkflowInput };
/** A page of the execution log, newest first; `next` is the cursor of the page after it. */
export type ExecutionPage = { ok: true; executions: WorkflowExecution[]; next: string | null } | OnlineFailure;

const workflow = (w: Workflow) => ({ workflow: w });
const drawn = (d: { workflow: Workflow; canvas: Canvas }) => ({ workflow: d.workflow, canvas: d.canvas });

/**
 * Issue 29, automation workflows (schema/api/calls-workflows.ts), online only: the list (trigger in
 * words and last run come with each), one workflow as its canvas (nodes where they were drawn),
 * save from the canvas (creates without `id`; the one save path, so positions are kept), switch on or off, delete, the dry run over past
 * events and the execution log a page at a time. Admins only on the server (WORKFLOW_7003); a
 * refusal is data: the server's error_v2 with its fields (WORKFLOW_7001 loop, 7002 misfit steps,
 * 7006 canvas nodes), or offline.
 */
export const WORKFLOW_CALLS = onlineDomain(WORKFLOW_OFFLINE, {
  workflows: via(listWorkflows, () => ({ query: {} }), (d: { data: Workflow[] }) => ({ workflows: d.data })),
  workflowCanvas: via(getCanvasWorkflow, (product_workflow_uuid: string) => ({ params: { product_workflow_uuid } }), drawn),
  saveWorkflowCanvas: via(saveCanvasWorkflow, (body: { id?: string; name: string; enabled: boolean; canvas: Canvas }) => ({ body }), drawn),
  setWorkflowEnabled: via(updateWorkflow, (product_workflow_uuid: string, enabled: boolean) => ({ params: { product_workflow_uuid }, body: { enabled } }), workflow),
  deleteWorkflow: via(deleteWorkflow, (product_workflow_uuid: string) => ({ params: { product_workflow_uuid } })),
  dryRunWorkflow: via(dryRunWorkflow, (body: DryRunInput) => ({ body }), (run: DryRunAnswer) => ({ run })),
  workflowExecutions: custom((send) => async (query: { workflow_id?: string; object_id?: string; start?: string; page_size?: number }): Promise<ExecutionPage> => {
    const r = await send(listWorkflowExecutions, { query: { page_size: query.page_size ?? 25, ...query } });
    return r.ok ? { ok: true, executions: r.data.data, next: r.data.page.next } : r;
  }),
});

export type WorkflowApi = OnlineApi<typeof WORKFLOW_CALLS>;

export const workflowHandlers = (port: OnlinePort): WorkflowApi => bindDomain(port, WORKFLOW_CALLS);
