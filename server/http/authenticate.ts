import { z } from 'zod';
import type { Context } from 'hono';
import { checkScopes, checkSurface, ID_TOKEN_HEADER, surfaceOf, type CallAuth, type OtherSurfaceClaim, type Surface, type TokenClaims } from '../../schema/api/scopes.ts';
import { verifyIdToken } from '../auth/tokens.ts';
import { holdsSurface } from '../auth/surfaces/index.ts';
import { advisorBindingOf } from '../auth/advisor-access.ts';
import { isAdvisorRole } from '../../schema/roles.ts';
import { isSurfaceActor, type ActingUser, type Actor, type Caller, type SurfaceActor } from '../core/actor.ts';
import type { AppDeps } from '../core/deps.ts';
import { ApiError } from '../core/errors.ts';
import { looksLikeAccessToken } from '../auth/api-clients/access.ts';
import { authenticateClient, type ClientCall } from '../auth/api-clients/client-actor.ts';

const uuid = z.uuid();
type ActorRow = ActingUser & {
  revoked_at: Date | null;
  user_deleted: boolean | null;
  business_status: string | null;
  impersonator_identity_id: string | null;
  grant_id: string | null;
  grant_live: boolean | null;
  grant_allow_writes: boolean | null;
};

/**
 * Authentication, the surface gate and the scope gate, in that order: no or bad token →
 * AUTH_7002; a call not of the token's surface → SURFACE_7001 (issue 31, before any read);
 * revoked session → AUTH_7003; a surface the identity no longer holds → 4014; an impersonation token whose support
 * access grant is revoked or expired → SUPPORT_7001; missing scope or a token older than the
 * recent-token window → AUTH_7016. An API client's access token (issue 32) carries the same
 * header or `Authorization: Bearer`, and has its own checks (auth/api-clients/client-actor.ts):
 * live client and secret, the client's rate limit, and the call's API scope.
 */
export async function authenticate(
  c: Context,
  deps: AppDeps,
  call: ClientCall & { auth: CallAuth; surfaces: readonly Surface[] },
  /** Runs once a business caller is known, before the scope gate (register's impersonation gate). */
  beforeScopes?: (actor: Actor) => Promise<void>,
): Promise<Caller> {
  const token = c.req.header(ID_TOKEN_HEADER) ?? bearerToken(c);
  if (!token) throw new ApiError('AUTH_7002');
  if (looksLikeAccessToken(token)) {
    const actor = await authenticateClient(c, deps, call, token);
    if (beforeScopes) await beforeScopes(actor);
    return actor;
  }
  const nowSeconds = Math.floor(deps.now() / 1000);
  const claims = await verifyIdToken(await deps.tokenKey(), token, nowSeconds);
  if (!claims || !uuid.safeParse(claims.sub).success || !uuid.safeParse(claims.ramp_session_id).success) {
    throw new ApiError('AUTH_7002');
  }
  // The surface gate first: a call of another surface is refused without reading anything.
  if (!checkSurface(call.surfaces, claims)) throw new ApiError('SURFACE_7001');
  const surface = surfaceOf(claims);
  const caller = surface.kind === 'BUSINESS' ? await loadActor(deps, claims) : await loadSurfaceActor(deps, claims, surface);
  if (beforeScopes && !isSurfaceActor(caller)) await beforeScopes(caller);
  const age = nowSeconds - claims.iat;
  if (!checkScopes(call.auth, claims.ramp_access_scopes, age).ok) throw new ApiError('AUTH_7016');
  if (call.auth.kind === 'recent-token' && age > call.auth.maxAgeSeconds) throw new ApiError('AUTH_7016');
  return caller;
}

/** `Authorization: Bearer <token>` (RFC 6750 §2.1), the way API clients send theirs. */
function bearerToken(c: Context): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
  return match?.[1];
}

/**
 * A token of another surface: its session must be live and its identity must still hold the
 * surface (a removed firm user, vendor admin or applicant is refused at once, 4014).
 */
async function loadSurfaceActor(deps: AppDeps, claims: TokenClaims, surface: OtherSurfaceClaim): Promise<SurfaceActor> {
  const [row] = await deps.db.query<{ revoked_at: Date | null; impersonator_identity_id: string | null }>(
    'SELECT revoked_at, impersonator_identity_id FROM sessions WHERE id = $1 AND identity_id = $2',
    [claims.ramp_session_id, claims.sub],
  );
  if (!row) throw new ApiError('AUTH_7002');
  if (row.revoked_at) throw new ApiError('AUTH_7003');
  // Support impersonation acts in a business only (its grant is a business's).
  if (claims.impersonator !== undefined || row.impersonator_identity_id !== null) throw new ApiError('SUPPORT_7001');
  if (!(await holdsSurface(deps.db, claims.sub, surface))) throw new ApiError('4014');
  return { identityId: claims.sub, sessionId: claims.ramp_session_id, claims, surface };
}

async function loadActor(deps: AppDeps, claims: TokenClaims): Promise<Actor> {
  const userId = claims.ramp_user_uuid && uuid.safeParse(claims.ramp_user_uuid).success ? claims.ramp_user_uuid : null;
  const rows = await deps.db.query<ActorRow>(
    `SELECT s.revoked_at, u.id, u.business_id, u.role, u.is_manager, u.user_permissions, u.manager_id,
            u.deleted AS user_deleted, b.status AS business_status, s.impersonator_identity_id,
            g.id AS grant_id, (g.revoked_at IS NULL AND g.expires_at > $4) AS grant_live, g.allow_writes AS grant_allow_writes
       FROM sessions s
       LEFT JOIN spend_users u ON u.id = $3 AND u.identity_id = s.identity_id
       LEFT JOIN businesses b ON b.id = u.business_id
       LEFT JOIN support_access_grants g ON g.id = s.support_grant_id AND g.business_id = u.business_id
      WHERE s.id = $1 AND s.identity_id = $2`,
    [claims.ramp_session_id, claims.sub, userId, new Date(deps.now())],
  );
  const row = rows[0];
  if (!row) throw new ApiError('AUTH_7002');
  if (row.revoked_at) throw new ApiError('AUTH_7003');
  // A firm user's hidden spend user lives by its authorization (issue 31): ended → FIRM_7005.
  const advisor = row.id && isAdvisorRole(row.role) ? await advisorBindingOf(deps.db, row.id) : null;
  if (row.id && isAdvisorRole(row.role) && !advisor) throw new ApiError('FIRM_7005');
  if (!row.id || row.user_deleted) throw new ApiError('4014');
  if (row.business_status === 'INACTIVE') throw new ApiError('4005');
  if (row.business_status === 'LOCKED') throw new ApiError('4011');
  // Support acting as someone: only while the business's grant is live (revoked or expired ends
  // every token of the session at once), and a token claiming an impersonator must come from an
  // impersonation session, and the reverse.
  const impersonating = claims.impersonator !== undefined || row.impersonator_identity_id !== null;
  if (impersonating && (!claims.impersonator || !row.impersonator_identity_id || !row.grant_id || !row.grant_live)) {
    throw new ApiError('SUPPORT_7001');
  }
  const user: ActingUser = {
    id: row.id,
    business_id: row.business_id,
    role: row.role,
    is_manager: row.is_manager,
    user_permissions: row.user_permissions,
    manager_id: row.manager_id,
  };
  return {
    identityId: claims.sub, sessionId: claims.ramp_session_id, businessId: row.business_id, claims, user,
    ...(impersonating && { supportGrant: { id: row.grant_id!, allowWrites: row.grant_allow_writes === true } }),
    ...(advisor && { advisor }),
  };
}
