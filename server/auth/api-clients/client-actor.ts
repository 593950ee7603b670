import type { Context } from 'hono';
import { apiScopeOf, type ApiScope } from '../../../schema/api/api-scopes.ts';
import type { CallDef } from '../../../schema/api/define-call.ts';
import type { TokenClaims } from '../../../schema/api/scopes.ts';
import type { Actor } from '../../core/actor.ts';
import type { AppDeps } from '../../core/deps.ts';
import { ApiError } from '../../core/errors.ts';
import { clientRefusal, liveClientBySecret, takeClientRequest, verifyAccessToken, type LiveClientRow } from './access.ts';
import { markClientCall } from './call-log.ts';
import { grantRefusal, liveGrant, touchGrant } from '../developer-apps/live-grant.ts';

export type ClientCall = Pick<CallDef, 'id' | 'method' | 'path' | 'auth' | 'surfaces' | 'readOnly'>;

/** RFC 6750 §3: a refused bearer token says why in WWW-Authenticate. */
function refuseToken(c: Context, description: string): never {
  c.header('WWW-Authenticate', `Bearer realm="ledgerline", error="invalid_token", error_description="${description}"`);
  throw new ApiError('AUTH_7002', description);
}

/**
 * An API client's request (issue 32): the token must be ours and live (its secret not revoked,
 * the client neither deleted nor expired, the admin it acts as still an active admin: one read),
 * within the client's rate limit (429 QUOTA_EXCEEDED + Retry-After), and the call must need an
 * API scope the token was granted (403 FORBIDDEN_7003 naming it). The actor is that admin with
 * `apiClient` set, so every rule below reads the admin's rights and event history names the client.
 */
export async function authenticateClient(c: Context, deps: AppDeps, call: ClientCall, token: string): Promise<Actor> {
  const nowMs = deps.now();
  const nowSeconds = Math.floor(nowMs / 1000);
  const claims = await verifyAccessToken(await deps.tokenKey(), token, nowSeconds);
  if (!claims) refuseToken(c, 'The access token is invalid or has expired.');
  const caller = 'grantId' in claims ? await grantCaller(c, deps, claims.clientId, claims.grantId) : await secretCaller(c, deps, claims.clientId, claims.secretId, nowMs);
  markClientCall(c, { clientId: caller.clientId, businessId: caller.row.business_id, callId: call.id });
  if (caller.row.business_status === 'INACTIVE') throw new ApiError('4005');
  if (caller.row.business_status === 'LOCKED') throw new ApiError('4011');
  const retryAfter = await takeClientRequest(deps.db, caller.clientId, caller.rateLimit, nowMs);
  if (retryAfter !== null) {
    c.header('Retry-After', String(retryAfter));
    throw new ApiError('QUOTA_EXCEEDED', `This API client is limited to ${caller.rateLimit} requests a minute. Try again in ${retryAfter} s.`);
  }
  // Scopes granted now: the token's, never more than the client (or the grant) still holds.
  const granted = claims.scopes.filter((s) => caller.held.includes(s));
  const needed = apiScopeOf(call);
  if (!needed) throw new ApiError('FORBIDDEN_7003', 'API clients cannot make this call.');
  if (!granted.includes(needed)) throw new ApiError('FORBIDDEN_7003', `This access token lacks the ${needed} scope.`);
  if (caller.grantId) await touchGrant(deps.db, caller.grantId, nowMs);
  return clientActor(caller, granted, nowSeconds);
}

/** Who a live token acts as: the row read for it, the client it counts against, what it holds. */
type LiveCaller = {
  clientId: string; name: string; rateLimit: number; held: readonly string[]; grantId?: string; forName?: string;
  row: Pick<LiveClientRow, 'business_id' | 'business_status' | 'user_id' | 'identity_id' | 'role' | 'is_manager' | 'user_permissions' | 'manager_id'>;
};

async function secretCaller(c: Context, deps: AppDeps, clientId: string, secretId: string, nowMs: number): Promise<LiveCaller> {
  const row = await liveClientBySecret(deps.db, { secretId });
  if (!row || row.id !== clientId) refuseToken(c, 'This API client was deleted.');
  const refusal = clientRefusal(row, nowMs);
  if (refusal) refuseToken(c, refusal);
  return { clientId: row.id, name: row.name, rateLimit: row.rate_limit_per_minute, held: row.scopes, row };
}

/** A developer application's token: its grant, read live (auth/developer-apps/live-grant.ts). */
async function grantCaller(c: Context, deps: AppDeps, appId: string, grantId: string): Promise<LiveCaller> {
  const row = await liveGrant(deps.db, grantId);
  if (!row || row.app_id !== appId) refuseToken(c, 'This connection was not found.');
  const refusal = grantRefusal(row);
  if (refusal) refuseToken(c, refusal);
  return {
    clientId: row.app_id, name: row.app_name, rateLimit: row.rate_limit_per_minute, held: row.scopes, grantId: row.grant_id,
    forName: row.user_name, row,
  };
}

function clientActor(caller: LiveCaller, scopes: ApiScope[], nowSeconds: number): Actor {
  const { row } = caller;
  // The admin's rights as a full sign-in token would carry them; the API scope gate above is what narrows them.
  const claims: TokenClaims = {
    sub: row.identity_id, ramp_user_uuid: row.user_id, ramp_access_scopes: ['default'], ramp_mfa_required: false,
    ramp_mfa_authed: true, ramp_session_id: caller.grantId ?? caller.clientId, sign_in_provider: 'password', business_id: row.business_id,
    iat: nowSeconds, exp: nowSeconds + 60,
  };
  return {
    identityId: row.identity_id,
    // No session: the client (or the grant) stands in for one (sign-out and session calls are never an API client's).
    sessionId: caller.grantId ?? caller.clientId,
    businessId: row.business_id,
    claims,
    user: {
      id: row.user_id, business_id: row.business_id, role: row.role, is_manager: row.is_manager,
      user_permissions: row.user_permissions, manager_id: row.manager_id,
    },
    apiClient: { id: caller.clientId, name: caller.name, scopes, ...(caller.grantId && { developerApp: true as const }) },
  };
}
