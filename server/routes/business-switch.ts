import { switchBusiness } from '../../schema/api/calls-business.ts';
import { isHiddenSpendUser, isRole } from '../../schema/roles.ts';
import { issueToken, mfaRequiredFor, signInGrant, type TokenGrant } from '../auth/session.ts';
import type { Queryable } from '../db/db.ts';
import type { Caller } from '../core/actor.ts';
import type { AppDeps } from '../core/deps.ts';
import { signInBlock } from '../domain/admin-users.ts';
import { ApiError } from '../core/errors.ts';
import { ok, type DomainHandlers } from '../http/handler.ts';
import { callerOf } from './identity-caller.ts';

/**
 * Business switching (§3, §6, §7 PATCH /users/current/business). The session belongs to the
 * identity, so switching issues a token for another of its spend users on the same session:
 * signing out still ends everything at once.
 */

type SwitchTarget = { id: string; role: string; status: string; deleted: boolean };

/** Rows carry the role as text; an unknown role is treated as shown (it is no hidden role). */
const isHidden = (u: { role: string }) => isRole(u.role) && isHiddenSpendUser({ role: u.role });

/**
 * A spend user the identity may switch (or sign) into: live, not a hidden spend user (vendor
 * network / advisor console users never appear in the switcher) and not blocked by its status.
 */
export const isSwitchable = (u: { role: string; status: string; deleted?: boolean }) =>
  !u.deleted && !isHidden(u) && signInBlock(u) === null;

async function targetIn(db: Queryable, identityId: string, businessId: string): Promise<SwitchTarget | undefined> {
  const [row] = await db.query<SwitchTarget>(
    `SELECT id, role, status, deleted FROM spend_users
      WHERE identity_id = $1 AND business_id = $2 AND NOT deleted`,
    [identityId, businessId],
  );
  return row;
}

/**
 * The new token keeps the session's MFA state: an MFA already passed on this session carries
 * over; a business that requires MFA the session has not passed gets the sign-in grant (no scopes
 * until verify-mfa), exactly as a sign-in into that business would.
 */
export function switchGrant(mfaRequired: boolean, mfaAuthed: boolean): TokenGrant {
  if (mfaRequired && !mfaAuthed) return signInGrant(true);
  return { scopes: ['default'], mfaRequired, mfaAuthed };
}

/**
 * A token for the caller's spend user in `businessId` on the same session, from any surface
 * (issue 31: the business switch and the scope switch's BUSINESS target).
 */
export async function switchIntoBusiness(
  deps: AppDeps, db: Queryable, caller: Caller, businessId: string,
): Promise<{ id_token: string; mfa_required: boolean }> {
  // Support acts as one user, never as the person's other memberships.
  if (caller.claims.impersonator) throw new ApiError('FORBIDDEN_7003', 'Switching business is not available while impersonating.');
  const target = await targetIn(db, caller.identityId, businessId);
  // 404 alike for "not a member" and "hidden": no oracle for businesses the switcher can't show.
  if (!target || isHidden(target)) throw new ApiError('4014');
  const block = signInBlock(target);
  if (block) throw new ApiError(block.code, block.message);
  const mfaRequired = await mfaRequiredFor(db, caller.identityId, businessId);
  const grant = switchGrant(mfaRequired, caller.claims.ramp_mfa_authed === true);
  const { token } = await issueToken(
    deps,
    { identityId: caller.identityId, userId: target.id, businessId, sessionId: caller.sessionId },
    { ...grant, signInProvider: caller.claims.sign_in_provider },
  );
  return { id_token: token, mfa_required: grant.scopes.length === 0 };
}

export const businessSwitchHandlers = {
  // From any surface (issue 31): an approved applicant or a firm user goes back into a business.
  [switchBusiness.id]: async (ctx) => ok(await switchIntoBusiness(ctx.deps, ctx.db, callerOf(ctx), ctx.input.body.business_id)),
} satisfies DomainHandlers;
