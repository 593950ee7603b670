import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { expensePolicyPatchSchema } from '../../../schema/api/calls-expense-policies.ts';
import type { ExpensePolicy } from '../../../schema/entities/expense-policy.ts';
import {
  evaluatorOrder, MAX_EXPENSE_POLICIES, policyAppliesTo, policyProblems, type ExpensePolicyInput, type ExpensePolicyScope, type PolicyPerson,
} from '../../../schema/expense-policy.ts';
import { isAdmin } from '../../../schema/roles.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { COLLECTIONS, writeMirrored } from '../collections.ts';

/**
 * Expense policies (issue 29): mirrored reference data (`expense_policies` in `refs`, visibility
 * `business`), so every write takes a change seq through `writeMirrored` and a delete is a
 * tombstone the feed carries. Admins write (POLICY_7002 before any lookup); rules that contradict
 * themselves are 422 POLICY_7001 with `policyProblems`' fields; a departments scope names live
 * departments of the business (404 otherwise); at most MAX_EXPENSE_POLICIES live ones
 * (POLICY_7003, counted under the business counter's row lock that `writeMirrored` takes, so two
 * racing creates cannot both pass the count). Another business's policy is 404 like an unknown one.
 */
const DOC = COLLECTIONS.expense_policies.docSql;
const NOT_FOUND = 'No such expense policy.';

export type ExpensePolicyPatch = z.output<typeof expensePolicyPatchSchema>;

export function assertPolicyAdmin(user: ActingUser): void {
  if (!isAdmin(user)) throw new ApiError('POLICY_7002');
}

/** The live policies of a business, oldest first: the order `evaluatePolicies` lets them win in. */
export async function livePolicies(db: Queryable, businessId: string): Promise<ExpensePolicy[]> {
  const rows = await db.query<{ doc: ExpensePolicy }>(
    `SELECT ${DOC} AS doc FROM expense_policies r WHERE r.business_id = $1 AND NOT r.deleted ORDER BY r.created_at, r.id`,
    [businessId],
  );
  // The SQL's order is evaluatorOrder's; sorting again costs nothing (a handful) and keeps one definition authoritative.
  return evaluatorOrder(rows.map((r) => r.doc));
}

/** The live, enabled policies that apply to `person`, oldest first. */
export async function policiesFor(db: Queryable, businessId: string, person: PolicyPerson): Promise<ExpensePolicy[]> {
  return (await livePolicies(db, businessId)).filter((p) => policyAppliesTo(p, person));
}

/** The person as scopes read them (role, department), or null when not a live user of the business. */
export async function policyPerson(db: Queryable, businessId: string, userId: string): Promise<PolicyPerson | null> {
  const [row] = await db.query<PolicyPerson>(
    'SELECT id::text, role, department_id::text FROM spend_users WHERE business_id = $1 AND id = $2 AND NOT deleted',
    [businessId, userId],
  );
  return row ?? null;
}

export async function findPolicy(db: Queryable, businessId: string, id: string, lock = false): Promise<ExpensePolicy> {
  const rows = await db.query<{ doc: ExpensePolicy }>(
    `SELECT ${DOC} AS doc FROM expense_policies r WHERE r.business_id = $1 AND r.id = $2 AND NOT r.deleted${lock ? ' FOR UPDATE' : ''}`,
    [businessId, id],
  );
  if (!rows[0]) throw new ApiError('REQUEST_7004', NOT_FOUND);
  return rows[0].doc;
}

/** 422 POLICY_7001 naming each contradiction's field. */
function assertConsistent(input: Pick<ExpensePolicyInput, 'rules'>): void {
  const problems = policyProblems(input.rules);
  const first = Object.values(problems)[0];
  if (first !== undefined) throw new ApiError('POLICY_7001', first, problems);
}

