import type { ApprovalChain, ChainEvent } from '../../schema/api/calls-approval-events.ts';
import type { InstanceStep } from '../../schema/approval-policy.ts';
import type { Approval } from '../../schema/entities/approval.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { COLLECTIONS } from './collections.ts';
import { viewerFor } from './visibility.ts';

/**
 * Issue 32: the events of approval chains (§7 bulk approval chain events), read from what the
 * chain keeps: its instance (requester, steps with their approvers, who approved each step,
 * delegations) and the approval row of every step reached (opened, decided or canceled, by whom,
 * when, why). Nothing is stored for this read, so it covers every chain ever run. Not recorded
 * anywhere, hence not answered: the reorder of a step not started and a policy reapplied to a
 * running chain (they change steps nobody has acted on).
 */
type Row = {
  id: string; object_type: Approval['object_type']; object_id: string; user_id: string; approver_id: string | null;
  status: Approval['status']; reason: string | null; decided_by: string | null; on_behalf_of: string | null;
  decided_at: string | null; created_at: string; updated_at: string; instance_id: string | null; step_index: number | null;
};
type Instance = { id: string; requester_id: string; status: Approval['status']; steps: InstanceStep[]; created_at: string };

const ROW = `r.id::text, r.object_type, r.object_id::text, r.user_id::text, r.approver_id::text, r.status, r.reason,
  r.decided_by::text, r.on_behalf_of::text, ll_iso(r.decided_at) AS decided_at, ll_iso(r.created_at) AS created_at,
  ll_iso(r.updated_at) AS updated_at, r.instance_id::text, r.step_index`;

const event = (e: Partial<ChainEvent> & Pick<ChainEvent, 'type' | 'step' | 'at'>): ChainEvent =>
  ({ actor_id: null, on_behalf_of: null, approver_ids: [], reason: null, ...e });

/** One step's approval row as events: opened, each co-approver of an "all" step, then its end. */
function stepEvents(row: Row, step: InstanceStep | undefined): ChainEvent[] {
  const index = row.step_index ?? 0;
  const approvers = step ? step.approver_ids : row.approver_id ? [row.approver_id] : [];
  const out = [event({ type: 'assigned', step: index, at: row.created_at, approver_ids: approvers })];
  // Whom the closing decision counted for (a delegate's counts for the approver they stood in for).
  const last = row.status === 'APPROVED' ? (row.on_behalf_of ?? row.decided_by) : null;
  for (const id of step?.approved_by ?? []) {
    if (id === last) continue;
    const by = step?.delegated?.find((d) => d.for === id)?.by;
    out.push(event({ type: 'approved', step: index, at: null, actor_id: by ?? id, on_behalf_of: by ? id : null }));
  }
  if (row.status === 'APPROVED' || row.status === 'REJECTED') {
    out.push(event({
      type: row.status === 'APPROVED' ? 'approved' : 'rejected', step: index, at: row.decided_at, actor_id: row.decided_by,
      on_behalf_of: row.on_behalf_of, reason: row.reason,
    }));
  }
  if (row.status === 'CANCELED') out.push(event({ type: 'canceled', step: index, at: row.updated_at }));
  return out;
}

function chainOf(asked: Row, instance: Instance | undefined, rows: readonly Row[]): ApprovalChain {
  const head = { approval_id: asked.id, object_type: asked.object_type, object_id: asked.object_id };
  if (!instance) {
    const events = [event({ type: 'submitted', step: null, at: asked.created_at, actor_id: asked.user_id }), ...stepEvents(asked, undefined)];
    return { ...head, instance_id: null, status: asked.status, events };
  }
  const submitted = event({ type: 'submitted', step: null, at: instance.created_at, actor_id: instance.requester_id });
  const events = [submitted, ...rows.flatMap((r) => stepEvents(r, instance.steps[r.step_index ?? 0]))];
  return { ...head, instance_id: instance.id, status: instance.status, events };
}

/** The chains of `ids` in the order asked: all or none (an id the caller cannot see is 404, naming the first). */
export async function approvalChains(db: Queryable, user: ActingUser, ids: readonly string[]): Promise<ApprovalChain[]> {
  const visibility = COLLECTIONS.approvals.visibility;
  const params: unknown[] = [user.business_id, [...ids]];
  const where = visibility.where(await viewerFor(db, user, [visibility]), 'r', params);
  const asked = await db.query<Row>(
    `SELECT ${ROW} FROM approvals r WHERE r.business_id = $1 AND r.id = ANY($2::uuid[]) AND NOT r.deleted${where}`, params,
  );
  const byId = new Map(asked.map((r) => [r.id, r]));
  const missing = ids.find((id) => !byId.has(id));
  if (missing) throw new ApiError('REQUEST_7004', `Approval ${missing} was not found.`);
  const instanceIds = [...new Set(asked.flatMap((r) => (r.instance_id ? [r.instance_id] : [])))];
  const [instances, steps] = instanceIds.length === 0 ? [[], []] : await Promise.all([
    db.query<Instance>(
      `SELECT id::text, requester_id::text, status, steps, ll_iso(created_at) AS created_at
         FROM approval_instances WHERE business_id = $1 AND id = ANY($2::uuid[])`,
      [user.business_id, instanceIds],
    ),
    db.query<Row>(
      `SELECT ${ROW} FROM approvals r WHERE r.business_id = $1 AND r.instance_id = ANY($2::uuid[]) AND NOT r.deleted
        ORDER BY r.step_index, r.created_at, r.id`,
      [user.business_id, instanceIds],
    ),
  ]);
  const instanceById = new Map(instances.map((i) => [i.id, i]));
  return ids.map((id) => {
    const row = byId.get(id)!;
    const instance = row.instance_id ? instanceById.get(row.instance_id) : undefined;
    return chainOf(row, instance, steps.filter((s) => s.instance_id === row.instance_id));
  });
}
