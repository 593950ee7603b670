import type { ActionResult, Workflow, WorkflowTrigger } from '../../../schema/workflow.ts';
import type { Queryable } from '../../db/db.ts';
import type { LoadedSubject } from './subjects.ts';

/**
 * What an action is handed: the trigger's transaction, the workflow that matched and its subject;
 * `executionId` (one per workflow and event, engine.ts `claim`) and the action's `index` in the
 * matched rule name this one act, so what it produces is keyed once per event (notifications).
 */
export type ActionRun = {
  tx: Queryable; businessId: string; workflow: Workflow; trigger: WorkflowTrigger; loaded: LoadedSubject; now: Date; executionId: string; index: number;
};
/** One action kind's performer (`action` is that kind's own shape). */
export type Act = (run: ActionRun, action: never) => Promise<Omit<ActionResult, 'kind'>>;
