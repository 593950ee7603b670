import { decodeJwt, jwtVerify, SignJWT } from 'jose';
import { canManageApiClients } from '../../../schema/roles.ts';
import { isApiScope, type ApiScope } from '../../../schema/api/api-scopes.ts';
import type { Queryable } from '../../db/db.ts';

/**
 * An API client's access token (issue 32, D4): a JWT signed with the key of every other token
 * (auth/tokens.ts, HS256), one hour, naming the client (`sub`), the secret it was issued with
 * (`sid`) and its granted scopes (`scope`). Its audience sets it apart: an id token never has
 * one, and the id-token schema refuses this one (no session), so neither passes for the other.
 */
export const API_TOKEN_AUDIENCE = 'ledgerline-api-client';
const ALG = 'HS256';

/**
 * `secretId`: a customer API client's token (client credentials); `grantId`: a developer
 * application's, issued on a business's grant (auth/developer-apps/, claim `gid`).
 */
export type AccessClaims = { clientId: string; scopes: ApiScope[] } & ({ secretId: string } | { grantId: string });

export async function signAccessToken(key: Uint8Array, claims: AccessClaims, nowSeconds: number, ttlSeconds: number): Promise<string> {
  const bound = 'secretId' in claims ? { sid: claims.secretId } : { gid: claims.grantId };
  return new SignJWT({ ...bound, scope: claims.scopes.join(' ') })
    .setProtectedHeader({ alg: ALG, typ: 'at+jwt' })
    .setSubject(claims.clientId)
    .setAudience(API_TOKEN_AUDIENCE)
    .setIssuedAt(nowSeconds)
    .setExpirationTime(nowSeconds + ttlSeconds)
    .sign(key);
}

/** Whether a bearer token claims to be an API client's (read unverified, only to pick the check). */
export function looksLikeAccessToken(token: string): boolean {
  try {
    const aud = decodeJwt(token).aud;
    return aud === API_TOKEN_AUDIENCE || (Array.isArray(aud) && aud.includes(API_TOKEN_AUDIENCE));
  } catch {
    return false;
  }
}

export async function verifyAccessToken(key: Uint8Array, token: string, nowSeconds: number): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: [ALG], audience: API_TOKEN_AUDIENCE, currentDate: new Date(nowSeconds * 1000) });
    if (typeof payload.sub !== 'string' || typeof payload.scope !== 'string') return null;
    const scopes = payload.scope.split(' ').filter(isApiScope);
    if (typeof payload.sid === 'string') return { clientId: payload.sub, secretId: payload.sid, scopes };
    if (typeof payload.gid === 'string') return { clientId: payload.sub, grantId: payload.gid, scopes };
    return null;
  } catch {
    return null;
  }
}

/** A client with the secret presented, the admin it acts as and its business, as read per request. */
export type LiveClientRow = {
  id: string; name: string; scopes: string[]; rate_limit_per_minute: number; expires_at: Date | null; business_id: string;
  secret_id: string; secret_revoked: boolean;
  user_id: string; identity_id: string; role: string; is_manager: boolean; user_permissions: string[]; manager_id: string | null;
  user_deleted: boolean; user_status: string; business_status: string;
};

const LIVE_SQL = `
  SELECT c.id, c.name, c.scopes, c.rate_limit_per_minute, c.expires_at, c.business_id,
         s.id AS secret_id, (s.revoked_at IS NOT NULL) AS secret_revoked,
         u.id AS user_id, u.identity_id, u.role, u.is_manager, u.user_permissions, u.manager_id,
         u.deleted AS user_deleted, u.status AS user_status, b.status AS business_status
    FROM api_client_secrets s
    JOIN api_clients c ON c.id = s.client_id AND c.deleted_at IS NULL AND c.kind = 'client'
    JOIN spend_users u ON u.id = c.created_by
    JOIN businesses b ON b.id = c.business_id`;

/** One indexed read per request: the secret (by id from a token, or by hash at the token endpoint). */
export async function liveClientBySecret(db: Queryable, by: { secretId: string } | { secretHash: string }): Promise<LiveClientRow | null> {
  const [row] = 'secretId' in by
    ? await db.query<LiveClientRow>(`${LIVE_SQL} WHERE s.id = $1`, [by.secretId])
    : await db.query<LiveClientRow>(`${LIVE_SQL} WHERE s.secret_hash = $1`, [by.secretHash]);
  return row ?? null;
}

/**
 * Why a client may not act now, in words for its developer; null when it may. A revoked secret,
 * a deleted or expired client, or an admin it acts as who is gone, suspended or no longer allowed
 * to manage API clients all stop it at once.
 */
export function clientRefusal(row: LiveClientRow, nowMs: number): string | null {
  if (row.secret_revoked) return 'This client secret was revoked.';
  if (row.expires_at && new Date(row.expires_at).getTime() <= nowMs) return 'This API client has expired.';
  if (row.user_deleted || row.user_status !== 'ACTIVE' || !canManageApiClients(row)) {
    return 'The admin this API client acts as no longer has access: an admin must create a new client.';
  }
  return null;
}

const WINDOW_MS = 60_000;

/**
 * Counts one request in the client's current minute (an atomic upsert: many processes never
 * overshoot) and answers the seconds to wait when it is over the limit, else null.
 */
export async function takeClientRequest(db: Queryable, clientId: string, limitPerMinute: number, nowMs: number): Promise<number | null> {
  const windowStart = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
  const [row] = await db.query<{ hits: number }>(
    `INSERT INTO api_client_rate_windows (client_id, window_start, hits) VALUES ($1, $2, 1)
     ON CONFLICT (client_id, window_start) DO UPDATE SET hits = api_client_rate_windows.hits + 1 RETURNING hits`,
    [clientId, new Date(windowStart)],
  );
  // The first hit of a window clears the client's old ones (the table holds about one row per client).
  if (row?.hits === 1) await db.query('DELETE FROM api_client_rate_windows WHERE client_id = $1 AND window_start < $2', [clientId, new Date(windowStart)]);
  if ((row?.hits ?? 0) <= limitPerMinute) return null;
  return Math.max(1, Math.ceil((windowStart + WINDOW_MS - nowMs) / 1000));
}
