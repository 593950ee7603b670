import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/db.ts';

/**
 * The two short-lived secrets of an SSO sign-in, both stored as SHA-256 hashes and used once:
 * - the sign-in state (OIDC `state`, SAML RelayState), from `start` to the IdP's answer, with the
 *   nonce, PKCE verifier or SAML request id it must match — 10 minutes;
 * - the completion code the browser brings back to the app (/sso/complete?code=…), traded by
 *   `sso.complete` for the token — 60 seconds.
 * Each is claimed by one conditional UPDATE (used_at IS NULL, not expired), so a replay or two
 * racing uses open at most one sign-in.
 */
export type SsoKind = 'oidc' | 'saml' | 'google';

const STATE_TTL_MS = 10 * 60 * 1000;
const COMPLETION_TTL_MS = 60 * 1000;

const hash = (token: string) => createHash('sha256').update(token, 'utf8').digest('base64url');
const newToken = () => randomBytes(32).toString('base64url');

export type SignInState = {
  kind: SsoKind;
  provider_id: string | null;
  nonce: string | null;
  code_verifier: string | null;
  saml_request_id: string | null;
  redirect: string | null;
};

/** Stores a sign-in in flight under `state` (the caller's, e.g. OIDC's random state; else a new one), answers the state. */
export async function saveSignInState(db: Queryable, s: SignInState, nowMs: number, state = newToken()): Promise<string> {
  // Opportunistic cleanup: a state or code is worthless a minute after it expires.
  await db.query('DELETE FROM sso_sign_in_states WHERE expires_at < $1', [new Date(nowMs - 60_000)]);
  await db.query(
    `INSERT INTO sso_sign_in_states (state_hash, kind, provider_id, nonce, code_verifier, saml_request_id, redirect, expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [hash(state), s.kind, s.provider_id, s.nonce, s.code_verifier, s.saml_request_id, s.redirect, new Date(nowMs + STATE_TTL_MS), new Date(nowMs)],
  );
  return state;
}

/** The state's sign-in, marked used; null when unknown, used already or expired. */
export async function claimSignInState(db: Queryable, state: string, nowMs: number): Promise<SignInState | null> {
  const rows = await db.query<SignInState>(
    `UPDATE sso_sign_in_states SET used_at = $2 WHERE state_hash = $1 AND used_at IS NULL AND expires_at > $2
     RETURNING kind, provider_id::text, nonce, code_verifier, saml_request_id, redirect`,
    [hash(state), new Date(nowMs)],
  );
  return rows[0] ?? null;
}

export type Completion = {
  kind: SsoKind;
  identity_id: string;
  user_id: string;
  business_id: string;
  session_id: string | null;
  redirect: string | null;
};

export async function issueCompletionCode(db: Queryable, c: Completion, nowMs: number): Promise<string> {
  await db.query('DELETE FROM sso_completion_codes WHERE expires_at < $1', [new Date(nowMs - 60_000)]);
  const code = newToken();
  await db.query(
    `INSERT INTO sso_completion_codes (code_hash, kind, identity_id, user_id, business_id, session_id, redirect, expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [hash(code), c.kind, c.identity_id, c.user_id, c.business_id, c.session_id, c.redirect, new Date(nowMs + COMPLETION_TTL_MS), new Date(nowMs)],
  );
  return code;
}

export async function claimCompletionCode(db: Queryable, code: string, nowMs: number): Promise<Completion | null> {
  const rows = await db.query<Completion>(
    `UPDATE sso_completion_codes SET used_at = $2 WHERE code_hash = $1 AND used_at IS NULL AND expires_at > $2
     RETURNING kind, identity_id::text, user_id::text, business_id::text, session_id::text, redirect`,
    [hash(code), new Date(nowMs)],
  );
  return rows[0] ?? null;
}
