import { createHash } from 'node:crypto';
import type { ActingUser } from '../core/actor.ts';
import type { Queryable } from '../db/db.ts';
import { createOrg, deleteOrg, renameOrg } from '../domain/admin-org.ts';
import { updateUser } from '../domain/admin-user-update.ts';
import { shownUserSql } from '../domain/hidden-users.ts';
import { invalidValue, notFound, ScimError } from './errors.ts';
import type { ScimCaller } from './integrations.ts';
import { GROUP_SCHEMA } from './schemas.ts';
import { UUID } from './users.ts';

/**
 * Groups are departments (a person sits in at most one): members are the shown, live users whose
 * department it is. Adding someone moves them from their old department. The version covers the
 * department row and its member list, since a membership change writes the user rows only.
 */

type Obj = Record<string, unknown>;
export type GroupRow = {
  id: string; name: string; change_seq: number | string; updated_at: Date | string; external_id: string | null;
  scim_created_at: Date | string | null; members: { id: string; name: string }[] | null;
};

const GROUP_SQL = `
  SELECT d.id::text, d.name, d.change_seq, d.updated_at, s.external_id, s.created_at AS scim_created_at,
         (SELECT jsonb_agg(jsonb_build_object('id', u.id::text, 'name', trim(u.first_name || ' ' || u.last_name)) ORDER BY u.id)
            FROM spend_users u WHERE u.department_id = d.id AND u.business_id = d.business_id AND NOT u.deleted AND ${shownUserSql('u')}) AS members
    FROM departments d LEFT JOIN scim_resources s ON s.resource_type = 'Group' AND s.resource_id = d.id
   WHERE d.business_id = $1 AND NOT d.deleted`;

export const listGroupRows = (db: Queryable, businessId: string) => db.query<GroupRow>(`${GROUP_SQL} ORDER BY d.name, d.id`, [businessId]);

export async function findGroupRow(db: Queryable, businessId: string, id: string): Promise<GroupRow> {
  if (!UUID.test(id)) throw notFound('Group');
  const rows = await db.query<GroupRow>(`${GROUP_SQL} AND d.id = $2`, [businessId, id]);
  if (!rows[0]) throw notFound('Group');
  return rows[0];
}

const iso = (d: Date | string) => new Date(d).toISOString();

export function groupVersion(r: GroupRow): string {
  const digest = createHash('sha256').update((r.members ?? []).map((m) => m.id).join(',')).digest('hex').slice(0, 12);
  return `W/"${r.change_seq}-${digest}"`;
}

export function groupResource(r: GroupRow, base: string): Obj {
  return {
    schemas: [GROUP_SCHEMA],
    id: r.id,
    ...(r.external_id !== null && { externalId: r.external_id }),
    displayName: r.name,
    members: (r.members ?? []).map((m) => ({ value: m.id, display: m.name, type: 'User', $ref: `${base}/Users/${m.id}` })),
    meta: {
      resourceType: 'Group', created: iso(r.scim_created_at ?? r.updated_at), lastModified: iso(r.updated_at),
      location: `${base}/Groups/${r.id}`, version: groupVersion(r),
    },
  };
}

export type GroupState = { displayName: string; externalId: string | null; memberIds: string[] };

export function readGroupState(doc: unknown): GroupState {
  if (typeof doc !== 'object' || doc === null || !Array.isArray((doc as Obj).schemas) || !((doc as Obj).schemas as unknown[]).includes(GROUP_SCHEMA)) {
    throw new ScimError(400, 'invalidSyntax', `A Group names the schema ${GROUP_SCHEMA}.`);
  }
  const d = doc as Obj;
  const displayName = typeof d.displayName === 'string' ? d.displayName.trim() : '';
  if (!displayName || displayName.length > 120) throw invalidValue('displayName is required (at most 120 characters).');
  if (d.externalId !== undefined && d.externalId !== null && typeof d.externalId !== 'string') throw invalidValue('externalId must be a string.');
  const members = d.members ?? [];
  if (!Array.isArray(members)) throw invalidValue('members must be an array.');
  const memberIds = members.map((m) => {
    const v = typeof m === 'object' && m !== null ? (m as Obj).value : undefined;
    if (typeof v !== 'string' || !UUID.test(v)) throw invalidValue('Each member names a user by its id in value.');
    return v.toLowerCase();
  });
  return { displayName, externalId: (d.externalId as string | undefined) ?? null, memberIds: [...new Set(memberIds)] };
}

const integrationAdmin = (caller: ScimCaller): ActingUser => ({
  id: '00000000-0000-0000-0000-000000000000', business_id: caller.businessId, role: 'BUSINESS_ADMIN', is_manager: false,
  user_permissions: [], manager_id: null,
});

async function setExternalId(tx: Queryable, businessId: string, id: string, externalId: string | null): Promise<void> {
  await tx.query(
    `INSERT INTO scim_resources (business_id, resource_type, resource_id, external_id) VALUES ($1, 'Group', $2, $3)
     ON CONFLICT (resource_type, resource_id) DO UPDATE SET external_id = EXCLUDED.external_id`, [businessId, id, externalId],
  );
}

/** Members must be shown, live users of the business (another business's id is simply not one). */
async function assertMembers(tx: Queryable, businessId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const found = await tx.query<{ id: string }>(
    `SELECT id::text FROM spend_users WHERE business_id = $1 AND id = ANY($2::uuid[]) AND NOT deleted AND ${shownUserSql()}`, [businessId, ids],
  );
  const missing = ids.find((id) => !found.some((f) => f.id === id));
  if (missing) throw invalidValue(`Member ${missing} is not a user of this business.`);
}

/** Writes the wanted state: name, externalId, and exactly `memberIds` as the department's people. */
export async function applyGroupState(tx: Queryable, caller: ScimCaller, row: GroupRow, s: GroupState): Promise<void> {
  if (s.displayName !== row.name) await renameOrg(tx, 'departments', caller.businessId, row.id, s.displayName);
  if (s.externalId !== row.external_id) await setExternalId(tx, caller.businessId, row.id, s.externalId);
  await assertMembers(tx, caller.businessId, s.memberIds);
  const current = (row.members ?? []).map((m) => m.id);
  for (const id of current.filter((m) => !s.memberIds.includes(m))) {
    await updateUser(tx, integrationAdmin(caller), id, { department_id: null });
  }
  for (const id of s.memberIds.filter((m) => !current.includes(m))) {
    await updateUser(tx, integrationAdmin(caller), id, { department_id: row.id });
  }
}

export async function createGroup(tx: Queryable, caller: ScimCaller, s: GroupState): Promise<string> {
  const doc = await createOrg(tx, 'departments', caller.businessId, s.displayName) as { id: string };
  await setExternalId(tx, caller.businessId, doc.id, s.externalId);
  const row = await findGroupRow(tx, caller.businessId, doc.id);
  await applyGroupState(tx, caller, row, { ...s, externalId: s.externalId });
  return doc.id;
}

export async function deleteGroup(tx: Queryable, caller: ScimCaller, id: string): Promise<void> {
  await findGroupRow(tx, caller.businessId, id);
  await deleteOrg(tx, 'departments', caller.businessId, id);
}
