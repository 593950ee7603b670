import { foldEmail } from '../auth/email-address.ts';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { isAdmin, type Role } from '../../schema/roles.ts';
import { inviteRefusal, resendRefusal, roleFlagRefusal } from '../../schema/team-rules.ts';
import { featureFlagsOf } from '../auth/settings.ts';
import type { ErrorCode } from '../../schema/errors.ts';
import { allocateSeqs, announceChange } from '../db/change-seq.ts';
import type { Db, Queryable } from '../db/db.ts';
import { COLLECTIONS } from './collections.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError, validationError } from '../core/errors.ts';

/** Invites are valid for 7 days; a resend issues a new token and a new expiry. */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const CARD_ISSUING_MESSAGE = "Invite does not have required data for the business's current card issuing structure";
export const SUSPENDED_MESSAGE = 'Your account is suspended. Contact your administrator.';
/** An identity created by an invite has no password until the invite is accepted; never matches. */
export const NO_PASSWORD = '!invited';

export const ADMIN_USER_DOC_SQL = `(${COLLECTIONS.users.docSql} || jsonb_build_object('entity_id', r.entity_id, 'user_permissions', r.user_permissions))`;

/**
 * Why a spend user may not sign in, or null. For the sign-in route (identity side): suspended →
 * AUTH_7022 with a clear message; a pending invite → AUTH_7026; an expired one → AUTH_7027;
 * deleted → 4014. Pure, so the sign-in code and tests share one rule.
 */
export function signInBlock(user: { status: string; deleted?: boolean }): { code: ErrorCode; message?: string } | null {
  if (user.deleted) return { code: '4014' };
  if (user.status === 'SUSPENDED') return { code: 'AUTH_7022', message: SUSPENDED_MESSAGE };
  if (user.status === 'INVITED') return { code: 'AUTH_7026' };
  if (user.status === 'INVITE_EXPIRED') return { code: 'AUTH_7027' };
  return null;
}

/** The invite rules live in schema/team-rules.ts (the Team pages offer what they allow). */
export { inviteRefusal } from '../../schema/team-rules.ts';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

type InviteBody = {
  email: string; first_name: string; last_name: string; role: Role;
  manager_id?: string | null | undefined; department_id?: string | null | undefined;
  location_id?: string | null | undefined; entity_id?: string | null | undefined;
};
export type IssuedInvite = { user: unknown; invite: { expires_at: string }; token: string; email: string };