/** A departments scope names live departments of the business (404 naming the first that is not). */
async function assertScope(db: Queryable, businessId: string, scope: ExpensePolicyScope): Promise<void> {
  if (scope.kind !== 'departments') return;
  const ids = [...new Set(scope.department_ids)];
  const rows = await db.query<{ id: string }>(
    'SELECT id::text FROM departments WHERE business_id = $1 AND id = ANY($2::uuid[]) AND NOT deleted',
    [businessId, ids],
  );
  const found = new Set(rows.map((r) => r.id));
  const missing = ids.find((id) => !found.has(id));
  if (missing) throw new ApiError('REQUEST_7004', `scope.department_ids: ${missing} is not a department of this business.`);
}

/** The stored scope: departments de-duplicated in the order given (so an edit that repeats one reads back once). */
function storedScope(scope: ExpensePolicyScope): ExpensePolicyScope {
  if (scope.kind === 'departments') return { kind: 'departments', department_ids: [...new Set(scope.department_ids)] };
  if (scope.kind === 'roles') return { kind: 'roles', roles: [...new Set(scope.roles)] };
  return scope;
}

export async function createPolicy(tx: Queryable, user: ActingUser, body: ExpensePolicyInput, now: Date): Promise<ExpensePolicy> {
  assertPolicyAdmin(user);
  assertConsistent(body);
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    await assertScope(tx, user.business_id, body.scope);
    const [count] = await tx.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM expense_policies WHERE business_id = $1 AND NOT deleted', [user.business_id],
    );
    if (Number(count?.n ?? 0) >= MAX_EXPENSE_POLICIES) throw new ApiError('POLICY_7003');
    const id = randomUUID();
    const at = now.toISOString();
    await tx.query(
      `INSERT INTO expense_policies (id, business_id, name, description, scope, rules, enabled, created_by, created_at, updated_at, change_seq)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8, $9, $9, $10)`,
      [id, user.business_id, body.name, body.description ?? null, JSON.stringify(storedScope(body.scope)), JSON.stringify(body.rules),
        body.enabled, user.id, at, seqs.first],
    );
    return findPolicy(tx, user.business_id, id);
  });
}

/** PATCH: the keys present change (`rules` whole); the merged rules are checked again. */
export async function updatePolicy(tx: Queryable, user: ActingUser, id: string, patch: ExpensePolicyPatch, now: Date): Promise<ExpensePolicy> {
  assertPolicyAdmin(user);
  if (patch.rules) assertConsistent({ rules: patch.rules });
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const current = await findPolicy(tx, user.business_id, id, true);
    const scope = patch.scope ?? current.scope;
    if (patch.scope) await assertScope(tx, user.business_id, patch.scope);
    await tx.query(
      `UPDATE expense_policies SET name = $3, description = $4, scope = $5::jsonb, rules = $6::jsonb, enabled = $7, updated_by = $8,
              updated_at = $9, change_seq = $10
        WHERE business_id = $1 AND id = $2`,
      [user.business_id, id, patch.name ?? current.name, patch.description === undefined ? current.description : patch.description,
        JSON.stringify(storedScope(scope)), JSON.stringify(patch.rules ?? current.rules), patch.enabled ?? current.enabled, user.id,
        now.toISOString(), seqs.first],
    );
    return findPolicy(tx, user.business_id, id);
  });
}

/** §7 DELETE expense-policies/{policy}: a tombstone with a fresh seq, so mirrors drop it. */
export async function deletePolicy(tx: Queryable, user: ActingUser, id: string, now: Date): Promise<{ id: string; deleted: true }> {
  assertPolicyAdmin(user);
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    await findPolicy(tx, user.business_id, id, true);
    await tx.query(
      'UPDATE expense_policies SET deleted = true, updated_by = $3, updated_at = $4, change_seq = $5 WHERE business_id = $1 AND id = $2',
      [user.business_id, id, user.id, now.toISOString(), seqs.first],
    );
    return { id, deleted: true as const };
  });
}
