import type { Context, Hono } from 'hono';
import { isApiScope, type ApiScope } from '../../../schema/api/api-scopes.ts';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../../schema/api/calls-api-clients.ts';
import type { AppDeps } from '../../core/deps.ts';
import { clientAddress, recordFailure, throttledFor, type Limit } from '../rate-limit.ts';
import { clientRefusal, liveClientBySecret, signAccessToken, takeClientRequest } from './access.ts';
import { clientCallLog, recordClientCall } from './call-log.ts';
import { hashSecret } from './store.ts';
import { authenticateApp, exchangeCode, refresh } from '../developer-apps/token-grants.ts';

/**
 * Issue 32: the OAuth 2.0 token endpoint of customer API clients (client credentials, RFC 6749
 * §4.4), outside the JSON call catalogue: its body is a form (JSON accepted too) and its errors
 * are RFC 6749 §5.2's. Also mounts the API clients' request log around every /v1 route.
 */
export const TOKEN_PATH = '/v1/public/token';
export const TOKEN_CALL_ID = 'oauth.token';

type OAuthError = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope';

/** Failed client authentications per address: secrets cannot be guessed, but nobody gets to try forever. */
const failureLimits = (address: string | null): Limit[] => (address ? [{ key: `oauth-token:address:${address}`, max: 30, windowSeconds: 15 * 60 }] : []);

function oauthError(c: Context, status: 400 | 401 | 429, error: OAuthError, description: string): Response {
  c.header('Cache-Control', 'no-store');
  c.header('Pragma', 'no-cache');
  // RFC 6749 §5.2: a failed client authentication answers 401 with the scheme it accepts.
  if (status === 401) c.header('WWW-Authenticate', 'Basic realm="ledgerline", charset="UTF-8"');
  return c.json({ error, error_description: description }, status);
}

/** The form (or JSON object) fields, strings only; null when the body cannot be read as either. */
async function readFields(c: Context): Promise<Record<string, string> | null> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const text = await c.req.text();
  if (type === 'application/x-www-form-urlencoded') {
    const fields: Record<string, string> = {};
    for (const [k, v] of new URLSearchParams(text)) {
      // RFC 6749 §3.2: a parameter sent twice is an invalid request.
      if (k in fields) return null;
      fields[k] = v;
    }
    return fields;
  }
  if (type === 'application/json') {
    try {
      const parsed: unknown = JSON.parse(text);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
      const entries = Object.entries(parsed as Record<string, unknown>);
      if (entries.some(([, v]) => typeof v !== 'string')) return null;
      return Object.fromEntries(entries) as Record<string, string>;
    } catch {
      return null;
    }
  }
  return null;
}

/** HTTP Basic client credentials (RFC 6749 §2.3.1: each part form-encoded, then base64). */
function basicCredentials(c: Context): { id: string; secret: string } | null | 'malformed' {
  const header = c.req.header('authorization');
  if (!header) return null;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return 'malformed';
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'malformed';
  try {
    const form = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return { id: form(decoded.slice(0, colon)), secret: form(decoded.slice(colon + 1)) };
  } catch {
    return 'malformed';
  }
}

async function tokenEndpoint(c: Context, deps: AppDeps): Promise<Response> {
  const started = performance.now();
  const nowMs = deps.now();
  const address = clientAddress(c);
  const limits = failureLimits(address);
  const wait = await throttledFor(deps.db, limits, nowMs);
  if (wait !== null) {
    c.header('Retry-After', String(wait));
    return oauthError(c, 429, 'invalid_request', 'Too many failed client authentications from this address. Try again later.');
  }
  const fields = await readFields(c);
  if (!fields) return oauthError(c, 400, 'invalid_request', 'Send the request as application/x-www-form-urlencoded (or a JSON object of strings), each parameter once.');
  const basic = basicCredentials(c);
  if (basic === 'malformed') return oauthError(c, 401, 'invalid_client', 'The Authorization header is not valid HTTP Basic client authentication.');
  const inBody = fields.client_id !== undefined || fields.client_secret !== undefined;
  if (basic && inBody) return oauthError(c, 400, 'invalid_request', 'Authenticate the client one way: HTTP Basic or client_id and client_secret in the body, not both.');
  if (!fields.grant_type) return oauthError(c, 400, 'invalid_request', 'grant_type is required.');
  if (fields.grant_type === 'authorization_code' || fields.grant_type === 'refresh_token') {
    return appTokenEndpoint(c, deps, fields, basic, { limits, nowMs, started });
  }
  if (fields.grant_type !== 'client_credentials') {
    return oauthError(c, 400, 'unsupported_grant_type', 'Supported grants: client_credentials, authorization_code and refresh_token.');
  }
  const credentials = basic ?? (fields.client_id && fields.client_secret ? { id: fields.client_id, secret: fields.client_secret } : null);
  if (!credentials) return oauthError(c, 401, 'invalid_client', 'Client authentication is required: HTTP Basic, or client_id and client_secret.');

  const row = await liveClientBySecret(deps.db, { secretHash: hashSecret(credentials.secret) });
  const refusal = row && row.id === credentials.id ? clientRefusal(row, nowMs) : 'The client id or secret is wrong.';
  if (!row || refusal) {
    await recordFailure(deps.db, limits, nowMs);
    return oauthError(c, 401, 'invalid_client', refusal ?? 'The client id or secret is wrong.');
  }
  const mark = { clientId: row.id, businessId: row.business_id, callId: TOKEN_CALL_ID };
  const answer = await grant(c, deps, row, fields.scope, nowMs);
  await recordClientCall(deps.db, mark, { method: 'POST', path: TOKEN_PATH, status: answer.status, durationMs: performance.now() - started }, nowMs);
  return answer;
}

