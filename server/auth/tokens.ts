import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { tokenClaimsSchema, type TokenClaims } from '../../schema/api/scopes.ts';
import type { Queryable } from '../db/db.ts';

/** Id tokens live 12 hours; sessions can be revoked before that (sign-out). */
const TOKEN_TTL_SECONDS = 12 * 60 * 60;
const ALG = 'HS256';

/**
 * The signing key: TOKEN_SECRET when set; otherwise one random key created once and stored in
 * server_keys, so every API process on the same database signs and verifies alike.
 */
export async function loadTokenKey(db: Queryable, envSecret = process.env.TOKEN_SECRET): Promise<Uint8Array> {
  if (envSecret) return new TextEncoder().encode(envSecret);
  await db.query('INSERT INTO server_keys (name, secret) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    'id_token',
    randomBytes(32).toString('base64url'),
  ]);
  const rows = await db.query<{ secret: string }>('SELECT secret FROM server_keys WHERE name = $1', ['id_token']);
  const secret = rows[0]?.secret;
  if (!secret) throw new Error('token signing key missing from server_keys');
  return new TextEncoder().encode(secret);
}

export type NewTokenClaims = Omit<TokenClaims, 'iat' | 'exp'>;

/** ttlSeconds shortens the life of step-up and impersonation tokens (default 12 h). */
export async function signIdToken(
  key: Uint8Array,
  claims: NewTokenClaims,
  nowSeconds: number,
  ttlSeconds = TOKEN_TTL_SECONDS,
): Promise<string> {
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: ALG, typ: 'JWT' })
    .setIssuedAt(nowSeconds)
    .setExpirationTime(nowSeconds + ttlSeconds)
    .sign(key);
}

/**
 * Tokens already verified, per signing key (issue 33): a client sends the same token with every
 * call for hours, and verifying it (jose: base64, JSON, a WebCrypto HMAC key import and verify,
 * then the claims' schema) was ≈ 8 % of the server's CPU under the load test. A hit is the same
 * token text under the same key, so its signature and claims are what they were; only expiry
 * depends on the time, and is checked on every hit as jose checks it (`exp` must be after now).
 * Revocation is not decided here: authenticate reads the session on every call. Bounded, least
 * recently used out first; only valid tokens enter, so garbage cannot fill it.
 */
const VERIFIED_MAX = 5_000;
const verified = new WeakMap<Uint8Array, Map<string, TokenClaims>>();

/** The verified claims, or null for anything that is not a live token we signed. */
export async function verifyIdToken(key: Uint8Array, token: string, nowSeconds: number): Promise<TokenClaims | null> {
  let cache = verified.get(key);
  const hit = cache?.get(token);
  if (cache && hit) {
    if (hit.exp <= nowSeconds) return null;
    cache.delete(token);
    cache.set(token, hit);
    return hit;
  }
  const claims = await verifyUncached(key, token, nowSeconds);
  if (!claims) return null;
  if (!cache) verified.set(key, (cache = new Map()));
  if (cache.size >= VERIFIED_MAX) cache.delete(cache.keys().next().value!);
  cache.set(token, claims);
  return claims;
}

async function verifyUncached(key: Uint8Array, token: string, nowSeconds: number): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: [ALG], currentDate: new Date(nowSeconds * 1000) });
    const parsed = tokenClaimsSchema.safeParse(payload);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
