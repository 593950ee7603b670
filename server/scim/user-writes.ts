import type { ActingUser } from '../core/actor.ts';
import type { AppDeps } from '../core/deps.ts';
import { foldEmail } from '../auth/email-address.ts';
import { sendInviteMail } from '../mail/invite.ts';
import { allocateSeqs, announceChange } from '../db/change-seq.ts';
import type { Queryable } from '../db/db.ts';
import { inviteUser } from '../domain/admin-users.ts';
import { deleteUser, suspendUser, unsuspendUser } from '../domain/admin-user-status.ts';
import { updateUser } from '../domain/admin-user-update.ts';
import { absoluteLink } from '../http/mail-links.ts';
import { invalidValue, ScimError } from './errors.ts';
import type { ScimCaller } from './integrations.ts';
import { ENTERPRISE_SCHEMA, USER_SCHEMA } from './schemas.ts';
import { findUserRow, UUID, type UserRow } from './users.ts';

/**
 * SCIM writes of users, through the admin domain (invites, placement, suspension, deletion), so
 * SCIM follows every rule the Team page does. The integration acts as an admin that is nobody:
 * it cannot touch owners (only an owner can), and it is never "yourself".
 */

type Obj = Record<string, unknown>;
export type UserState = {
  userName: string; givenName: string; familyName: string; active: boolean; externalId: string | null;
  department: string | null; managerId: string | null;
};

const NOBODY = '00000000-0000-0000-0000-000000000000';
const integrationAdmin = (caller: ScimCaller, id = NOBODY): ActingUser => ({
  id, business_id: caller.businessId, role: 'BUSINESS_ADMIN', is_manager: false, user_permissions: [], manager_id: null,
});

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function str(v: unknown, name: string, max = 200): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || v.length > max) throw invalidValue(`${name} must be a string of at most ${max} characters.`);
  return v;
}

/** The state a User document asks for (a POST or PUT body, or the resource after PATCH). Absent = cleared (PUT replaces). */
export function readUserState(doc: unknown): UserState {
  if (!isObj(doc) || !Array.isArray(doc.schemas) || !doc.schemas.includes(USER_SCHEMA)) {
    throw new ScimError(400, 'invalidSyntax', `A User names the schema ${USER_SCHEMA}.`);
  }
  const userName = str(doc.userName, 'userName', 254)?.trim();
  if (!userName || !EMAIL.test(userName)) throw invalidValue('userName is required and must be an email address.');
  const name = isObj(doc.name) ? doc.name : {};
  const active = doc.active ?? true;
  if (typeof active !== 'boolean') throw invalidValue('active must be true or false.');
  if (doc.emails !== undefined) {
    if (!Array.isArray(doc.emails)) throw invalidValue('emails must be an array.');
    const other = doc.emails.find((e) => !isObj(e) || typeof e.value !== 'string' || foldEmail(e.value) !== foldEmail(userName));
    if (other) throw invalidValue('emails may only hold the userName address: Ledgerline keeps one work address per person.');
  }
  const ext = doc[ENTERPRISE_SCHEMA] ?? Object.entries(doc).find(([k]) => k.toLowerCase() === ENTERPRISE_SCHEMA.toLowerCase())?.[1];
  const enterprise = isObj(ext) ? ext : {};
  const manager = enterprise.manager;
  const managerId = isObj(manager) ? str(manager.value, 'manager.value') : str(manager, 'manager');
  if (managerId !== null && !UUID.test(managerId)) throw invalidValue('manager.value must be the id of a Ledgerline user.');
  return {
    userName,
    givenName: str(name.givenName, 'name.givenName')?.trim() ?? '',
    familyName: str(name.familyName, 'name.familyName')?.trim() ?? '',
    active,
    externalId: str(doc.externalId, 'externalId'),
    department: str(enterprise.department, 'department')?.trim() || null,
    managerId: managerId?.toLowerCase() ?? null,
  };
}

async function departmentId(tx: Queryable, businessId: string, name: string | null): Promise<string | null> {
  if (name === null) return null;
  const rows = await tx.query<{ id: string }>(
    'SELECT id::text FROM departments WHERE business_id = $1 AND lower(name) = lower($2) AND NOT deleted ORDER BY id LIMIT 1', [businessId, name],
  );
  if (!rows[0]) throw invalidValue(`There is no department named "${name}": create it (as a Group) first.`);
  return rows[0].id;
}