/**
 * A developer application's grants (auth/developer-apps/token-grants.ts): the app authenticates
 * as its type asks (a confidential one with its secret, HTTP Basic or body; a public one by
 * client_id alone), failures counted like the client credentials grant's.
 */
async function appTokenEndpoint(
  c: Context, deps: AppDeps, fields: Record<string, string>, basic: { id: string; secret: string } | null,
  at: { limits: Limit[]; nowMs: number; started: number },
): Promise<Response> {
  const id = basic?.id ?? fields.client_id;
  if (!id) return oauthError(c, 401, 'invalid_client', 'client_id is required (HTTP Basic, or in the body).');
  const app = /^[0-9a-f-]{36}$/i.test(id) ? await authenticateApp(deps.db, id, basic?.secret ?? fields.client_secret ?? null, at.nowMs) : null;
  if (!app) {
    await recordFailure(deps.db, at.limits, at.nowMs);
    return oauthError(c, 401, 'invalid_client', 'The client id or secret is wrong (a public application sends no secret).');
  }
  const answer = fields.grant_type === 'authorization_code' ? await exchangeCode(deps, app, fields, at.nowMs) : await refresh(deps, app, fields, at.nowMs);
  const res = answer.status === 200 ? noStore(c).json(answer.body, 200) : oauthError(c, answer.status, answer.error, answer.description);
  await recordClientCall(deps.db, { clientId: app.id, businessId: app.business_id, callId: TOKEN_CALL_ID }, { method: 'POST', path: TOKEN_PATH, status: res.status, durationMs: performance.now() - at.started }, at.nowMs);
  return res;
}

function noStore(c: Context): Context {
  c.header('Cache-Control', 'no-store');
  c.header('Pragma', 'no-cache');
  return c;
}

async function grant(
  c: Context, deps: AppDeps, row: NonNullable<Awaited<ReturnType<typeof liveClientBySecret>>>, scopeParam: string | undefined, nowMs: number,
): Promise<Response> {
  if (row.business_status === 'INACTIVE' || row.business_status === 'LOCKED') return oauthError(c, 400, 'unauthorized_client', 'This business cannot use the API now.');
  const retryAfter = await takeClientRequest(deps.db, row.id, row.rate_limit_per_minute, nowMs);
  if (retryAfter !== null) {
    c.header('Retry-After', String(retryAfter));
    return oauthError(c, 429, 'invalid_request', `This API client is limited to ${row.rate_limit_per_minute} requests a minute.`);
  }
  const held = row.scopes.filter(isApiScope);
  let scopes: ApiScope[] = held;
  if (scopeParam !== undefined) {
    const asked = scopeParam.split(' ').filter(Boolean);
    const outside = asked.filter((s) => !isApiScope(s) || !held.includes(s));
    if (asked.length === 0 || outside.length > 0) {
      return oauthError(c, 400, 'invalid_scope', asked.length === 0 ? 'scope is empty.' : `This client does not hold: ${outside.join(' ')}.`);
    }
    scopes = [...new Set(asked)] as ApiScope[];
  }
  const nowSeconds = Math.floor(nowMs / 1000);
  // Never past the client's own expiry.
  const untilExpiry = row.expires_at ? Math.floor((new Date(row.expires_at).getTime() - nowMs) / 1000) : Infinity;
  const ttl = Math.max(1, Math.min(ACCESS_TOKEN_TTL_SECONDS, untilExpiry));
  const token = await signAccessToken(await deps.tokenKey(), { clientId: row.id, secretId: row.secret_id, scopes }, nowSeconds, ttl);
  await deps.db.query('UPDATE api_client_secrets SET last_used_at = $2 WHERE id = $1', [row.secret_id, new Date(nowMs)]);
  c.header('Cache-Control', 'no-store');
  c.header('Pragma', 'no-cache');
  return c.json({ access_token: token, token_type: 'Bearer', expires_in: ttl, scope: scopes.join(' ') }, 200);
}

export function registerOAuthRoutes(app: Hono, deps: AppDeps): void {
  app.use('/v1/*', clientCallLog(deps));
  app.post(TOKEN_PATH, (c) => tokenEndpoint(c, deps));
}
