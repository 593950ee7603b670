import { randomUUID } from 'node:crypto';
import {
  evaluateWorkflow, eventKey, executionStatus, MAX_WORKFLOW_DEPTH,
  type ActionResult, type Workflow, type WorkflowTrigger,
} from '../../../schema/workflow.ts';
import { ApiError } from '../../core/errors.ts';
import { currentScope, runInScope } from '../../core/workflow-scope.ts';
import type { Queryable } from '../../db/db.ts';
import type { ActionRun, Act } from './action-types.ts';
import { enabledWorkflows } from './store.ts';
import { loadSubject, type LoadedSubject } from './subjects.ts';

/**
 * The workflow engine (issue 29): `runWorkflows` is called by each trigger's write, in its
 * transaction (one hook line per trigger). For every enabled workflow of the trigger, oldest
 * first, it claims the execution row first — UNIQUE (workflow_id, event_key): a second firing of
 * the same event, in this process or a racing one, inserts nothing and the workflow does not run
 * again — then evaluates the rules and performs the matched rule's actions, each inside its own
 * savepoint so a failing action is recorded (PARTIAL / FAILED) and undone alone, never the
 * trigger's write. Actions that raise triggers (`ACTION_EMITS`) reach this function again through
 * the domain writes' own hooks, one level deeper (core/workflow-scope.ts); past
 * MAX_WORKFLOW_DEPTH the run stops with the error in its log.
 */

/**
 * The actions' table (actions.ts), installed by the routes layer (routes/workflows.ts): the actions
 * call the domain writes whose hooks call this engine, so the engine cannot import them without
 * an import cycle. Without it (a script with no app) a matched rule's actions are recorded FAILED.
 */
let ACTIONS: Readonly<Record<string, Act>> | null = null;
export function installWorkflowActions(actions: Readonly<Record<string, Act>>): void {
  ACTIONS = actions;
}

/** The event's occurrence: only triggers an object can raise more than once tell their occurrences apart. */
const REPEATABLE: readonly WorkflowTrigger[] = ['transaction.coded', 'claim.submitted'];

export type TriggerEvent = { trigger: WorkflowTrigger; objectId: string };

const errorText = (e: unknown) => (e instanceof ApiError || e instanceof Error ? e.message : String(e));

async function savepoint<T>(tx: Queryable, name: string, fn: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  await tx.query(`SAVEPOINT ${name}`);
  try {
    const value = await fn();
    await tx.query(`RELEASE SAVEPOINT ${name}`);
    return { ok: true, value };
  } catch (error) {
    await tx.query(`ROLLBACK TO SAVEPOINT ${name}`);
    await tx.query(`RELEASE SAVEPOINT ${name}`);
    return { ok: false, error };
  }
}

/** Claims the event for the workflow: false when it already ran (or is running in another transaction that then commits). */
async function claim(tx: Queryable, businessId: string, w: Workflow, key: string, loaded: LoadedSubject, depth: number, now: Date): Promise<string | null> {
  const id = randomUUID();
  const rows = await tx.query<{ id: string }>(
    `INSERT INTO workflow_executions (id, business_id, workflow_id, workflow_version, trigger, event_key, object_type, object_id, inputs, rules, actions, status, depth, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, '[]', '[]', 'NO_MATCH', $10, $11)
     ON CONFLICT (workflow_id, event_key) DO NOTHING RETURNING id::text`,
    [id, businessId, w.id, w.version, w.trigger, key, loaded.subject.object_type, loaded.subject.object_id, JSON.stringify(loaded.subject), depth, now.toISOString()],
  );
  return rows[0]?.id ?? null;
}

