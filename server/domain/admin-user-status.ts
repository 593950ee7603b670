import { randomUUID } from 'node:crypto';
import type { Role } from '../../schema/roles.ts';
import { apClerkRemovalRefusal, roleFlagRefusal } from '../../schema/team-rules.ts';
import { featureFlagsOf } from '../auth/settings.ts';
import { allocateSeqs, announceChange } from '../db/change-seq.ts';
import type { Queryable } from '../db/db.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError, validationError } from '../core/errors.ts';
import { ADMIN_USER_DOC_SQL, hashToken, lockTarget, NO_PASSWORD } from './admin-users.ts';
import { markEmailVerified } from '../auth/email-verification.ts';

/**
 * Role changes, suspension and deletion. Each write stamps the user row with a new change seq:
 * mirrors converge, and the target's own visibility_epoch changes with the role (the feed
 * derives it from role, manager flag and team), so their client resyncs under the new rules.
 */

const isOwner = (role: string) => role === 'BUSINESS_OWNER';

async function seqFor(tx: Queryable, businessId: string): Promise<number> {
  const seq = await allocateSeqs(tx, businessId, 1);
  if (!seq) throw new ApiError('REQUEST_7004');
  return seq.last;
}

/** The business must keep at least one active owner. */
async function assertAnotherOwner(tx: Queryable, businessId: string, exceptId: string, what: string): Promise<void> {
  const rows = await tx.query(
    `SELECT 1 FROM spend_users WHERE business_id = $1 AND role = 'BUSINESS_OWNER' AND status = 'ACTIVE' AND NOT deleted AND id <> $2 LIMIT 1`,
    [businessId, exceptId],
  );
  if (rows.length === 0) throw new ApiError('REQUEST_7001', `The last owner of a business cannot be ${what}.`);
}

async function write(tx: Queryable, businessId: string, userId: string, set: string, params: unknown[], seq: number): Promise<unknown> {
  const rows = await tx.query<{ doc: unknown }>(
    `UPDATE spend_users r SET ${set}, change_seq = $3, updated_at = now() WHERE r.business_id = $1 AND r.id = $2
     RETURNING ${ADMIN_USER_DOC_SQL} AS doc`,
    [businessId, userId, seq, ...params],
  );
  await announceChange(tx, businessId, seq);
  return rows[0]!.doc;
}

/** Sessions belong to an identity, not a spend user: revoking them signs the person out everywhere. */
async function revokeSessions(tx: Queryable, identityId: string): Promise<void> {
  await tx.query('UPDATE sessions SET revoked_at = now() WHERE identity_id = $1 AND revoked_at IS NULL', [identityId]);
}

/** Only owners grant or take away the owner role; the last owner cannot be demoted. */
export async function changeRole(tx: Queryable, actor: ActingUser, userId: string, role: Role, isManager: boolean | undefined): Promise<unknown> {
  const seq = await seqFor(tx, actor.business_id);
  const target = await lockTarget(tx, actor.business_id, userId);
  if ((isOwner(role) || isOwner(target.role)) && !isOwner(actor.role)) {
    throw new ApiError('FORBIDDEN_7003', 'Only an owner can grant or remove the owner role.');
  }
  // §3 auditor_role, as in invites; someone who already holds the role keeps it (and may keep it here).
  const roleOff = role === target.role ? null : roleFlagRefusal(role, await featureFlagsOf(tx, actor.business_id));
  if (roleOff) throw validationError({ role: roleOff });
  if (isOwner(target.role) && !isOwner(role)) await assertAnotherOwner(tx, actor.business_id, userId, 'demoted');
  return write(tx, actor.business_id, userId, 'role = $4, is_manager = coalesce($5, is_manager)', [role, isManager ?? null], seq);
}

function assertNotSelf(actor: ActingUser, userId: string, what: string) {
  if (actor.id === userId) throw new ApiError('REQUEST_7001', `You cannot ${what} yourself.`);
}

export async function suspendUser(tx: Queryable, actor: ActingUser, userId: string): Promise<unknown> {
  assertNotSelf(actor, userId, 'suspend');
  const seq = await seqFor(tx, actor.business_id);
  const target = await lockTarget(tx, actor.business_id, userId);
  if (isOwner(target.role) && !isOwner(actor.role)) throw new ApiError('FORBIDDEN_7003', 'Only an owner can suspend an owner.');
  if (target.status !== 'ACTIVE') throw new ApiError('REQUEST_7001', 'Only active users can be suspended.');
  if (isOwner(target.role)) await assertAnotherOwner(tx, actor.business_id, userId, 'suspended');
  await revokeSessions(tx, target.identity_id);
  return write(tx, actor.business_id, userId, `status = 'SUSPENDED'`, [], seq);
}

export async function unsuspendUser(tx: Queryable, actor: ActingUser, userId: string): Promise<unknown> {
  const seq = await seqFor(tx, actor.business_id);
  const target = await lockTarget(tx, actor.business_id, userId);
  if (target.status !== 'SUSPENDED') throw new ApiError('REQUEST_7001', 'This user is not suspended.');
  return write(tx, actor.business_id, userId, `status = 'ACTIVE'`, [], seq);
}

