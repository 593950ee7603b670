/**
 * §6 app attest for the mobile wrapper: a single-use, 5-minute challenge, then the wrapper's
 * evidence against it. What is checked: the caller is the wrapper (X-Ramp-Platform is not web),
 * the challenge was issued to this identity and session, is unused and fresh, and the evidence
 * is well formed (iOS: a CBOR `apple-appattest` attestation object with a certificate chain and
 * a receipt whose credential id is the key id; Android: a compact JWS/JWE Play Integrity token).
 * What is NOT checked: Apple's certificate chain and nonce, or Google's verdict — that needs the
 * real device services and keys this server does not have. The answer says so
 * (`device_verified: false`), and nothing here grants a scope.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { decodeAttestationObject, isoBase64URL, parseAuthenticatorData } from '@simplewebauthn/server/helpers';
import { appAttest, appAttestChallenge } from '../../schema/api/calls-webauthn.ts';
import type { Queryable } from '../db/db.ts';
import type { Actor } from '../core/actor.ts';
import { ApiError } from '../core/errors.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { MAX_LIVE_CHALLENGES } from '../auth/webauthn-store.ts';
import { refuse } from './identity-code-limits.ts';

export const APP_ATTEST_WEB_MESSAGE = 'App attestation is only for the Ledgerline mobile app.';
export const APP_ATTEST_CHALLENGE_MESSAGE = 'This attestation challenge expired or was already used. Ask for a new one.';
export const APP_ATTEST_MALFORMED_MESSAGE = 'attestation_object must be an App Attest attestation for key_id';
const CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** The wrapper sends `mobile` (sync/http.ts); a native client may name its platform. */
const WRAPPER_PLATFORMS = new Set(['mobile', 'ios', 'android']);

function assertWrapper(platform: string | undefined): void {
  if (!platform || !WRAPPER_PLATFORMS.has(platform.toLowerCase())) throw new ApiError('AUTH_7022', APP_ATTEST_WEB_MESSAGE);
}

async function takeChallenge(db: Queryable, actor: Actor, challenge: string, nowMs: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE app_attest_challenges SET used_at = $4
      WHERE challenge = $1 AND identity_id = $2 AND session_id = $3 AND used_at IS NULL AND expires_at > $4 RETURNING id`,
    [challenge, actor.identityId, actor.sessionId, new Date(nowMs)],
  );
  return rows.length > 0;
}

/** Base64 (standard or url-safe, padded or not) to bytes; null when it is not base64. */
function bytesOf(text: string): ReturnType<typeof isoBase64URL.toBuffer> | null {
  const url = text.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return isoBase64URL.isBase64URL(url) ? isoBase64URL.toBuffer(url) : null;
}

/** An Apple App Attest attestation object for this key, by its shape only (see the header). */
function wellFormedAppleAttestation(keyId: string, attestationObject: string): boolean {
  const bytes = bytesOf(attestationObject);
  const key = bytesOf(keyId);
  if (!bytes || !key || key.length !== 32) return false;
  try {
    const decoded = decodeAttestationObject(bytes);
    const fmt = decoded.get('fmt') as string;
    const stmt = decoded.get('attStmt') as unknown as Map<string, unknown>;
    const x5c = stmt.get('x5c');
    const receipt = stmt.get('receipt');
    const authData = parseAuthenticatorData(decoded.get('authData'));
    return fmt === 'apple-appattest'
      && Array.isArray(x5c) && x5c.length >= 2 && x5c.every((c) => c instanceof Uint8Array && c.length > 0)
      && receipt instanceof Uint8Array && receipt.length > 0
      && authData.credentialID !== undefined && Buffer.from(authData.credentialID).equals(Buffer.from(key));
  } catch {
    return false;
  }
}

export const appAttestHandlers = {
  [appAttestChallenge.id]: async (ctx) => {
    const actor = actorOf(ctx);
    assertWrapper(ctx.c.req.header('X-Ramp-Platform'));
    const now = ctx.deps.now();
    const challenge = isoBase64URL.fromBuffer(randomBytes(32));
    const expiresAt = new Date(now + CHALLENGE_TTL_MS);
    await ctx.db.query('DELETE FROM app_attest_challenges WHERE identity_id = $1 AND expires_at < $2', [actor.identityId, new Date(now)]);
    await ctx.db.query(
      `INSERT INTO app_attest_challenges (id, identity_id, session_id, challenge, expires_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [randomUUID(), actor.identityId, actor.sessionId, challenge, expiresAt, new Date(now)],
    );
    await ctx.db.query(
      `DELETE FROM app_attest_challenges WHERE identity_id = $1 AND id NOT IN (
         SELECT id FROM app_attest_challenges WHERE identity_id = $1 ORDER BY created_at DESC, id LIMIT $2)`,
      [actor.identityId, MAX_LIVE_CHALLENGES],
    );
    return ok({ challenge, expires_at: expiresAt.toISOString() }, 201);
  },

  [appAttest.id]: async (ctx) => {
    const actor = actorOf(ctx);
    assertWrapper(ctx.c.req.header('X-Ramp-Platform'));
    const body = ctx.input.body;
    // Taken before the evidence is looked at: a challenge serves one attempt, good or bad.
    // Answered (not thrown) from here on, so the used challenge stays used.
    if (!(await takeChallenge(ctx.db, actor, body.challenge, ctx.deps.now()))) return refuse('REQUEST_7001', APP_ATTEST_CHALLENGE_MESSAGE);
    if (body.platform === 'ios' && !wellFormedAppleAttestation(body.key_id, body.attestation_object)) {
      const e = { attestation_object: APP_ATTEST_MALFORMED_MESSAGE };
      return { status: 422, body: { error_v2: { error_code: 'REQUEST_7001', message: APP_ATTEST_MALFORMED_MESSAGE, errors: e } } };
    }
    const id = randomUUID();
    const keyId = body.platform === 'ios' ? body.key_id : null;
    await ctx.db.query(
      'INSERT INTO app_attestations (id, identity_id, platform, key_id, device_verified, created_at) VALUES ($1, $2, $3, $4, false, $5)',
      [id, actor.identityId, body.platform, keyId, new Date(ctx.deps.now())],
    );
    return ok({ attestation_id: id, platform: body.platform, challenge_verified: true, device_verified: false }, 201);
  },
} satisfies DomainHandlers;