async function runOne(tx: Queryable, businessId: string, w: Workflow, trigger: WorkflowTrigger, loaded: LoadedSubject, depth: number, now: Date) {
  const key = eventKey(trigger, loaded.subject.object_id, REPEATABLE.includes(trigger) ? loaded.occurrence : '');
  const executionId = await claim(tx, businessId, w, key, loaded, depth, now);
  if (!executionId) return;
  let error: string | null = null;
  const evaluation = evaluateWorkflow(w, loaded.subject);
  const results: ActionResult[] = [];
  if (depth > MAX_WORKFLOW_DEPTH) {
    error = `Stopped: this run was started by ${depth - 1} workflow runs in a row; at most ${MAX_WORKFLOW_DEPTH} may chain.`;
  } else {
    const run: ActionRun = { tx, businessId, workflow: w, trigger, loaded, now, executionId, index: 0 };
    for (const [i, action] of evaluation.actions.entries()) {
      const act = ACTIONS?.[action.kind] as ((r: ActionRun, a: typeof action) => Promise<Omit<ActionResult, 'kind'>>) | undefined;
      const out = act
        ? await savepoint(tx, `workflow_action_${depth}_${i}`, () => runInScope({ depth: depth + 1 }, () => act({ ...run, index: i }, action)))
        : { ok: false as const, error: new Error('Workflow actions are not available in this process.') };
      results.push({ kind: action.kind, ...(out.ok ? out.value : { status: 'FAILED' as const, detail: errorText(out.error) }) });
    }
    const failed = results.find((r) => r.status === 'FAILED');
    if (failed) error = `${failed.kind}: ${failed.detail}`;
  }
  await tx.query(
    `UPDATE workflow_executions SET rule_id = $2, rules = $3::jsonb, actions = $4::jsonb, status = $5, error = $6 WHERE id = $1`,
    [executionId, evaluation.rule_id, JSON.stringify(evaluation.rules), JSON.stringify(results),
      depth > MAX_WORKFLOW_DEPTH ? 'FAILED' : executionStatus(evaluation, results, error), error],
  );
  await tx.query('UPDATE workflows SET last_run_at = $2 WHERE id = $1', [w.id, now.toISOString()]);
}

/**
 * Runs the business's enabled workflows of `event.trigger` on its object, in the caller's
 * transaction. Never throws: whatever goes wrong is undone to the savepoint and logged, so the
 * trigger's own write commits as it would without workflows. A business without an enabled
 * workflow of the trigger pays one indexed read (workflows_by_trigger).
 */
export async function runWorkflows(tx: Queryable, businessId: string, event: TriggerEvent, now: Date = new Date()): Promise<void> {
  await runWorkflowsOn(tx, businessId, event.trigger, [event.objectId], now);
}

/** The same for several objects of one trigger (bulk coding): one read of the workflows for all of them. */
export async function runWorkflowsOn(tx: Queryable, businessId: string, trigger: WorkflowTrigger, objectIds: readonly string[], now: Date = new Date()) {
  await runWorkflowsOf(tx, businessId, trigger, objectIds, () => enabledWorkflows(tx, businessId, trigger), now);
}

/**
 * The same with the workflows read beforehand (issue 33: a write's `prepare`, before the business
 * lock, domain/prepared-write.ts): a write that found none runs no statement here, under the lock.
 */
export async function runPreparedWorkflows(tx: Queryable, businessId: string, trigger: WorkflowTrigger, objectIds: readonly string[], workflows: readonly Workflow[], now: Date = new Date()) {
  if (workflows.length === 0) return;
  await runWorkflowsOf(tx, businessId, trigger, objectIds, () => Promise.resolve(workflows), now);
}

async function runWorkflowsOf(tx: Queryable, businessId: string, trigger: WorkflowTrigger, objectIds: readonly string[], read: () => Promise<readonly Workflow[]>, now: Date) {
  const depth = currentScope().depth;
  try {
    const workflows = await read();
    if (workflows.length === 0) return;
    const out = await savepoint(tx, `workflow_run_${depth}`, async () => {
      for (const id of objectIds) {
        const loaded = await loadSubject(tx, businessId, trigger, id);
        if (loaded) for (const w of workflows) await runOne(tx, businessId, w, trigger, loaded, depth, now);
      }
    });
    if (!out.ok) throw out.error;
  } catch (error) {
    console.error(`[ledgerline] workflows for ${trigger} stopped: ${errorText(error)}`);
  }
}

/** A created row handed back after its trigger's workflows ran (for a route whose domain write returns the row). */
export async function afterTrigger<T extends { id: string; business_id: string }>(tx: Queryable, trigger: WorkflowTrigger, row: T): Promise<T> {
  await runWorkflows(tx, row.business_id, { trigger, objectId: row.id });
  return row;
}