/** Soft delete: a tombstone in the feed; open invites are revoked and the person signed out. */
export async function deleteUser(tx: Queryable, actor: ActingUser, userId: string): Promise<void> {
  assertNotSelf(actor, userId, 'delete');
  const seq = await seqFor(tx, actor.business_id);
  const target = await lockTarget(tx, actor.business_id, userId);
  if (isOwner(target.role) && !isOwner(actor.role)) throw new ApiError('FORBIDDEN_7003', 'Only an owner can delete an owner.');
  if (isOwner(target.role)) await assertAnotherOwner(tx, actor.business_id, userId, 'deleted');
  await tx.query('UPDATE user_invites SET revoked_at = now() WHERE user_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL', [userId]);
  await revokeSessions(tx, target.identity_id);
  await write(tx, actor.business_id, userId, 'deleted = true', [], seq);
}

/**
 * Issue 29 (`admin.apClerks.remove`): drops AP_ACCESS from the person's permissions, keeping the
 * others. The person's visibility epoch moves with it (visibility.ts: AP_ACCESS opens every
 * bill), so their next pull resyncs without the bills they no longer manage.
 */
export async function removeApClerk(tx: Queryable, actor: ActingUser, userId: string): Promise<unknown> {
  const seq = await seqFor(tx, actor.business_id);
  await lockTarget(tx, actor.business_id, userId);
  const [target] = await tx.query<{ role: string; user_permissions: string[] | null }>(
    'SELECT role, user_permissions FROM spend_users WHERE business_id = $1 AND id = $2', [actor.business_id, userId],
  );
  const refusal = apClerkRemovalRefusal(actor, { role: target!.role, user_permissions: target!.user_permissions ?? [] });
  if (refusal) throw new ApiError(refusal.code, refusal.message);
  return write(tx, actor.business_id, userId,
    `user_permissions = coalesce((SELECT jsonb_agg(p) FROM jsonb_array_elements(r.user_permissions) p WHERE p <> '"AP_ACCESS"'::jsonb), '[]'::jsonb)`, [], seq);
}

// ---------------------------------------------------------------------------------------------
// Invite acceptance (public: the token is the credential).

export type InviteLookup = {
  invite_id: string; business_id: string; user_id: string; identity_id: string; password_hash: string;
  expires_at: Date | string; accepted_at: Date | string | null; revoked_at: Date | string | null;
  status: string; deleted: boolean;
};

export async function findInvite(db: Queryable, token: string): Promise<InviteLookup | null> {
  const rows = await db.query<InviteLookup>(
    `SELECT i.id::text AS invite_id, i.business_id::text, i.user_id::text, u.identity_id::text, d.password_hash,
            i.expires_at, i.accepted_at, i.revoked_at, u.status, u.deleted
       FROM user_invites i JOIN spend_users u ON u.id = i.user_id JOIN identities d ON d.id = u.identity_id
      WHERE i.token_hash = $1`,
    [hashToken(token)],
  );
  return rows[0] ?? null;
}

/**
 * What an invite allows: 'accept', or the refusal. A superseded (resent) token answers like an
 * expired one (the person is pointed at the newest email) but, unlike a really overdue invite,
 * must not mark the user INVITE_EXPIRED: their newest invite is still open.
 */
export function inviteState(inv: InviteLookup | null, now: number): 'accept' | 'missing' | 'accepted' | 'expired' | 'superseded' {
  if (!inv || inv.deleted) return 'missing';
  if (inv.accepted_at) return 'accepted';
  if (inv.revoked_at) return 'superseded';
  if (inv.status === 'INVITE_EXPIRED' || new Date(inv.expires_at).getTime() <= now) return 'expired';
  if (inv.status !== 'INVITED') return 'missing';
  return 'accept';
}

/**
 * Accepts: the user becomes ACTIVE with the cardholder agreement accepted (isInvitePending then
 * answers false). An identity created by the invite takes the new password; an identity that
 * already had one (the person belongs to another business) keeps it: the caller passes
 * `passwordHash` null after checking the password they typed against it.
 */
export async function markAccepted(tx: Queryable, inv: InviteLookup, passwordHash: string | null): Promise<string> {
  const seq = await seqFor(tx, inv.business_id);
  const claimed = await tx.query(
    'UPDATE user_invites SET accepted_at = now() WHERE id = $1 AND accepted_at IS NULL AND revoked_at IS NULL RETURNING 1',
    [inv.invite_id],
  );
  if (claimed.length === 0) throw new ApiError('REQUEST_7001', 'This invite has already been accepted.');
  if (passwordHash) {
    await tx.query('UPDATE identities SET password_hash = $2 WHERE id = $1 AND password_hash = $3', [inv.identity_id, passwordHash, NO_PASSWORD]);
  }
  await write(tx, inv.business_id, inv.user_id, `status = 'ACTIVE', has_accepted_cardholder_agreement = true`, [], seq);
  // The invite's link came by mail: accepting it proves the mailbox.
  await markEmailVerified(tx, inv.identity_id);
  const sessionId = randomUUID();
  await tx.query('INSERT INTO sessions (id, identity_id) VALUES ($1, $2)', [sessionId, inv.identity_id]);
  return sessionId;
}
