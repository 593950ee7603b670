import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { isApiScope, type ApiScope } from '../../../schema/api/api-scopes.ts';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../../schema/api/calls-api-clients.ts';
import { REFRESH_TOKEN_PREFIX, REFRESH_TOKEN_TTL_SECONDS } from '../../../schema/api/calls-developer-apps.ts';
import type { AppDeps } from '../../core/deps.ts';
import type { Queryable } from '../../db/db.ts';
import { signAccessToken } from '../api-clients/access.ts';
import { hashSecret } from '../api-clients/store.ts';
import { grantRefusal, liveGrant, revokeGrants } from './live-grant.ts';

/**
 * Issue 32: the developer applications' grants at `POST /v1/public/token` (api-clients/oauth-routes.ts
 * reads the request and answers RFC 6749 §5.2 errors): `authorization_code` (§4.1.3, PKCE S256 per
 * RFC 7636 §4.6) and `refresh_token` (§6, rotating: OAuth 2.1 §4.3.1). A code is used once: a
 * second presentation revokes the grant it issued (§4.1.2); a spent refresh token presented again
 * revokes its grant (reuse detection). Access tokens are the API clients' (claim `gid`, 1 h).
 */
export type TokenAnswer =
  | { status: 200; body: Record<string, string | number> }
  | { status: 400 | 401; error: 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'invalid_scope'; description: string };

const refuse = (status: 400 | 401, error: Extract<TokenAnswer, { status: 400 | 401 }>['error'], description: string): TokenAnswer => ({ status, error, description });
const badGrant = (description: string) => refuse(400, 'invalid_grant', description);

export type AppRow = { id: string; business_id: string; client_type: 'confidential' | 'public' };

/**
 * The developer application `clientId`, authenticated as its type asks: a confidential app by a
 * live secret of its own, a public one by its id alone (PKCE binds the code). Null: invalid_client.
 */
export async function authenticateApp(db: Queryable, clientId: string, secret: string | null, nowMs: number): Promise<AppRow | null> {
  const [app] = await db.query<AppRow>(
    `SELECT c.id, c.business_id, d.client_type FROM api_clients c JOIN developer_apps d ON d.id = c.id
      WHERE c.id = $1 AND c.kind = 'developer_app' AND c.deleted_at IS NULL`,
    [clientId],
  );
  if (!app) return null;
  if (app.client_type === 'public') return secret === null ? app : null;
  if (secret === null) return null;
  const [live] = await db.query<{ id: string }>(
    'UPDATE api_client_secrets SET last_used_at = $3 WHERE client_id = $1 AND secret_hash = $2 AND revoked_at IS NULL RETURNING id',
    [clientId, hashSecret(secret), new Date(nowMs)],
  );
  return live ? app : null;
}

