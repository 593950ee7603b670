/**
 * Passkey ceremonies with @simplewebauthn/server: registration (attestation 'none': we trust the
 * key, not the maker) and authentication (an assertion over a single-use challenge), both with
 * user verification preferred, not required (a security key without a PIN still works).
 *
 * Relying party: the origin people reach the server at, PUBLIC_URL (the same setting SSO builds
 * its URLs on, e.g. `https://ledgerline.example`), plus any in LEDGERLINE_PASSKEY_ORIGINS
 * (comma-separated, for a second host name); the RP ID is each origin's host name. With neither,
 * only a `localhost` origin is accepted (development and tests); WebAuthn needs a secure context
 * and a domain RP ID, so an app opened at 127.0.0.1 cannot use passkeys at all.
 */
import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import {
  generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { isoBase64URL, parseAuthenticatorData } from '@simplewebauthn/server/helpers';
import type { ErrorCode } from '../../schema/errors.ts';
import type { Authenticator, AuthenticationResponse, RegistrationResponse } from '../../schema/webauthn.ts';
import type { Queryable } from '../db/db.ts';
import { ApiError } from '../core/errors.ts';
import {
  credentialsOf, insertCredential, ownCredential, passkeyView, recordUse, storeChallenge, takeChallenge,
  WEBAUTHN_CHALLENGE_TTL_MS, type ChallengeOwner,
} from './webauthn-store.ts';

const RP_NAME = 'Ledgerline';
export const PASSKEYS_UNCONFIGURED_MESSAGE =
  'Passkeys are not available on this server: its public address (PUBLIC_URL) is not configured.';
export const PASSKEY_CHALLENGE_MESSAGE = 'This passkey request expired or was already used. Try again.';
export const PASSKEY_NOT_YOURS_MESSAGE = 'This passkey is not registered to your account.';
export const PASSKEY_FAILED_MESSAGE = 'The passkey could not be verified.';
export const PASSKEY_COUNTER_MESSAGE =
  'This passkey was refused: its use counter went backwards, a sign it may have been copied. Remove it and add it again.';
const PASSKEY_DUPLICATE_MESSAGE = 'This passkey is already registered.';
export const PASSKEY_REGISTRATION_MESSAGE = 'The passkey could not be registered. Try again.';
const NO_PASSKEY_MESSAGE = 'You have no passkey yet.';

/** Known transports (WebAuthn L3); others a browser may add later are dropped, not refused. */
const TRANSPORTS = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);
type Transport = 'ble' | 'cable' | 'hybrid' | 'internal' | 'nfc' | 'smart-card' | 'usb';
const knownTransports = (list: readonly string[] | undefined): Transport[] =>
  (list ?? []).filter((t): t is Transport => TRANSPORTS.has(t));

export type RelyingParty = { origins: string[]; rpIds: string[]; rpId: string };

function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.origin : null;
  } catch {
    return null;
  }
}

/**
 * The relying party for this request: the configured origins (the one the request came from
 * first, for the RP ID of new options), or a localhost origin when none is configured.
 */
export function relyingParty(c: Context): RelyingParty {
  const asked = originOf(c.req.header('Origin') ?? c.req.url);
  const configured = [process.env.PUBLIC_URL ?? '', ...(process.env.LEDGERLINE_PASSKEY_ORIGINS ?? '').split(',')]
    .map((s) => originOf(s.trim()))
    .filter((o): o is string => o !== null);
  const origins = configured.length > 0 ? configured : asked && new URL(asked).hostname === 'localhost' ? [asked] : [];
  if (origins.length === 0) throw new ApiError('AUTH_7022', PASSKEYS_UNCONFIGURED_MESSAGE);
  const rpIds = [...new Set(origins.map((o) => new URL(o).hostname))];
  const current = asked && origins.includes(asked) ? asked : origins[0]!;
  return { origins, rpIds, rpId: new URL(current).hostname };
}

const newChallenge = () => isoBase64URL.fromBuffer(randomBytes(32));

/** The challenge the browser signed over, read from clientDataJSON (null when unreadable). */
function signedChallenge(clientDataJSON: string): string | null {
  try {
    const data: unknown = JSON.parse(isoBase64URL.toUTF8String(clientDataJSON));
    const challenge = (data as { challenge?: unknown }).challenge;
    return typeof challenge === 'string' ? challenge : null;
  } catch {
    return null;
  }
}

/** The identity's uuid as the WebAuthn user handle (16 bytes, no personal data). */
const userHandle = (identityId: string) => Uint8Array.from(Buffer.from(identityId.replace(/-/g, ''), 'hex'));

