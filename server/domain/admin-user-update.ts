import { managerRefusal } from '../../schema/team-rules.ts';
import { allocateSeqs, announceChange } from '../db/change-seq.ts';
import type { Queryable } from '../db/db.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError, validationError } from '../core/errors.ts';
import { ADMIN_USER_DOC_SQL, lockTarget, NO_PASSWORD } from './admin-users.ts';
import { findInvite, inviteState } from './admin-user-status.ts';
import { shownUserSql } from './hidden-users.ts';

/**
 * admin.users.get / admin.users.update (issue 14): one user as admins see it, and the reporting
 * line and placement (manager, department, location, entity) of a person. Writes take a change
 * seq like every mirrored row; the managers' visibility epochs follow from the new team.
 */

export type UserPatch = {
  manager_id?: string | null | undefined; department_id?: string | null | undefined;
  location_id?: string | null | undefined; entity_id?: string | null | undefined;
};

export async function getAdminUser(db: Queryable, businessId: string, userId: string): Promise<unknown> {
  const rows = await db.query<{ doc: unknown }>(
    `SELECT ${ADMIN_USER_DOC_SQL} AS doc FROM spend_users r WHERE r.business_id = $1 AND r.id = $2 AND NOT r.deleted`,
    [businessId, userId],
  );
  if (!rows[0]) throw new ApiError('REQUEST_7004');
  return rows[0].doc;
}

const PLACES = [
  ['department_id', 'departments', 'department'],
  ['location_id', 'locations', 'location'],
  ['entity_id', 'business_entities', 'business entity'],
] as const;

/** Department, location and entity ids must be live rows of the business: anything else is 404. */
async function checkPlaces(tx: Queryable, businessId: string, patch: UserPatch): Promise<void> {
  for (const [field, table, what] of PLACES) {
    const id = patch[field];
    if (!id) continue;
    const rows = await tx.query(`SELECT 1 FROM ${table} WHERE business_id = $1 AND id = $2 AND NOT deleted`, [businessId, id]);
    if (rows.length === 0) throw new ApiError('REQUEST_7004', `The ${what} was not found.`, { [field]: `The ${what} was not found.` });
  }
}

/** The chain above `managerId` within the business (UNION stops at any existing loop). */
async function chainAbove(tx: Queryable, businessId: string, managerId: string): Promise<string[]> {
  const rows = await tx.query<{ id: string }>(
    `WITH RECURSIVE up(id) AS (
       SELECT manager_id FROM spend_users WHERE business_id = $1 AND id = $2 AND manager_id IS NOT NULL
       UNION
       SELECT s.manager_id FROM spend_users s JOIN up ON s.id = up.id WHERE s.business_id = $1 AND s.manager_id IS NOT NULL
     ) SELECT id::text FROM up`,
    [businessId, managerId],
  );
  return rows.map((r) => r.id);
}

async function checkManager(tx: Queryable, businessId: string, userId: string, managerId: string): Promise<void> {
  const [manager] = await tx.query<{ id: string; status: string }>(
    `SELECT id::text, status FROM spend_users WHERE business_id = $1 AND id = $2 AND NOT deleted AND ${shownUserSql()}`, [businessId, managerId],
  );
  if (!manager) throw new ApiError('REQUEST_7004', 'The manager was not found.', { manager_id: 'The manager was not found.' });
  const chain = manager.id === userId ? [] : await chainAbove(tx, businessId, manager.id);
  const refusal = managerRefusal(userId, manager, () => chain);
  if (refusal) throw validationError({ manager_id: refusal });
}

export async function updateUser(tx: Queryable, actor: ActingUser, userId: string, patch: UserPatch): Promise<unknown> {
  const fields = (['manager_id', 'department_id', 'location_id', 'entity_id'] as const).filter((f) => patch[f] !== undefined);
  if (fields.length === 0) throw validationError({ body: 'Name at least one of manager_id, department_id, location_id or entity_id.' });
  const seq = await allocateSeqs(tx, actor.business_id, 1);
  if (!seq) throw new ApiError('REQUEST_7004');
  await lockTarget(tx, actor.business_id, userId);
  if (patch.manager_id) await checkManager(tx, actor.business_id, userId, patch.manager_id);
  await checkPlaces(tx, actor.business_id, patch);
  const sets = fields.map((f, i) => `${f} = $${i + 4}`).join(', ');
  const rows = await tx.query<{ doc: unknown }>(
    `UPDATE spend_users r SET ${sets}, change_seq = $3, updated_at = now() WHERE r.business_id = $1 AND r.id = $2
     RETURNING ${ADMIN_USER_DOC_SQL} AS doc`,
    [actor.business_id, userId, seq.last, ...fields.map((f) => patch[f] ?? null)],
  );
  await announceChange(tx, actor.business_id, seq.last);
  return rows[0]!.doc;
}

/**
 * What the invite page shows (public; the token is the credential): who invited whom to which
 * business, and whether the invite can still be accepted. Superseded (resent) tokens answer
 * `expired` as acceptance does; a deleted person's or unknown token is 404.
 */
export async function describeInvite(db: Queryable, token: string, now: number) {
  const invite = await findInvite(db, token);
  const state = inviteState(invite, now);
  if (state === 'missing' || !invite) throw new ApiError('REQUEST_7004', 'This invite was not found.');
  const [row] = await db.query<{ email: string; first_name: string; business_name: string; inviter_name: string | null; expires_at: Date | string }>(
    `SELECT u.email, u.first_name, b.name AS business_name,
            nullif(trim(coalesce(w.first_name, '') || ' ' || coalesce(w.last_name, '')), '') AS inviter_name, i.expires_at
       FROM user_invites i JOIN spend_users u ON u.id = i.user_id JOIN businesses b ON b.id = i.business_id
       LEFT JOIN spend_users w ON w.id = i.invited_by
      WHERE i.id = $1`,
    [invite.invite_id],
  );
  if (!row) throw new ApiError('REQUEST_7004', 'This invite was not found.');
  const status = state === 'accept' ? 'pending' : state === 'accepted' ? 'accepted' : 'expired';
  return {
    email: row.email,
    first_name: row.first_name,
    business_name: row.business_name,
    inviter_name: row.inviter_name,
    status,
    existing_account: invite.password_hash !== NO_PASSWORD,
    expires_at: new Date(row.expires_at).toISOString(),
  } as const;
}
