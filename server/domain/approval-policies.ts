import { randomUUID } from 'node:crypto';
import type { ApprovalInstance, PolicyResponse, PolicyStepBody } from '../../schema/api/calls-approval-policies.ts';
import {
  addStep, defaultPolicy, referencedUserIds, reorderPendingStep, resolveChain, startInstance,
  type Chain, type DirectoryUser, type InstanceState, type Policy, type PolicyObjectType, type PolicyStep, type Subject,
} from '../../schema/approval-policy.ts';
import { fullName } from '../../schema/entities/spend-user.ts';
import { ApiError, validationError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';

/**
 * Approval policies and instances (issue 11) in storage; the rules are schema/approval-policy.ts.
 * A policy edit inserts the next version under the business row's lock (the lock every writer of
 * the business's counters takes first, so two edits serialize instead of colliding on the
 * version). Ids a policy or a simulation names must be live rows of the caller's business: any
 * other id, another business's included, answers 404 as if it did not exist.
 */

export type StoredPolicy = { policy: Policy; version: number; updated_by: string | null; updated_at: string | null };

export async function currentPolicy(db: Queryable, businessId: string, type: PolicyObjectType): Promise<StoredPolicy> {
  const [row] = await db.query<{ version: number; steps: PolicyStep[]; created_by: string; at: string }>(
    `SELECT version, steps, created_by::text, to_jsonb(created_at) #>> '{}' AS at FROM approval_policies
      WHERE business_id = $1 AND object_type = $2 ORDER BY version DESC LIMIT 1`,
    [businessId, type],
  );
  if (!row) return { policy: defaultPolicy(type), version: 0, updated_by: null, updated_at: null };
  return { policy: { object_type: type, steps: row.steps }, version: row.version, updated_by: row.created_by, updated_at: row.at };
}

export const policyAnswer = (p: StoredPolicy): PolicyResponse => ({
  object_type: p.policy.object_type, version: p.version, is_default: p.version === 0, steps: p.policy.steps,
  updated_by: p.updated_by, updated_at: p.updated_at,
});

/** 404 unless every id is a live row of `table` in the business. */
async function assertOwned(db: Queryable, businessId: string, table: 'spend_users' | 'departments' | 'business_entities', ids: readonly string[], what: string) {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const rows = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${table} WHERE business_id = $1 AND id = ANY($2::uuid[]) AND NOT deleted`, [businessId, unique],
  );
  if (Number(rows[0]?.n ?? 0) !== unique.length) throw new ApiError('REQUEST_7004', `A ${what} the request names was not found.`);
}

/**
 * Users, departments and entities a policy names. Vendor ids are stored as sent: vendors are
 * another part of issue 11 (their table is not in this schema yet), and a condition on an unknown
 * vendor only ever skips its step.
 */
async function assertReferences(db: Queryable, businessId: string, policy: Policy): Promise<void> {
  await assertOwned(db, businessId, 'spend_users', referencedUserIds(policy), 'user');
  await assertOwned(db, businessId, 'departments', policy.steps.flatMap((s) => s.condition?.department_ids ?? []), 'department');
  await assertOwned(db, businessId, 'business_entities', policy.steps.flatMap((s) => s.condition?.entity_ids ?? []), 'entity');
}

const named = (s: PolicyStepBody): PolicyStep => ({ ...s, id: s.id ?? randomUUID() });

async function storeVersion(tx: Queryable, businessId: string, userId: string, policy: Policy): Promise<StoredPolicy> {
  await assertReferences(tx, businessId, policy);
  const [row] = await tx.query<{ version: number; at: string }>(
    `INSERT INTO approval_policies (business_id, object_type, version, steps, created_by)
     SELECT $1, $2, coalesce(max(version), 0) + 1, $3::jsonb, $4 FROM approval_policies WHERE business_id = $1 AND object_type = $2
     RETURNING version, to_jsonb(created_at) #>> '{}' AS at`,
    [businessId, policy.object_type, JSON.stringify(policy.steps), userId],
  );
  return { policy, version: row!.version, updated_by: userId, updated_at: row!.at };
}

const lockBusiness = (tx: Queryable, businessId: string) => tx.query('SELECT 1 FROM businesses WHERE id = $1 FOR UPDATE', [businessId]);

/** PATCH: the steps replace the policy's, as its next version. */
export async function replacePolicy(tx: Queryable, businessId: string, userId: string, type: PolicyObjectType, body: readonly PolicyStepBody[]) {
  const steps = body.map(named);
  const seen = new Set<string>();
  steps.forEach((s, i) => {
    if (seen.has(s.id)) throw validationError({ [`steps.${i}.id`]: `steps.${i}.id is already the id of another step` });
    seen.add(s.id);
  });
  await lockBusiness(tx, businessId);
  return storeVersion(tx, businessId, userId, { object_type: type, steps });
}

/** add-step: one step into the current policy (the default's steps included), as its next version. */
export async function addPolicyStep(tx: Queryable, businessId: string, userId: string, type: PolicyObjectType, body: PolicyStepBody, position?: number) {
  await lockBusiness(tx, businessId);
  const current = await currentPolicy(tx, businessId, type);
  const added = addStep(current.policy, named(body), position);
  if (!added.ok) throw validationError({ step: added.message });
  return storeVersion(tx, businessId, userId, added.policy);
}

type Person = DirectoryUser & { name: string; department_id: string | null; entity_id: string | null };