export async function registrationOptions(
  db: Queryable, rp: RelyingParty, owner: ChallengeOwner, email: string, nowMs: number,
) {
  const existing = await credentialsOf(db, owner.identityId);
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.rpId,
    userName: email,
    userDisplayName: email,
    userID: userHandle(owner.identityId),
    challenge: isoBase64URL.toBuffer(newChallenge()),
    timeout: WEBAUTHN_CHALLENGE_TTL_MS,
    attestationType: 'none',
    // The same authenticator twice would be one factor listed as two.
    excludeCredentials: existing.map((c) => ({ id: c.credential_id, transports: knownTransports(c.transports) })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  const expiresAt = await storeChallenge(db, owner, 'register', options.challenge, nowMs);
  return { options, expires_at: expiresAt.toISOString() };
}

export type Refusal = { code: ErrorCode; message: string; counted: boolean };
const refusal = (code: ErrorCode, message: string, counted = true): Refusal => ({ code, message, counted });

export async function verifyRegistration(
  db: Queryable, rp: RelyingParty, owner: ChallengeOwner, response: RegistrationResponse, name: string, nowMs: number,
): Promise<{ ok: true; authenticator: Authenticator } | { ok: false; refusal: Refusal }> {
  const challenge = signedChallenge(response.response.clientDataJSON);
  if (!challenge || !(await takeChallenge(db, owner, 'register', challenge, nowMs))) {
    return { ok: false, refusal: refusal('REQUEST_7001', PASSKEY_CHALLENGE_MESSAGE, false) };
  }
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response: { ...response, response: { ...response.response, transports: knownTransports(response.response.transports) } },
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.rpIds,
      requireUserVerification: false,
    });
  } catch {
    return { ok: false, refusal: refusal('REQUEST_7001', PASSKEY_REGISTRATION_MESSAGE) };
  }
  if (!verified.verified) return { ok: false, refusal: refusal('REQUEST_7001', PASSKEY_REGISTRATION_MESSAGE) };
  const info = verified.registrationInfo;
  const row = await insertCredential(db, {
    identity_id: owner.identityId,
    credential_id: info.credential.id,
    public_key: isoBase64URL.fromBuffer(info.credential.publicKey),
    counter: info.credential.counter,
    transports: knownTransports(response.response.transports),
    device_type: info.credentialDeviceType,
    backed_up: info.credentialBackedUp,
    name,
  }, nowMs);
  if (!row) return { ok: false, refusal: refusal('REQUEST_7001', PASSKEY_DUPLICATE_MESSAGE, false) };
  return { ok: true, authenticator: passkeyView(row) };
}

export async function authenticationOptions(db: Queryable, rp: RelyingParty, owner: ChallengeOwner, nowMs: number) {
  const credentials = await credentialsOf(db, owner.identityId);
  if (credentials.length === 0) throw new ApiError('REQUEST_7004', NO_PASSKEY_MESSAGE);
  const options = await generateAuthenticationOptions({
    rpID: rp.rpId,
    challenge: isoBase64URL.toBuffer(newChallenge()),
    timeout: WEBAUTHN_CHALLENGE_TTL_MS,
    userVerification: 'preferred',
    allowCredentials: credentials.map((c) => ({ id: c.credential_id, transports: knownTransports(c.transports) })),
  });
  const expiresAt = await storeChallenge(db, owner, 'authenticate', options.challenge, nowMs);
  return { options, expires_at: expiresAt.toISOString() };
}

/**
 * Checks an assertion by one of the caller's own passkeys over a challenge issued to this caller
 * and session. On success the counter and last use are recorded. `counted` refusals are failed
 * proofs (they use up the second-factor budget); an expired or used challenge is not one.
 */
export async function verifyAssertion(
  db: Queryable, rp: RelyingParty, owner: ChallengeOwner, response: AuthenticationResponse, nowMs: number,
): Promise<{ ok: true; authenticatorId: string } | { ok: false; refusal: Refusal }> {
  const challenge = signedChallenge(response.response.clientDataJSON);
  if (!challenge || !(await takeChallenge(db, owner, 'authenticate', challenge, nowMs))) {
    return { ok: false, refusal: refusal('AUTH_7025', PASSKEY_CHALLENGE_MESSAGE, false) };
  }
  const credential = await ownCredential(db, owner.identityId, response.id);
  if (!credential) return { ok: false, refusal: refusal('AUTH_7025', PASSKEY_NOT_YOURS_MESSAGE) };
  if (counterWentBack(response.response.authenticatorData, credential.counter)) {
    return { ok: false, refusal: refusal('AUTH_7025', PASSKEY_COUNTER_MESSAGE) };
  }
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.rpIds,
      credential: {
        id: credential.credential_id,
        publicKey: isoBase64URL.toBuffer(credential.public_key),
        counter: credential.counter,
        transports: knownTransports(credential.transports),
      },
      requireUserVerification: false,
    });
  } catch {
    return { ok: false, refusal: refusal('AUTH_7025', PASSKEY_FAILED_MESSAGE) };
  }
  if (!verified.verified) return { ok: false, refusal: refusal('AUTH_7025', PASSKEY_FAILED_MESSAGE) };
  // A concurrent assertion with the same counter lost the race: the same refusal as a clone.
  if (!(await recordUse(db, credential.id, verified.authenticationInfo.newCounter, nowMs))) {
    return { ok: false, refusal: refusal('AUTH_7025', PASSKEY_COUNTER_MESSAGE) };
  }
  return { ok: true, authenticatorId: credential.id };
}

/** §6.1.1 signature counter: when either counter is non-zero, the new one must be greater. */
function counterWentBack(authenticatorData: string, stored: number): boolean {
  let counter: number;
  try {
    counter = parseAuthenticatorData(isoBase64URL.toBuffer(authenticatorData)).counter;
  } catch {
    return false; // malformed: the full verification refuses it with its own message
  }
  return (counter > 0 || stored > 0) && counter <= stored;
}
