import type { WorkflowExecution } from '../../../schema/workflow.ts';
import type { Queryable } from '../../db/db.ts';
import { newestFirstPage } from '../newest-first-page.ts';

/** The execution log's wire doc (schema/workflow.ts `workflowExecutionSchema`). */
const DOC = `jsonb_build_object('id', r.id, 'workflow_id', r.workflow_id, 'workflow_version', r.workflow_version, 'trigger', r.trigger,
  'event_key', r.event_key, 'object_type', r.object_type, 'object_id', r.object_id, 'inputs', r.inputs, 'rule_id', r.rule_id,
  'rules', r.rules, 'actions', r.actions, 'status', r.status, 'error', r.error, 'depth', r.depth, 'created_at', ll_iso(r.created_at))`;

/** Newest first, keyset-paged; by workflow and/or object (indexes workflow_executions_*). Another business's ids match nothing. */
export function listExecutions(
  db: Queryable, businessId: string, q: { workflow_id?: string | undefined; object_id?: string | undefined; pageSize: number; start?: string | undefined; includeCount: boolean },
) {
  const params: unknown[] = [businessId];
  const conds = ['r.business_id = $1'];
  if (q.workflow_id) conds.push(`r.workflow_id = $${params.push(q.workflow_id)}`);
  if (q.object_id) conds.push(`r.object_id = $${params.push(q.object_id)}`);
  return newestFirstPage<WorkflowExecution>(db, { table: 'workflow_executions', doc: DOC, where: conds.join(' AND '), params }, q);
}
