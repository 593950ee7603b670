/**
 * Passkey rows (webauthn_credentials) and ceremony challenges (webauthn_challenges), migration
 * 027. Challenges are single use, 5 minutes, and bound to the identity, the session that asked
 * and their purpose; a challenge is taken (marked used) before its response is checked, so a
 * response can never be replayed, even one that failed.
 */
import { randomUUID } from 'node:crypto';
import type { Authenticator, SecondFactor } from '../../schema/webauthn.ts';
import type { Queryable } from '../db/db.ts';
import { hasActiveTotp } from './totp.ts';

export const WEBAUTHN_CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** Challenges kept per person: more than any honest use has open at once. */
export const MAX_LIVE_CHALLENGES = 20;
export type ChallengePurpose = 'register' | 'authenticate';
export type ChallengeOwner = { identityId: string; sessionId: string };

export async function storeChallenge(
  db: Queryable, owner: ChallengeOwner, purpose: ChallengePurpose, challenge: string, nowMs: number,
): Promise<Date> {
  const expiresAt = new Date(nowMs + WEBAUTHN_CHALLENGE_TTL_MS);
  // Expired challenges of this person are of no use to anyone: keep the table small.
  await db.query('DELETE FROM webauthn_challenges WHERE identity_id = $1 AND expires_at < $2', [owner.identityId, new Date(nowMs)]);
  await db.query(
    `INSERT INTO webauthn_challenges (id, identity_id, session_id, purpose, challenge, expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [randomUUID(), owner.identityId, owner.sessionId, purpose, challenge, expiresAt, new Date(nowMs)],
  );
  // A caller asking for options in a loop keeps only its newest few (tabs, retries) alive.
  await db.query(
    `DELETE FROM webauthn_challenges WHERE identity_id = $1 AND id NOT IN (
       SELECT id FROM webauthn_challenges WHERE identity_id = $1 ORDER BY created_at DESC, id LIMIT $2)`,
    [owner.identityId, MAX_LIVE_CHALLENGES],
  );
  return expiresAt;
}

/**
 * Uses the challenge up in one conditional UPDATE (two concurrent responses cannot both take it).
 * False for a challenge that is unknown, another person's or session's, of the other purpose,
 * used or expired: all are "ask for a new one".
 */
export async function takeChallenge(
  db: Queryable, owner: ChallengeOwner, purpose: ChallengePurpose, challenge: string, nowMs: number,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE webauthn_challenges SET used_at = $5
      WHERE challenge = $1 AND identity_id = $2 AND session_id = $3 AND purpose = $4
        AND used_at IS NULL AND expires_at > $5
     RETURNING id`,
    [challenge, owner.identityId, owner.sessionId, purpose, new Date(nowMs)],
  );
  return rows.length > 0;
}

export type CredentialRow = {
  id: string;
  identity_id: string;
  credential_id: string;
  public_key: string;
  counter: number;
  transports: string[];
  device_type: 'singleDevice' | 'multiDevice';
  backed_up: boolean;
  name: string;
  created_at: string;
  last_used_at: string | null;
};

const COLUMNS = `id, identity_id, credential_id, public_key, counter::float8 AS counter, transports, device_type, backed_up,
  name, ll_iso(created_at) AS created_at, ll_iso(last_used_at) AS last_used_at`;

export const credentialsOf = (db: Queryable, identityId: string) =>
  db.query<CredentialRow>(`SELECT ${COLUMNS} FROM webauthn_credentials WHERE identity_id = $1 ORDER BY created_at, id`, [identityId]);

/** The caller's own passkey with this credential id; another person's is as unknown as none. */
export async function ownCredential(db: Queryable, identityId: string, credentialId: string): Promise<CredentialRow | null> {
  const [row] = await db.query<CredentialRow>(
    `SELECT ${COLUMNS} FROM webauthn_credentials WHERE identity_id = $1 AND credential_id = $2`, [identityId, credentialId],
  );
  return row ?? null;
}

export type NewCredential = Omit<CredentialRow, 'id' | 'created_at' | 'last_used_at'>;

/** Null when the credential id is registered already (to anyone): the unique index decides. */
export async function insertCredential(db: Queryable, c: NewCredential, nowMs: number): Promise<CredentialRow | null> {
  const [row] = await db.query<CredentialRow>(
    `INSERT INTO webauthn_credentials
       (id, identity_id, credential_id, public_key, counter, transports, device_type, backed_up, name, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (credential_id) DO NOTHING
     RETURNING ${COLUMNS}`,
    [randomUUID(), c.identity_id, c.credential_id, c.public_key, c.counter, c.transports, c.device_type, c.backed_up, c.name, new Date(nowMs)],
  );
  return row ?? null;
}

/**
 * Records a use: the new counter must be greater than the stored one unless both are zero (an
 * authenticator without a counter). Conditional, so of two concurrent assertions with the same
 * counter only one passes.
 */
export async function recordUse(db: Queryable, id: string, counter: number, nowMs: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE webauthn_credentials SET counter = $2, last_used_at = $3
      WHERE id = $1 AND (counter < $2 OR ($2 = 0 AND counter = 0)) RETURNING id`,
    [id, counter, new Date(nowMs)],
  );
  return rows.length > 0;
}

async function hasPasskey(db: Queryable, identityId: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM webauthn_credentials WHERE identity_id = $1 LIMIT 1', [identityId])).length > 0;
}

/** Removes one of the person's own second factors by id; false when they have none by that id. */
export async function deleteOwnFactor(
  db: Queryable, table: 'totp_authenticators' | 'webauthn_credentials', id: string, identityId: string,
): Promise<boolean> {
  const rows = await db.query(`DELETE FROM ${table} WHERE id = $1 AND identity_id = $2 RETURNING id`, [id, identityId]);
  return rows.length > 0;
}

/** Every second factor the person has enrolled (an active TOTP, a passkey). */
export async function enrolledFactors(db: Queryable, identityId: string): Promise<SecondFactor[]> {
  const [totp, passkey] = await Promise.all([hasActiveTotp(db, identityId), hasPasskey(db, identityId)]);
  return [...(totp ? (['totp'] as const) : []), ...(passkey ? (['webauthn'] as const) : [])];
}

export const passkeyView = (r: CredentialRow): Authenticator => ({
  type: 'webauthn',
  id: r.id,
  name: r.name,
  created_at: r.created_at,
  last_used_at: r.last_used_at,
  device_type: r.device_type,
  backed_up: r.backed_up,
  transports: r.transports,
});

/** Settings' list: the authenticator app (when active) and the passkeys, oldest first. */
export async function authenticatorsOf(db: Queryable, identityId: string): Promise<Authenticator[]> {
  const totp = await db.query<{ id: string; created_at: string }>(
    'SELECT id, ll_iso(created_at) AS created_at FROM totp_authenticators WHERE identity_id = $1 AND active ORDER BY created_at',
    [identityId],
  );
  const passkeys = await credentialsOf(db, identityId);
  return [
    ...totp.map((t): Authenticator => ({ type: 'totp', id: t.id, name: 'Authenticator app', created_at: t.created_at, last_used_at: null })),
    ...passkeys.map(passkeyView),
  ];
}
