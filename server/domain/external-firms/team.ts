import { randomBytes, randomUUID } from 'node:crypto';
import type { FirmInvite, FirmUser, FirmUserRole, FirmView } from '../../../schema/entities/external-firm.ts';
import { FIRM_INVITE_TTL_MS, firmInviteAcceptRefusal, firmInviteResendRefusal, firmInviteStatus } from '../../../schema/firm-invites.ts';
import { sendMail, type MailDeps } from '../../auth/email-otp.ts';
import { ApiError, validationError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { hashToken } from '../admin-users.ts';
import { assertFirmAdmin, type FirmCaller } from './firm-caller.ts';
import { unbindFirmUsers } from './hidden-users.ts';
import { iso } from './sql.ts';

/** The firm's team (issue 31): members, invites, removal. Every id is looked up within the caller's firm (else 404). */
const USER_COLS = 'id::text, firm_id::text, identity_id::text, role, first_name, last_name, email';
type InviteRow = { id: string; email: string; role: FirmUserRole; expires_at: string; accepted_at: string | null; revoked_at: string | null; resend_count: number };
const INVITE_COLS = `id::text, email, role, ${iso('expires_at')} AS expires_at, accepted_at, revoked_at, resend_count`;
const inviteDoc = (r: InviteRow, now: number): FirmInvite => ({
  id: r.id, email: r.email, role: r.role, status: firmInviteStatus(r, now), expires_at: r.expires_at, resend_count: r.resend_count,
});
type Links = (path: string) => string;

export async function firmView(db: Queryable, caller: FirmCaller, now: number): Promise<FirmView> {
  const [firm] = await db.query<FirmView['firm']>(
    `SELECT id::text, name, status, logo_file_id IS NOT NULL AS has_logo, ${iso('created_at')} AS created_at FROM external_firms WHERE id = $1`,
    [caller.firmId],
  );
  const members = await db.query<FirmUser>(
    `SELECT ${USER_COLS} FROM external_firm_users WHERE firm_id = $1 AND status = 'ACTIVE' ORDER BY last_name, first_name, id`, [caller.firmId],
  );
  const invites = caller.isAdmin
    ? await db.query<InviteRow>(
      `SELECT ${INVITE_COLS} FROM external_firm_invites WHERE firm_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL ORDER BY created_at DESC`,
      [caller.firmId],
    )
    : [];
  return { firm: firm!, me: members.find((m) => m.id === caller.firmUserId)!, members, invites: invites.map((r) => inviteDoc(r, now)) };
}

async function mailInvite(deps: MailDeps, tx: Queryable, firmId: string, email: string, token: string, links: Links): Promise<void> {
  const [firm] = await tx.query<{ name: string }>('SELECT name FROM external_firms WHERE id = $1', [firmId]);
  await sendMail(deps, tx, email, `Join ${firm!.name} on Ledgerline`,
    `${firm!.name} invited you to its advisor console: ${links(`/console/join#token=${token}`)} (valid for 7 days).`);
}

export async function createInvite(
  deps: MailDeps, tx: Queryable, caller: FirmCaller, body: { email: string; role: FirmUserRole }, now: number, links: Links,
): Promise<FirmInvite> {
  assertFirmAdmin(caller);
  const email = body.email.trim().toLowerCase();
  const member = await tx.query(`SELECT 1 FROM external_firm_users WHERE firm_id = $1 AND lower(email) = $2 AND status = 'ACTIVE'`, [caller.firmId, email]);
  if (member.length > 0) throw validationError({ email: 'This person is already a member of the firm.' });
  const token = randomBytes(32).toString('base64url');
  const [row] = await tx.query<InviteRow>(
    `INSERT INTO external_firm_invites (id, firm_id, email, role, token_hash, invited_by, expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING ${INVITE_COLS}`,
    [randomUUID(), caller.firmId, email, body.role, hashToken(token), caller.firmUserId, new Date(now + FIRM_INVITE_TTL_MS), new Date(now)],
  );
  if (!row) throw validationError({ email: 'An invite to this address is already open: send it again instead.' });
  await mailInvite(deps, tx, caller.firmId, email, token, links);
  return inviteDoc(row, now);
}

async function lockInvite(tx: Queryable, caller: FirmCaller, inviteId: string): Promise<InviteRow> {
  assertFirmAdmin(caller);
  const [row] = await tx.query<InviteRow>(`SELECT ${INVITE_COLS} FROM external_firm_invites WHERE id = $1 AND firm_id = $2 FOR UPDATE`, [inviteId, caller.firmId]);
  if (!row) throw new ApiError('REQUEST_7004');
  return row;
}

/** A new token and expiry (the old link stops working), mailed again. */
export async function resendInvite(deps: MailDeps, tx: Queryable, caller: FirmCaller, inviteId: string, now: number, links: Links): Promise<FirmInvite> {
  const row = await lockInvite(tx, caller, inviteId);
  const refusal = firmInviteResendRefusal(row, now);
  if (refusal) throw new ApiError('REQUEST_7001', refusal);
  const token = randomBytes(32).toString('base64url');
  const [updated] = await tx.query<InviteRow>(
    `UPDATE external_firm_invites SET token_hash = $2, expires_at = $3, resent_at = $4, resend_count = resend_count + 1
      WHERE id = $1 RETURNING ${INVITE_COLS}`,
    [inviteId, hashToken(token), new Date(now + FIRM_INVITE_TTL_MS), new Date(now)],
  );
  await mailInvite(deps, tx, caller.firmId, row.email, token, links);
  return inviteDoc(updated!, now);
}

export async function deleteInvite(tx: Queryable, caller: FirmCaller, inviteId: string, now: number): Promise<FirmInvite> {
  const row = await lockInvite(tx, caller, inviteId);
  if (row.accepted_at || row.revoked_at) throw new ApiError('REQUEST_7001', 'Only an open invite can be withdrawn.');
  const [updated] = await tx.query<InviteRow>(`UPDATE external_firm_invites SET revoked_at = $2 WHERE id = $1 RETURNING ${INVITE_COLS}`, [inviteId, new Date(now)]);
  return inviteDoc(updated!, now);
}

type OpenInvite = { id: string; firm_id: string; email: string; role: FirmUserRole };

/** The open invite of a token (locked), or the refusal: unknown or withdrawn 404, used or expired 422. */
export async function openInvite(tx: Queryable, token: string, now: number): Promise<OpenInvite> {
  const [row] = await tx.query<InviteRow & { firm_id: string }>(
    `SELECT ${INVITE_COLS}, firm_id::text FROM external_firm_invites WHERE token_hash = $1 FOR UPDATE`, [hashToken(token)],
  );
  const refusal = firmInviteAcceptRefusal(row ?? null, now);
  if (refusal) throw new ApiError(refusal.code, refusal.message);
  return { id: row!.id, firm_id: row!.firm_id, email: row!.email, role: row!.role };
}

/** The identity joins the firm (a removed member comes back with the invite's role); the invite is used. */
export async function joinFirm(tx: Queryable, inv: OpenInvite, identityId: string, names: { first_name: string; last_name: string }, now: number): Promise<string> {
  const [user] = await tx.query<{ id: string }>(
    `INSERT INTO external_firm_users (id, firm_id, identity_id, role, first_name, last_name, email, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (firm_id, identity_id) DO UPDATE SET status = 'ACTIVE', role = EXCLUDED.role, first_name = EXCLUDED.first_name,
       last_name = EXCLUDED.last_name RETURNING id::text`,
    [randomUUID(), inv.firm_id, identityId, inv.role, names.first_name, names.last_name, inv.email, new Date(now)],
  );
  await tx.query('UPDATE external_firm_invites SET accepted_at = $2 WHERE id = $1', [inv.id, new Date(now)]);
  return user!.id;
}

/**
 * Removes a member: FIRM_7004 when it is the last admin; its hidden users in every client go
 * (their tokens answer FIRM_7005, its console token 4014), and a client it was the last one
 * assigned to ends (design §2.6).
 */
export async function removeFirmUser(tx: Queryable, caller: FirmCaller, firmUserId: string, now: number): Promise<FirmUser> {
  assertFirmAdmin(caller);
  // Lock the firm's admins first: two admins removing each other must not leave none.
  const admins = await tx.query<{ id: string }>(
    `SELECT id::text FROM external_firm_users WHERE firm_id = $1 AND status = 'ACTIVE' AND role = 'EXTERNAL_FIRM_ADMIN' ORDER BY id FOR UPDATE`,
    [caller.firmId],
  );
  const [target] = await tx.query<FirmUser>(
    `SELECT ${USER_COLS} FROM external_firm_users WHERE id = $1 AND firm_id = $2 AND status = 'ACTIVE' FOR UPDATE`, [firmUserId, caller.firmId],
  );
  if (!target) throw new ApiError('REQUEST_7004');
  if (target.role === 'EXTERNAL_FIRM_ADMIN' && admins.length <= 1) throw new ApiError('FIRM_7004');
  await tx.query(`UPDATE external_firm_users SET status = 'REMOVED' WHERE id = $1`, [firmUserId]);
  await unbindFirmUsers(tx, 'au.firm_user_id = $1', [firmUserId]);
  // A client left with no firm user is no longer worked for: as the last unassignment, it ends.
  await tx.query(
    `UPDATE external_firm_authorizations a SET status = 'ENDED', ended_by = 'FIRM', ended_at = $2
      WHERE a.firm_id = $1 AND a.status = 'ACTIVE' AND NOT EXISTS (SELECT 1 FROM external_firm_authorization_users au WHERE au.authorization_id = a.id)`,
    [caller.firmId, new Date(now)],
  );
  return target;
}
