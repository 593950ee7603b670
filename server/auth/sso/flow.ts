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

/** Where each secret lives: its table, the column of its hash, its lifetime and its columns. */
type SecretTable = { table: string; hashColumn: string; ttlMs: number; columns: readonly string[]; returning: string };

const STATES: SecretTable = {
  table: 'sso_sign_in_states', hashColumn: 'state_hash', ttlMs: STATE_TTL_MS,
  columns: ['kind', 'provider_id', 'nonce', 'code_verifier', 'saml_request_id', 'redirect'],
  returning: 'kind, provider_id::text, nonce, code_verifier, saml_request_id, redirect',
};
const COMPLETIONS: SecretTable = {
  table: 'sso_completion_codes', hashColumn: 'code_hash', ttlMs: COMPLETION_TTL_MS,
  columns: ['kind', 'identity_id', 'user_id', 'business_id', 'session_id', 'redirect'],
  returning: 'kind, identity_id::text, user_id::text, business_id::text, session_id::text, redirect',
};

async function storeSecret(db: Queryable, of: SecretTable, token: string, row: Record<string, unknown>, nowMs: number): Promise<void> {
  // Opportunistic cleanup: a state or code is worthless a minute after it expires.
  await db.query(`DELETE FROM ${of.table} WHERE expires_at < $1`, [new Date(nowMs - 60_000)]);
  const names = [of.hashColumn, ...of.columns, 'expires_at', 'created_at'];
  await db.query(
    `INSERT INTO ${of.table} (${names.join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})`,
    [hash(token), ...of.columns.map((c) => row[c]), new Date(nowMs + of.ttlMs), new Date(nowMs)],
  );
}

/** The secret's row, marked used; null when unknown, used already or expired. */
async function claimSecret<T>(db: Queryable, of: SecretTable, token: string, nowMs: number): Promise<T | null> {
  const rows = await db.query<T>(
    `UPDATE ${of.table} SET used_at = $2 WHERE ${of.hashColumn} = $1 AND used_at IS NULL AND expires_at > $2 RETURNING ${of.returning}`,
    [hash(token), new Date(nowMs)],
  );
  return rows[0] ?? null;
}

/** Stores a sign-in in flight under `state` (the caller's, e.g. OIDC's random state; else a new one), answers the state. */
export async function saveSignInState(db: Queryable, s: SignInState, nowMs: number, state = newToken()): Promise<string> {
  await storeSecret(db, STATES, state, s, nowMs);
  return state;
}

/** The state's sign-in, marked used; null when unknown, used already or expired. */
export async function claimSignInState(db: Queryable, state: string, nowMs: number): Promise<SignInState | null> {
  return claimSecret<SignInState>(db, STATES, state, nowMs);
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
  const code = newToken();
  await storeSecret(db, COMPLETIONS, code, c, nowMs);
  return code;
}

export async function claimCompletionCode(db: Queryable, code: string, nowMs: number): Promise<Completion | null> {
  return claimSecret<Completion>(db, COMPLETIONS, code, nowMs);
}