/** References an invite names must be live rows of the inviting business. */
async function checkInviteRefs(tx: Queryable, businessId: string, b: InviteBody): Promise<void> {
  const refs = [
    ['manager_id', 'spend_users', 'a user'],
    ['department_id', 'departments', 'a department'],
    ['location_id', 'locations', 'a location'],
    ['entity_id', 'business_entities', 'a business entity'],
  ] as const;
  const errors: Record<string, string> = {};
  for (const [field, table, what] of refs) {
    const id = b[field];
    if (!id) continue;
    const rows = await tx.query(`SELECT 1 FROM ${table} WHERE business_id = $1 AND id = $2 AND NOT deleted`, [businessId, id]);
    if (rows.length === 0) errors[field] = `${field} must be ${what} of this business`;
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
}

/**
 * The identity of an address, created when none exists as `application.verify` creates one: no
 * password (a password sign-in fails as a wrong one until the person sets one). The mailbox is
 * proven when `verifiedAt` is given (a used code), else left unproven (someone else named it).
 * Two creations of one address at once meet on the unique email index: the loser reads the winner's.
 */
export async function identityOfEmail(tx: Queryable, email: string, verifiedAt: Date | null = null): Promise<string> {
  const folded = foldEmail(email);
  await tx.query(
    'INSERT INTO identities (id, email, password_hash, email_verified_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
    [randomUUID(), folded, NO_PASSWORD, verifiedAt]);
  const [found] = await tx.query<{ id: string }>('SELECT id::text FROM identities WHERE lower(email) = $1', [folded]);
  return found!.id;
}

async function issueToken(tx: Queryable, businessId: string, userId: string, invitedBy: string, now: number) {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now + INVITE_TTL_MS).toISOString();
  await tx.query(
    `INSERT INTO user_invites (id, business_id, user_id, token_hash, invited_by, expires_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [randomUUID(), businessId, userId, hashToken(token), invitedBy, expiresAt, new Date(now).toISOString()],
  );
  return { token, expires_at: expiresAt };
}

export async function inviteUser(tx: Queryable, actor: ActingUser, asked: InviteBody, now: number): Promise<IssuedInvite> {
  const body = { ...asked, email: foldEmail(asked.email) };
  const flags = await featureFlagsOf(tx, actor.business_id);
  const refusal = inviteRefusal(actor, body, flags);
  if (refusal) throw new ApiError('FORBIDDEN_7003', refusal);
  // §3 auditor_role: a role the business turned off is a bad value for `role` (422), not a permission.
  const roleOff = roleFlagRefusal(body.role, flags);
  if (roleOff) throw validationError({ role: roleOff });
  const managerId = body.manager_id ?? (isAdmin(actor) ? null : actor.id);
  const seq = await allocateSeqs(tx, actor.business_id, 1);
  if (!seq) throw new ApiError('REQUEST_7004');
  await checkInviteRefs(tx, actor.business_id, body);
  const [biz] = await tx.query<{ card_issuing_structure: string }>('SELECT card_issuing_structure FROM businesses WHERE id = $1', [actor.business_id]);
  if (biz?.card_issuing_structure === 'PER_ENTITY' && !body.entity_id) {
    throw new ApiError('REQUEST_7001', CARD_ISSUING_MESSAGE, { entity_id: CARD_ISSUING_MESSAGE });
  }
  const identityId = await identityOfEmail(tx, body.email);
  const taken = await tx.query('SELECT 1 FROM spend_users WHERE business_id = $1 AND identity_id = $2', [actor.business_id, identityId]);
  if (taken.length > 0) throw validationError({ email: 'A user with this email already belongs to this business.' });
  const userId = randomUUID();
  const rows = await tx.query<{ doc: unknown }>(
    `INSERT INTO spend_users AS r (id, business_id, identity_id, role, first_name, last_name, email, manager_id, department_id,
       location_id, entity_id, status, has_accepted_cardholder_agreement, change_seq)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'INVITED', false, $12) RETURNING ${ADMIN_USER_DOC_SQL} AS doc`,
    [userId, actor.business_id, identityId, body.role, body.first_name, body.last_name, body.email, managerId,
      body.department_id ?? null, body.location_id ?? null, body.entity_id ?? null, seq.last],
  );
  const invite = await issueToken(tx, actor.business_id, userId, actor.id, now);
  await announceChange(tx, actor.business_id, seq.last);
  return { user: rows[0]!.doc, invite: { expires_at: invite.expires_at }, token: invite.token, email: body.email };
}

type TargetRow = { id: string; role: string; status: string; manager_id: string | null; email: string; identity_id: string };

/** A live user of the caller's business, locked for the write; 404 for anything else. */
export async function lockTarget(tx: Queryable, businessId: string, userId: string): Promise<TargetRow> {
  const rows = await tx.query<TargetRow>(
    'SELECT id::text, role, status, manager_id::text, email, identity_id::text FROM spend_users WHERE business_id = $1 AND id = $2 AND NOT deleted FOR UPDATE',
    [businessId, userId],
  );
  if (!rows[0]) throw new ApiError('REQUEST_7004');
  return rows[0];
}

export async function resendInvite(tx: Queryable, actor: ActingUser, userId: string, now: number): Promise<IssuedInvite> {
  const seq = await allocateSeqs(tx, actor.business_id, 1);
  if (!seq) throw new ApiError('REQUEST_7004');
  const target = await lockTarget(tx, actor.business_id, userId);
  const refusal = resendRefusal(actor, target, await featureFlagsOf(tx, actor.business_id));
  if (refusal) throw new ApiError(refusal.code, refusal.message);
  await tx.query('UPDATE user_invites SET revoked_at = $2 WHERE user_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL', [userId, new Date(now).toISOString()]);
  const invite = await issueToken(tx, actor.business_id, userId, actor.id, now);
  const rows = await tx.query<{ doc: unknown }>(
    `UPDATE spend_users r SET status = 'INVITED', change_seq = $3, updated_at = now() WHERE business_id = $1 AND id = $2
     RETURNING ${ADMIN_USER_DOC_SQL} AS doc`,
    [actor.business_id, userId, seq.last],
  );
  await announceChange(tx, actor.business_id, seq.last);
  return { user: rows[0]!.doc, invite: { expires_at: invite.expires_at }, token: invite.token, email: target.email };
}

/** Which invites expireInvites looks at: all, or one business's, one person's, one user's. */
export type InviteScope = { businessId?: string; identityId?: string; userId?: string };

/**
 * Marks every open invite past its expiry INVITE_EXPIRED. A job may run it for everything;
 * sign-in (for the identity signing in) and acceptance (for the invited user) run it lazily, so
 * an overdue invite answers AUTH_7027 before any job ran. A user whose newest invite is still
 * open stays INVITED. Each user row takes a seq so mirrors show the new status.
 */
export async function expireInvites(db: Db, now: number, scope: InviteScope = {}): Promise<number> {
  const due = await dueInvites(db, now, scope);
  for (const row of due) await db.transaction((tx) => markInviteExpired(tx, row));
  return due.length;
}

/**
 * expireInvites for a route that already holds a write transaction (an authenticated POST):
 * the same rows and updates, on `tx` (opening another transaction there would deadlock PGlite).
 */
export async function expireInvitesIn(tx: Queryable, now: number, scope: InviteScope): Promise<number> {
  const due = await dueInvites(tx, now, scope);
  for (const row of due) await markInviteExpired(tx, row);
  return due.length;
}

type DueInvite = { business_id: string; user_id: string };

async function dueInvites(db: Queryable, now: number, scope: InviteScope): Promise<DueInvite[]> {
  return db.query<DueInvite>(
    `SELECT DISTINCT u.business_id::text, u.id::text AS user_id FROM user_invites i JOIN spend_users u ON u.id = i.user_id
      WHERE i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at <= $1 AND u.status = 'INVITED' AND NOT u.deleted
        AND ($2::uuid IS NULL OR u.business_id = $2) AND ($3::uuid IS NULL OR u.identity_id = $3) AND ($4::uuid IS NULL OR u.id = $4)
        AND NOT EXISTS (SELECT 1 FROM user_invites o WHERE o.user_id = u.id AND o.accepted_at IS NULL AND o.revoked_at IS NULL AND o.expires_at > $1)`,
    [new Date(now).toISOString(), scope.businessId ?? null, scope.identityId ?? null, scope.userId ?? null],
  );
}

async function markInviteExpired(tx: Queryable, row: DueInvite): Promise<void> {
  const seq = await allocateSeqs(tx, row.business_id, 1);
  if (!seq) return;
  await tx.query(
    `UPDATE spend_users SET status = 'INVITE_EXPIRED', change_seq = $3, updated_at = now() WHERE business_id = $1 AND id = $2 AND status = 'INVITED'`,
    [row.business_id, row.user_id, seq.last],
  );
  await announceChange(tx, row.business_id, seq.last);
}