/** RFC 7636 §4.1: 43–128 unreserved characters; S256 compares base64url(sha256(verifier)). */
function pkceMatches(verifier: string | undefined, challenge: string): boolean {
  if (!verifier || !/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

type CodeRow = {
  app_id: string; business_id: string; user_id: string; redirect_uri: string; code_challenge: string; scopes: string[];
  expires_at: Date; used_at: Date | null; grant_id: string | null;
};

/** grant_type=authorization_code, in one transaction: the code is spent whatever the outcome. */
export async function exchangeCode(deps: AppDeps, app: AppRow, fields: Record<string, string>, nowMs: number): Promise<TokenAnswer> {
  const { code, redirect_uri: redirectUri, code_verifier: verifier } = fields;
  if (!code || !redirectUri || !verifier) return refuse(400, 'invalid_request', 'code, redirect_uri and code_verifier are required.');
  return deps.db.transaction(async (tx) => {
    const [row] = await tx.query<CodeRow>('SELECT * FROM oauth_codes WHERE code_hash = $1 FOR UPDATE', [hashSecret(code)]);
    if (!row || row.app_id !== app.id) return badGrant('The authorization code is not valid.');
    if (row.used_at) {
      if (row.grant_id) await revokeGrants(tx, { grantId: row.grant_id }, nowMs);
      return badGrant('The authorization code was already used: the tokens it issued are revoked.');
    }
    await tx.query('UPDATE oauth_codes SET used_at = $2 WHERE code_hash = $1', [hashSecret(code), new Date(nowMs)]);
    if (new Date(row.expires_at).getTime() <= nowMs) return badGrant('The authorization code has expired.');
    if (row.redirect_uri !== redirectUri) return badGrant('redirect_uri does not match the authorization request.');
    if (!pkceMatches(verifier, row.code_challenge)) return badGrant('code_verifier does not match the code challenge.');
    const grantId = randomUUID();
    await tx.query(
      'INSERT INTO oauth_grants (id, app_id, business_id, user_id, scopes, created_at, last_used_at) VALUES ($1, $2, $3, $4, $5, $6, $6)',
      [grantId, app.id, row.business_id, row.user_id, row.scopes, new Date(nowMs)],
    );
    await tx.query('UPDATE oauth_codes SET grant_id = $2 WHERE code_hash = $1', [hashSecret(code), grantId]);
    return issue(deps, tx, grantId, app.id, null, nowMs);
  });
}

/** grant_type=refresh_token: the presented token is spent and a new one answered (rotation). */
export async function refresh(deps: AppDeps, app: AppRow, fields: Record<string, string>, nowMs: number): Promise<TokenAnswer> {
  const presented = fields.refresh_token;
  if (!presented) return refuse(400, 'invalid_request', 'refresh_token is required.');
  return deps.db.transaction(async (tx) => {
    const [row] = await tx.query<{ id: string; grant_id: string; app_id: string; expires_at: Date; used_at: Date | null }>(
      `SELECT r.id, r.grant_id, g.app_id, r.expires_at, r.used_at FROM oauth_refresh_tokens r JOIN oauth_grants g ON g.id = r.grant_id
        WHERE r.token_hash = $1 FOR UPDATE OF r`,
      [hashSecret(presented)],
    );
    if (!row || row.app_id !== app.id) return badGrant('The refresh token is not valid.');
    if (row.used_at) {
      await revokeGrants(tx, { grantId: row.grant_id }, nowMs);
      return badGrant('The refresh token was already used: the connection is revoked and must be allowed again.');
    }
    if (new Date(row.expires_at).getTime() <= nowMs) return badGrant('The refresh token has expired.');
    await tx.query('UPDATE oauth_refresh_tokens SET used_at = $2 WHERE id = $1', [row.id, new Date(nowMs)]);
    return issue(deps, tx, row.grant_id, app.id, fields.scope ?? null, nowMs);
  });
}

/** An access token and a new refresh token for a live grant; `scope` may narrow, never widen. */
async function issue(deps: AppDeps, tx: Queryable, grantId: string, appId: string, scope: string | null, nowMs: number): Promise<TokenAnswer> {
  const grant = await liveGrant(tx, grantId);
  const refusal = grant ? grantRefusal(grant) : 'The connection was not found.';
  if (!grant || refusal) return badGrant(refusal ?? 'The connection was not found.');
  if (grant.business_status === 'INACTIVE' || grant.business_status === 'LOCKED') return refuse(400, 'invalid_grant', 'This business cannot use the API now.');
  const held = grant.scopes.filter(isApiScope);
  let scopes: ApiScope[] = held;
  if (scope !== null) {
    const asked = scope.split(' ').filter(Boolean);
    const outside = asked.filter((s) => !isApiScope(s) || !held.includes(s));
    if (asked.length === 0 || outside.length > 0) {
      return refuse(400, 'invalid_scope', asked.length === 0 ? 'scope is empty.' : `This connection was not granted: ${outside.join(' ')}.`);
    }
    scopes = [...new Set(asked)] as ApiScope[];
  }
  const refreshToken = `${REFRESH_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  await tx.query(
    'INSERT INTO oauth_refresh_tokens (id, grant_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
    [randomUUID(), grantId, hashSecret(refreshToken), new Date(nowMs), new Date(nowMs + REFRESH_TOKEN_TTL_SECONDS * 1000)],
  );
  await tx.query('UPDATE oauth_grants SET last_used_at = $2 WHERE id = $1', [grantId, new Date(nowMs)]);
  const accessToken = await signAccessToken(await deps.tokenKey(), { clientId: appId, grantId, scopes }, Math.floor(nowMs / 1000), ACCESS_TOKEN_TTL_SECONDS);
  return {
    status: 200,
    body: { access_token: accessToken, token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_SECONDS, refresh_token: refreshToken, scope: scopes.join(' ') },
  };
}
