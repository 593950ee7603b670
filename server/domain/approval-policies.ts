import { randomUUID } from 'node:crypto';
import type { ApprovalInstance, PolicyResponse, PolicyStepBody } from '../../schema/api/calls-approval-policies.ts';
import {
  addStep, defaultPolicy, referencedGroupIds, referencedUserIds, reorderPendingStep, resolveChain, startInstance,
  type Chain, type DirectoryUser, type InstanceState, type Policy, type PolicyObjectType, type PolicyStep, type Subject,
} from '../../schema/approval-policy.ts';
import { assertGroupsOwned, groupDirectory } from './approval-groups.ts';
import { activeDelegatesOf } from './delegations.ts';
import { fullName } from '../../schema/entities/spend-user.ts';
import { ApiError, validationError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { shownUserSql } from './hidden-users.ts';

/**
 * Approval policies and instances (issue 11) in storage; the rules are schema/approval-policy.ts.
 * A policy edit inserts the next version under the business row's lock (the lock every writer of
 * the business's counters takes first, so two edits serialize instead of colliding on the
 * version). Ids a policy or a simulation names must be live rows of the caller's business: any
 * other id, another business's included, answers 404 as if it did not exist.
 */

/** `is_default`: version 0, or a version an admin reset to the default (issue 29: DELETE policy/{policy}). */
export type StoredPolicy = { policy: Policy; version: number; is_default: boolean; updated_by: string | null; updated_at: string | null };

export async function currentPolicy(db: Queryable, businessId: string, type: PolicyObjectType): Promise<StoredPolicy> {
  const [row] = await db.query<{ version: number; steps: PolicyStep[]; created_by: string; at: string; is_default: boolean }>(
    `SELECT version, steps, created_by::text, to_jsonb(created_at) #>> '{}' AS at, is_default FROM approval_policies
      WHERE business_id = $1 AND object_type = $2 ORDER BY version DESC LIMIT 1`,
    [businessId, type],
  );
  if (!row) return { policy: defaultPolicy(type), version: 0, is_default: true, updated_by: null, updated_at: null };
  return { policy: { object_type: type, steps: row.steps }, version: row.version, is_default: row.is_default, updated_by: row.created_by, updated_at: row.at };
}

export const policyAnswer = (p: StoredPolicy): PolicyResponse => ({
  object_type: p.policy.object_type, version: p.version, is_default: p.is_default, steps: p.policy.steps,
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
  await assertGroupsOwned(db, businessId, referencedGroupIds(policy));
}

const named = (s: PolicyStepBody): PolicyStep => ({ ...s, id: s.id ?? randomUUID() });

async function storeVersion(tx: Queryable, businessId: string, userId: string, policy: Policy, isDefault = false): Promise<StoredPolicy> {
  await assertReferences(tx, businessId, policy);
  const [row] = await tx.query<{ version: number; at: string }>(
    `INSERT INTO approval_policies (business_id, object_type, version, steps, created_by, is_default)
     SELECT $1, $2, coalesce(max(version), 0) + 1, $3::jsonb, $4, $5 FROM approval_policies WHERE business_id = $1 AND object_type = $2
     RETURNING version, to_jsonb(created_at) #>> '{}' AS at`,
    [businessId, policy.object_type, JSON.stringify(policy.steps), userId, isDefault],
  );
  return { policy, version: row!.version, is_default: isDefault, updated_by: userId, updated_at: row!.at };
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
export async function directory(db: Queryable, businessId: string): Promise<Person[]> {
  const rows = await db.query<{ id: string; role: string; manager_id: string | null; active: boolean; first_name: string; last_name: string; department_id: string | null; entity_id: string | null }>(
    `SELECT id::text, role, manager_id::text, (status = 'ACTIVE' AND NOT deleted AND ${shownUserSql()}) AS active, first_name, last_name,
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

/**
 * The policy an object runs under: the type's current one, unless an admin assigned it to some
 * entities and the object's is not among them (issue 29: PUT assigned approval chain entities),
 * then the built-in default. `version` is what an instance records: 0 for the default (reset or
 * unassigned too), so the default's manager override behaves the same whichever way it came.
 */
async function governingPolicy(db: Queryable, businessId: string, type: PolicyObjectType, subject: Subject): Promise<{ policy: Policy; version: number }> {
  const assigned = await assignedEntities(db, businessId, type);
  if (assigned && !(subject.entity_id && assigned.includes(subject.entity_id))) return { policy: defaultPolicy(type), version: 0 };
  const current = await currentPolicy(db, businessId, type);
  return { policy: current.policy, version: current.is_default ? 0 : current.version };
}

/** The chain of one submitted object under the policy governing it, resolved now, as submission and simulation both compute it. */
async function resolveNow(db: Queryable, businessId: string, type: PolicyObjectType, raw: Subject) {
  const people = await directory(db, businessId);
  const subject = await completeSubject(db, businessId, raw, people);
  const { policy, version } = await governingPolicy(db, businessId, type, subject);
  const groups = await groupDirectory(db, businessId);
  return { chain: resolveChain(policy, subject, people, groups), version, policy, people, groups, subject };
}

/**
 * The chain an object would get now, with every policy step applied or skipped, and why; each
 * step also names its group and the delegates active now for its approvers (issue 29).
 */
export async function simulate(db: Queryable, businessId: string, type: PolicyObjectType, raw: Subject) {
  const { chain, version, policy, people, groups } = await resolveNow(db, businessId, type, raw);
  const names = new Map(people.map((p) => [p.id, p.name]));
  const delegates = await activeDelegatesOf(db, businessId, chain.steps.flatMap((s) => s.approver_ids));
  const groupNames = new Map((await listGroupNames(db, businessId, [...groups.keys()])).map((g) => [g.id, g.name]));
  const steps = chain.trace.map((trace) => {
    const step = policy.steps.find((p) => p.id === trace.step_id);
    const resolved = chain.steps.find((s) => s.step_id === trace.step_id);
    const approverIds = resolved?.approver_ids ?? [];
    return {
      step_id: trace.step_id, applies: trace.applies, reason: trace.reason, approvers: step?.approvers ?? null, condition: step?.condition ?? null,
      mode: resolved?.mode ?? null, fallback: resolved?.fallback ?? false,
      resolved_approvers: approverIds.map((id) => ({ user_id: id, name: names.get(id) ?? '' })),
      group_name: step?.approvers.kind === 'approval_group' ? (groupNames.get(step.approvers.group_id) ?? null) : null,
      delegates: delegates.filter((d) => approverIds.includes(d.delegator_id) && d.delegate_id !== raw.requester_id)
        .map((d) => ({ user_id: d.delegate_id, name: d.name, for_user_id: d.delegator_id })),
    };
  });
  return { object_type: type, version, steps };
}

async function listGroupNames(db: Queryable, businessId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return db.query<{ id: string; name: string }>('SELECT id::text, name FROM approval_groups WHERE business_id = $1 AND id = ANY($2::uuid[])', [businessId, ids]);
}

const INSTANCE_DOC = `jsonb_build_object('id', i.id, 'object_type', i.object_type, 'object_id', i.object_id, 'requester_id', i.requester_id,
  'policy_version', i.policy_version, 'status', i.status, 'steps', i.steps, 'created_at', i.created_at, 'updated_at', i.updated_at)`;

async function chainFor(db: Queryable, businessId: string, type: PolicyObjectType, raw: Subject): Promise<{ chain: Chain; version: number }> {
  const { chain, version } = await resolveNow(db, businessId, type, raw);
  return { chain, version };
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
    `INSERT INTO approval_instances AS i (id, business_id, object_type, object_id, requester_id, policy_version, status, steps, created_at, updated_at, subject)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $9, $10::jsonb) RETURNING ${INSTANCE_DOC} AS doc`,
    [randomUUID(), businessId, type, objectId, subject.requester_id, version, state.status, JSON.stringify(state.steps), at, JSON.stringify(subject)],
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

/** Issue 29: the entities a type's policy is assigned to; null when it applies to every entity. */
export async function assignedEntities(db: Queryable, businessId: string, type: PolicyObjectType): Promise<string[] | null> {
  const [row] = await db.query<{ entity_ids: string[] }>(
    'SELECT entity_ids::text[] AS entity_ids FROM approval_policy_entities WHERE business_id = $1 AND object_type = $2', [businessId, type],
  );
  return row ? row.entity_ids : null;
}

/** PUT assigned approval chain entities: live entities of the business only (else 404); null clears the assignment. */
export async function assignEntities(tx: Queryable, businessId: string, userId: string, type: PolicyObjectType, ids: string[] | null) {
  await lockBusiness(tx, businessId);
  if (ids === null) {
    await tx.query('DELETE FROM approval_policy_entities WHERE business_id = $1 AND object_type = $2', [businessId, type]);
    return { object_type: type, entity_ids: null };
  }
  const unique = [...new Set(ids)];
  await assertOwned(tx, businessId, 'business_entities', unique, 'entity');
  await tx.query(
    `INSERT INTO approval_policy_entities (business_id, object_type, entity_ids, updated_by) VALUES ($1, $2, $3::uuid[], $4)
     ON CONFLICT (business_id, object_type) DO UPDATE SET entity_ids = excluded.entity_ids, updated_by = excluded.updated_by, updated_at = now()`,
    [businessId, type, unique, userId],
  );
  return { object_type: type, entity_ids: unique };
}

/** Bulk PATCH: each type's steps replace its policy, all in one transaction; a type named twice is refused. */
export async function replacePolicies(tx: Queryable, businessId: string, userId: string, items: readonly { object_type: PolicyObjectType; steps: PolicyStepBody[] }[]) {
  const seen = new Set<string>();
  items.forEach((p, i) => {
    if (seen.has(p.object_type)) throw validationError({ [`policies.${i}.object_type`]: `${p.object_type} is named twice` });
    seen.add(p.object_type);
  });
  const out: StoredPolicy[] = [];
  for (const item of items) out.push(await replacePolicy(tx, businessId, userId, item.object_type, item.steps));
  return out;
}

/** DELETE approvals_v2/{policy}: the named steps leave the current policy (a new version); an id not in it is 422. */
export async function deletePolicySteps(tx: Queryable, businessId: string, userId: string, type: PolicyObjectType, stepIds: readonly string[]) {
  await lockBusiness(tx, businessId);
  const current = await currentPolicy(tx, businessId, type);
  const missing = stepIds.findIndex((id) => !current.policy.steps.some((s) => s.id === id));
  if (missing >= 0) throw validationError({ [`step_ids.${missing}`]: 'step_ids names a step that is not in this policy' });
  return storeVersion(tx, businessId, userId, { object_type: type, steps: current.policy.steps.filter((s) => !stepIds.includes(s.id)) });
}

/** DELETE policy/{policy}: back to the built-in default, stored as a new version marked default. */
export async function resetPolicy(tx: Queryable, businessId: string, userId: string, type: PolicyObjectType) {
  await lockBusiness(tx, businessId);
  return storeVersion(tx, businessId, userId, defaultPolicy(type), true);
}

/** The subject an instance was resolved against (null for instances from before issue 29). */
export async function instanceSubject(db: Queryable, instanceId: string): Promise<Subject | null> {
  const [row] = await db.query<{ subject: Subject | null }>('SELECT subject FROM approval_instances WHERE id = $1', [instanceId]);
  return row?.subject ?? null;
}

/** The chain a running instance's object would get now (the reapply of domain/instance-policy.ts). */
export const chainNow = chainFor;