async function setExternalId(tx: Queryable, businessId: string, userId: string, externalId: string | null): Promise<void> {
  await tx.query(
    `INSERT INTO scim_resources (business_id, resource_type, resource_id, external_id) VALUES ($1, 'User', $2, $3)
     ON CONFLICT (resource_type, resource_id) DO UPDATE SET external_id = EXCLUDED.external_id`,
    [businessId, userId, externalId],
  );
}

async function setNames(tx: Queryable, businessId: string, userId: string, s: UserState): Promise<void> {
  const seq = await allocateSeqs(tx, businessId, 1);
  if (!seq) throw new ScimError(404, null, 'User not found.');
  await tx.query('UPDATE spend_users SET first_name = $3, last_name = $4, change_seq = $5, updated_at = now() WHERE business_id = $1 AND id = $2',
    [businessId, userId, s.givenName, s.familyName, seq.last]);
  await announceChange(tx, businessId, seq.last);
}

/**
 * Deactivating someone who has not accepted their invite: the open invites are revoked and the
 * row is SUSPENDED (suspendUser handles only ACTIVE people, who also lose their sessions).
 */
async function deactivate(tx: Queryable, caller: ScimCaller, row: UserRow): Promise<void> {
  if (row.status === 'ACTIVE') { await suspendUser(tx, integrationAdmin(caller), row.id); return; }
  const seq = await allocateSeqs(tx, caller.businessId, 1);
  if (!seq) throw new ScimError(404, null, 'User not found.');
  await tx.query('UPDATE user_invites SET revoked_at = now() WHERE user_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL', [row.id]);
  await tx.query(`UPDATE spend_users SET status = 'SUSPENDED', change_seq = $3, updated_at = now() WHERE business_id = $1 AND id = $2`,
    [caller.businessId, row.id, seq.last]);
  await announceChange(tx, caller.businessId, seq.last);
}

/** Writes what differs between the stored user and the wanted state (PUT and PATCH). */
export async function applyUserState(tx: Queryable, caller: ScimCaller, row: UserRow, s: UserState): Promise<void> {
  if (foldEmail(s.userName) !== foldEmail(row.email)) {
    throw new ScimError(400, 'mutability', 'userName is the person\'s sign-in email and cannot be changed through SCIM.');
  }
  if (s.givenName !== row.first_name || s.familyName !== row.last_name) await setNames(tx, caller.businessId, row.id, s);
  if (s.externalId !== row.external_id) await setExternalId(tx, caller.businessId, row.id, s.externalId);
  const deptId = await departmentId(tx, caller.businessId, s.department);
  const placement = {
    ...(deptId !== row.department_id && { department_id: deptId }),
    ...(s.managerId !== row.manager_id && { manager_id: s.managerId }),
  };
  if (Object.keys(placement).length > 0) await updateUser(tx, integrationAdmin(caller), row.id, placement);
  const active = row.status !== 'SUSPENDED';
  if (active && !s.active) await deactivate(tx, caller, row);
  if (!active && s.active) await unsuspendUser(tx, integrationAdmin(caller), row.id);
}

/**
 * A new person: invited as the Team page invites (an employee, INVITED, mailed a link to accept),
 * with the integration's creator named as the inviter. A userName the business already has
 * (hidden or deleted people included: one person, one user per business) is 409 uniqueness.
 */
export async function createScimUser(
  tx: Queryable, deps: AppDeps, caller: ScimCaller, s: UserState, origin: string,
): Promise<string> {
  const email = foldEmail(s.userName);
  const taken = await tx.query('SELECT 1 FROM spend_users WHERE business_id = $1 AND lower(email) = $2', [caller.businessId, email]);
  if (taken.length > 0) throw new ScimError(409, 'uniqueness', `A user with userName ${email} already exists.`);
  const deptId = await departmentId(tx, caller.businessId, s.department);
  const issued = await inviteUser(tx, integrationAdmin(caller, caller.createdBy), {
    email, first_name: s.givenName, last_name: s.familyName, role: 'BUSINESS_USER', manager_id: s.managerId, department_id: deptId,
  }, deps.now());
  const userId = (issued.user as { id: string }).id;
  await setExternalId(tx, caller.businessId, userId, s.externalId);
  if (!s.active) await deactivate(tx, caller, await findUserRow(tx, caller.businessId, userId));
  else await sendInviteMail(deps, tx, caller.businessId, issued, { kind: 'integration', name: caller.name }, (path) => absoluteLink(origin, path));
  return userId;
}

/** DELETE: the person is removed as the Team page removes them (soft delete, invites revoked, signed out). */
export async function deleteScimUser(tx: Queryable, caller: ScimCaller, id: string): Promise<void> {
  await findUserRow(tx, caller.businessId, id, true);
  await deleteUser(tx, integrationAdmin(caller), id);
}