/** The business's people as the resolution reads them: active means an ACTIVE, live spend user. */
async function directory(db: Queryable, businessId: string): Promise<Person[]> {
  const rows = await db.query<{ id: string; role: string; manager_id: string | null; active: boolean; first_name: string; last_name: string; department_id: string | null; entity_id: string | null }>(
    `SELECT id::text, role, manager_id::text, (status = 'ACTIVE' AND NOT deleted) AS active, first_name, last_name,
            department_id::text, entity_id::text
       FROM spend_users WHERE business_id = $1`,
    [businessId],
  );
  return rows.map((r) => ({ ...r, name: fullName(r) }));
}

/**
 * The subject as a submission sees it: the requester must be a user of the business; department
 * and entity default to the requester's own when the object does not carry them.
 */
async function completeSubject(db: Queryable, businessId: string, s: Subject, people: readonly Person[]): Promise<Subject> {
  const requester = people.find((p) => p.id === s.requester_id);
  if (!requester) throw new ApiError('REQUEST_7004', 'The requester was not found.');
  const subject = { ...s, department_id: s.department_id ?? requester.department_id, entity_id: s.entity_id ?? requester.entity_id };
  if (s.department_id) await assertOwned(db, businessId, 'departments', [s.department_id], 'department');
  if (s.entity_id) await assertOwned(db, businessId, 'business_entities', [s.entity_id], 'entity');
  return subject;
}

/** The chain an object would get now, with every policy step applied or skipped, and why. */
export async function simulate(db: Queryable, businessId: string, type: PolicyObjectType, raw: Subject) {
  const people = await directory(db, businessId);
  const subject = await completeSubject(db, businessId, raw, people);
  const { policy, version } = await currentPolicy(db, businessId, type);
  const chain = resolveChain(policy, subject, people);
  const names = new Map(people.map((p) => [p.id, p.name]));
  const steps = chain.trace.map((trace) => {
    const step = policy.steps.find((p) => p.id === trace.step_id);
    const resolved = chain.steps.find((s) => s.step_id === trace.step_id);
    return {
      step_id: trace.step_id, applies: trace.applies, reason: trace.reason, approvers: step?.approvers ?? null, condition: step?.condition ?? null,
      mode: resolved?.mode ?? null, fallback: resolved?.fallback ?? false,
      resolved_approvers: (resolved?.approver_ids ?? []).map((id) => ({ user_id: id, name: names.get(id) ?? '' })),
    };
  });
  return { object_type: type, version, steps };
}

const INSTANCE_DOC = `jsonb_build_object('id', i.id, 'object_type', i.object_type, 'object_id', i.object_id, 'requester_id', i.requester_id,
  'policy_version', i.policy_version, 'status', i.status, 'steps', i.steps, 'created_at', i.created_at, 'updated_at', i.updated_at)`;

/** The chain of one submitted object under the current policy, resolved now. */
async function chainFor(db: Queryable, businessId: string, type: PolicyObjectType, raw: Subject): Promise<{ chain: Chain; version: number }> {
  const people = await directory(db, businessId);
  const subject = await completeSubject(db, businessId, raw, people);
  const { policy, version } = await currentPolicy(db, businessId, type);
  return { chain: resolveChain(policy, subject, people), version };
}

/** A new instance for a submitted object: its chain resolved from the current policy and stored whole. */
export async function createInstance(tx: Queryable, businessId: string, type: PolicyObjectType, objectId: string, subject: Subject, at: string): Promise<ApprovalInstance> {
  const { chain, version } = await chainFor(tx, businessId, type, subject);
  const state = startInstance(subject.requester_id, chain);
  // A chain still running for the object (its approval closed some other way) is superseded by the new one.
  await tx.query(
    `UPDATE approval_instances SET status = 'CANCELED', updated_at = $3 WHERE business_id = $1 AND object_id = $2 AND status = 'PENDING'`,
    [businessId, objectId, at],
  );
  const [row] = await tx.query<{ doc: ApprovalInstance }>(
    `INSERT INTO approval_instances AS i (id, business_id, object_type, object_id, requester_id, policy_version, status, steps, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $9) RETURNING ${INSTANCE_DOC} AS doc`,
    [randomUUID(), businessId, type, objectId, subject.requester_id, version, state.status, JSON.stringify(state.steps), at],
  );
  return row!.doc;
}

/** The instance of the business, locked; anything else is 404. */
export async function lockInstance(tx: Queryable, businessId: string, id: string): Promise<ApprovalInstance> {
  const [row] = await tx.query<{ doc: ApprovalInstance }>(
    `SELECT ${INSTANCE_DOC} AS doc FROM approval_instances i WHERE i.business_id = $1 AND i.id = $2 FOR UPDATE`, [businessId, id],
  );
  if (!row) throw new ApiError('REQUEST_7004');
  return row.doc;
}

export const stateOf = (i: ApprovalInstance): InstanceState => ({ status: i.status, requester_id: i.requester_id, steps: i.steps });

export async function storeInstance(tx: Queryable, businessId: string, id: string, state: InstanceState, at: string): Promise<ApprovalInstance> {
  const [row] = await tx.query<{ doc: ApprovalInstance }>(
    `UPDATE approval_instances i SET status = $3, steps = $4::jsonb, updated_at = $5 WHERE i.business_id = $1 AND i.id = $2
     RETURNING ${INSTANCE_DOC} AS doc`,
    [businessId, id, state.status, JSON.stringify(state.steps), at],
  );
  return row!.doc;
}

/** reorder-step: a step not started yet moves among those not started (the open one stays). */
export async function reorderStep(tx: Queryable, businessId: string, body: { instance_id: string; step_id: string; position: number }, at: string) {
  const instance = await lockInstance(tx, businessId, body.instance_id);
  const moved = reorderPendingStep(stateOf(instance), body.step_id, body.position);
  if (!moved.ok) throw validationError({ [moved.field]: moved.message });
  return storeInstance(tx, businessId, instance.id, moved.instance, at);
}
