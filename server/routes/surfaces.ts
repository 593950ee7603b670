/** Issue 31: the handlers of schema/api/calls-surfaces.ts (docs/design/issue-31-surfaces.md §3). */
import { z } from 'zod';
import { listScopes, switchScope } from '../../schema/api/calls-surfaces.ts';
import type { OtherSurfaceClaim } from '../../schema/api/scopes.ts';
import type { ScopeChoice } from '../../schema/entities/scope-choice.ts';
import { canAccessVendorPortal, isRole, roleDisplayName } from '../../schema/roles.ts';
import { issueToken, identityMfaRequired } from '../auth/session.ts';
import { holdsSurface, surfaceChoices } from '../auth/surfaces/index.ts';
import type { Caller } from '../core/actor.ts';
import type { AppDeps } from '../core/deps.ts';
import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { ok, type DomainHandlers } from '../http/handler.ts';
import { auditLogHandlers } from './audit-log.ts';
import { isSwitchable, switchGrant, switchIntoBusiness } from './business-switch.ts';
import { callerOf } from './identity-caller.ts';

type BusinessScopeRow = { business_id: string; name: string; role: string; is_manager: boolean; status: string; deleted: boolean };

/**
 * Every business-scope identity of the identity (§4), in the picker's order: its businesses (the
 * switchable spend users, by name: never a hidden one), then the other surfaces it holds. The
 * vendor portal is listed only while the identity is a vendor network admin somewhere.
 */
export async function scopeChoicesOf(db: Queryable, identityId: string): Promise<ScopeChoice[]> {
  const rows = await db.query<BusinessScopeRow>(
    `SELECT u.business_id, b.name, u.role, u.is_manager, u.status, u.deleted
       FROM spend_users u JOIN businesses b ON b.id = u.business_id
      WHERE u.identity_id = $1 AND NOT u.deleted AND b.status <> 'INACTIVE'
      ORDER BY b.name, b.id`,
    [identityId],
  );
  const businesses: ScopeChoice[] = rows.filter((r) => isSwitchable(r)).map((r) => ({
    target: { kind: 'BUSINESS', business_id: r.business_id }, label: r.name, detail: roleDisplayName(r.role, r.is_manager),
  }));
  const portal = canAccessVendorPortal(rows.flatMap((r) => (isRole(r.role) ? [{ role: r.role }] : [])));
  const others = (await surfaceChoices(db, identityId)).filter((c) => c.target.kind !== 'VENDOR_PORTAL' || portal);
  return [...businesses, ...others];
}

/**
 * The surface a sign-in opens for an identity with no business to open (issue 31): the first
 * other scope it holds, in the picker's order (firm, firm application, vendor portal,
 * application), or null.
 */
export async function firstOtherSurface(db: Queryable, identityId: string): Promise<OtherSurfaceClaim | null> {
  const first = (await scopeChoicesOf(db, identityId)).find((c) => c.target.kind !== 'BUSINESS');
  return first && first.target.kind !== 'BUSINESS' ? first.target : null;
}

const uuid = z.uuid();
/** Every id a surface claim names is a uuid (the claim schema takes strings): anything else is held by no one. */
const claimIdsValid = (claim: OtherSurfaceClaim) =>
  Object.entries(claim).every(([k, v]) => k === 'kind' || uuid.safeParse(v).success);

/**
 * A token for another surface on the caller's session: only for a surface the identity holds
 * (404 4014 otherwise, no oracle); MFA carried over as the business switch does, the identity's
 * own MFA rule applying (no business's).
 */
async function switchIntoSurface(deps: AppDeps, db: Queryable, caller: Caller, claim: OtherSurfaceClaim) {
  if (caller.claims.impersonator) throw new ApiError('FORBIDDEN_7003', 'Switching is not available while impersonating.');
  if (!claimIdsValid(claim) || !(await holdsSurface(db, caller.identityId, claim))) throw new ApiError('4014');
  const grant = switchGrant(await identityMfaRequired(db, caller.identityId), caller.claims.ramp_mfa_authed === true);
  const { token } = await issueToken(
    deps,
    { identityId: caller.identityId, sessionId: caller.sessionId, surface: claim },
    { ...grant, signInProvider: caller.claims.sign_in_provider },
  );
  return { id_token: token, mfa_required: grant.scopes.length === 0 };
}

export const surfaceHandlers = {
  [listScopes.id]: async (ctx) => ok({ scopes: await scopeChoicesOf(ctx.db, callerOf(ctx).identityId) }),

  [switchScope.id]: async (ctx) => {
    const caller = callerOf(ctx);
    const { scope } = ctx.input.body;
    if (scope.kind === 'BUSINESS') return ok(await switchIntoBusiness(ctx.deps, ctx.db, caller, scope.business_id));
    return ok(await switchIntoSurface(ctx.deps, ctx.db, caller, scope));
  },

  ...auditLogHandlers,
} satisfies DomainHandlers;
