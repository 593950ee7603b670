import { randomUUID } from 'node:crypto';
import type { ApprovalGroup } from '../../schema/api/calls-approval-policies.ts';
import type { GroupDirectory } from '../../schema/approval-policy.ts';
import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { shownUserSql } from './hidden-users.ts';

/**
 * Named approval groups (issue 29), server-only like the policies that name them. A step naming
 * a group resolves it to its members at submission (so an edit reaches chains submitted later);
 * every write takes the business row's lock first, as policy edits do, so a delete and a policy
 * naming the group serialize: a group a current policy names is never deleted (409 POLICY_7022).
 * Members must be live users of the business; another business's group is 404.
 */

const GROUP_DOC = `jsonb_build_object('id', g.id, 'name', g.name, 'mode', g.mode, 'user_ids', to_jsonb(g.user_ids),
  'created_at', g.created_at, 'updated_at', g.updated_at)`;

const lockBusiness = (tx: Queryable, businessId: string) => tx.query('SELECT 1 FROM businesses WHERE id = $1 FOR UPDATE', [businessId]);

export async function listGroups(db: Queryable, businessId: string): Promise<ApprovalGroup[]> {
  const rows = await db.query<{ doc: ApprovalGroup }>(
    `SELECT ${GROUP_DOC} AS doc FROM approval_groups g WHERE g.business_id = $1 AND NOT g.deleted ORDER BY lower(g.name), g.id`, [businessId],
  );
  return rows.map((r) => r.doc);
}

/** The live groups as the chain resolution reads them. */
export async function groupDirectory(db: Queryable, businessId: string): Promise<GroupDirectory> {
  const groups = await listGroups(db, businessId);
  return new Map(groups.map((g) => [g.id, { user_ids: g.user_ids, mode: g.mode }]));
}

/** 404 unless each group is a live group of the business (a policy step names it). */
export async function assertGroupsOwned(db: Queryable, businessId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const [row] = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM approval_groups WHERE business_id = $1 AND id = ANY($2::uuid[]) AND NOT deleted', [businessId, ids],
  );
  if (Number(row?.n ?? 0) !== ids.length) throw new ApiError('REQUEST_7004', 'An approval group the request names was not found.');
}

async function assertMembers(db: Queryable, businessId: string, userIds: readonly string[]): Promise<string[]> {
  const unique = [...new Set(userIds)];
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM spend_users WHERE business_id = $1 AND id = ANY($2::uuid[]) AND NOT deleted AND ${shownUserSql()}`, [businessId, unique],
  );
  if (Number(row?.n ?? 0) !== unique.length) throw new ApiError('REQUEST_7004', 'A member the request names was not found.');
  return unique;
}

/** The unique index on the live names answers a duplicate; we say so before it does. */
async function assertNameFree(db: Queryable, businessId: string, name: string, except: string | null): Promise<void> {
  const rows = await db.query(
    `SELECT 1 FROM approval_groups WHERE business_id = $1 AND lower(name) = lower($2) AND NOT deleted AND id IS DISTINCT FROM $3::uuid`,
    [businessId, name, except],
  );
  if (rows.length > 0) throw new ApiError('POLICY_7025');
}

export async function createGroup(
  tx: Queryable, businessId: string, userId: string, body: { name: string; mode: 'any' | 'all'; user_ids: string[] }, at: string,
): Promise<ApprovalGroup> {
  await lockBusiness(tx, businessId);
  const members = await assertMembers(tx, businessId, body.user_ids);
  await assertNameFree(tx, businessId, body.name, null);
  const [row] = await tx.query<{ doc: ApprovalGroup }>(
    `INSERT INTO approval_groups AS g (id, business_id, name, mode, user_ids, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::uuid[], $6, $7, $7) RETURNING ${GROUP_DOC} AS doc`,
    [randomUUID(), businessId, body.name, body.mode, members, userId, at],
  );
  return row!.doc;
}

async function lockGroup(tx: Queryable, businessId: string, id: string): Promise<ApprovalGroup> {
  const [row] = await tx.query<{ doc: ApprovalGroup }>(
    `SELECT ${GROUP_DOC} AS doc FROM approval_groups g WHERE g.business_id = $1 AND g.id = $2 AND NOT g.deleted FOR UPDATE`, [businessId, id],
  );
  if (!row) throw new ApiError('REQUEST_7004', 'This approval group was not found.');
  return row.doc;
}

export async function updateGroup(
  tx: Queryable, businessId: string, id: string, body: { name?: string | undefined; mode?: 'any' | 'all' | undefined; user_ids?: string[] | undefined }, at: string,
): Promise<ApprovalGroup> {
  await lockBusiness(tx, businessId);
  const group = await lockGroup(tx, businessId, id);
  const members = body.user_ids ? await assertMembers(tx, businessId, body.user_ids) : group.user_ids;
  if (body.name !== undefined) await assertNameFree(tx, businessId, body.name, id);
  const [row] = await tx.query<{ doc: ApprovalGroup }>(
    `UPDATE approval_groups g SET name = $3, mode = $4, user_ids = $5::uuid[], updated_at = $6
      WHERE g.business_id = $1 AND g.id = $2 RETURNING ${GROUP_DOC} AS doc`,
    [businessId, id, body.name ?? group.name, body.mode ?? group.mode, members, at],
  );
  return row!.doc;
}

/** The policy types whose current version has a step naming the group (jsonb containment on the steps). */
async function typesNaming(db: Queryable, businessId: string, groupId: string): Promise<string[]> {
  const rows = await db.query<{ object_type: string }>(
    `SELECT object_type FROM (
       SELECT DISTINCT ON (object_type) object_type, steps FROM approval_policies WHERE business_id = $1 ORDER BY object_type, version DESC
     ) p WHERE p.steps @> jsonb_build_array(jsonb_build_object('approvers', jsonb_build_object('kind', 'approval_group', 'group_id', $2::text)))
     ORDER BY object_type`,
    [businessId, groupId],
  );
  return rows.map((r) => r.object_type);
}

export async function deleteGroup(tx: Queryable, businessId: string, id: string, at: string): Promise<{ id: string; deleted: true }> {
  await lockBusiness(tx, businessId);
  await lockGroup(tx, businessId, id);
  const using = await typesNaming(tx, businessId, id);
  if (using.length > 0) {
    throw new ApiError('POLICY_7022', `This approval group is used by the ${using.join(', ')} approval ${using.length === 1 ? 'policy' : 'policies'}. Remove it from their steps first.`);
  }
  await tx.query('UPDATE approval_groups SET deleted = true, updated_at = $3 WHERE business_id = $1 AND id = $2', [businessId, id, at]);
  return { id, deleted: true };
}
