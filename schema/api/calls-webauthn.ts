import { z } from 'zod';
import { defineCall } from './define-call.ts';
import { ANY_SURFACE } from './scopes.ts';
import {
  appAttestBodySchema, authenticatorSchema, creationOptionsSchema, passkeyNameSchema,
  registrationResponseSchema, requestOptionsSchema,
} from '../webauthn.ts';

/**
 * Issue 14 part 6: passkeys (WebAuthn) as a second factor and for step-up, the authenticators
 * list of Settings, and the mobile wrapper's app attest (§6 recent-token rule). Spread into the
 * catalogue by calls.ts; must not import calls.ts (no cycles).
 */
const base = '/v1/auth/authentication/tokens/webauthn';
const mfaCode = z.string().regex(/^\d{6}$/, 'email_code must be 6 digits');
const emptyBody = z.object({}).optional();
const passkeyParams = z.object({ authenticator_id: z.uuid() });

/**
 * Adding a passkey binds a new way in: a step-up token (`sensitive`, 10 minutes) or a token
 * issued in the last 5 minutes — a fresh sign-in, or one still waiting for its second factor,
 * whose first enrolment must also confirm the emailed code (as TOTP's).
 */
const freshOrSensitive = { scopes: ['sensitive'], orRecentToken: true } as const;

export const webauthnRegistrationOptions = defineCall({
  id: 'webauthn.registrationOptions',
  method: 'POST',
  path: `${base}/registration/options`,
  auth: freshOrSensitive,
  body: emptyBody,
  response: z.object({ options: creationOptionsSchema, expires_at: z.iso.datetime() }),
});

export const webauthnRegistrationVerify = defineCall({
  id: 'webauthn.registrationVerify',
  method: 'POST',
  path: `${base}/registration/verify`,
  auth: freshOrSensitive,
  /** email_code: send-email-otp's code, required for a first enrolment from a sign-in waiting for MFA. */
  body: z.object({ response: registrationResponseSchema, name: passkeyNameSchema, email_code: mfaCode.optional() }),
  response: authenticatorSchema,
});

export const listAuthenticators = defineCall({
  id: 'webauthn.listAuthenticators',
  method: 'GET',
  path: '/v1/auth/authentication/tokens',
  auth: { scopes: ['default'] },
  response: z.object({ authenticators: z.array(authenticatorSchema) }),
});

export const renamePasskey = defineCall({
  id: 'webauthn.rename',
  method: 'PATCH',
  path: `${base}/:authenticator_id`,
  auth: { scopes: ['default'] },
  params: passkeyParams,
  body: z.object({ name: passkeyNameSchema }),
  response: authenticatorSchema,
});

/** Removing a second factor is `sensitive`, as TOTP's removal (AUTH_7016 → step up first). */
export const deletePasskey = defineCall({
  id: 'webauthn.delete',
  method: 'DELETE',
  path: `${base}/:authenticator_id`,
  auth: { scopes: ['sensitive'] },
  params: passkeyParams,
  response: z.object({ ok: z.literal(true) }),
});

/**
 * Request options for the caller's own passkeys: the MFA step of a sign-in (its half-scoped,
 * recent token) or a step-up (a signed-in token of any age).
 */
export const webauthnAuthenticationOptions = defineCall({
  id: 'webauthn.authenticationOptions',
  method: 'POST',
  path: `${base}/authentication/options`,
  auth: { scopes: ['default'], orRecentToken: true },
  surfaces: ANY_SURFACE,
  body: emptyBody,
  response: z.object({ options: requestOptionsSchema, expires_at: z.iso.datetime() }),
});

/**
 * §6 app attest, for the mobile wrapper only (X-Ramp-Platform other than web; a web client is
 * refused with AUTH_7022). The challenge lives 5 minutes and is used once.
 */
export const appAttestChallenge = defineCall({
  id: 'appAttest.challenge',
  method: 'POST',
  path: '/v1/auth/app-attest/challenge',
  auth: 'recent-token',
  body: emptyBody,
  response: z.object({ challenge: z.string(), expires_at: z.iso.datetime() }),
});

/**
 * Checks that the challenge was issued to this caller, is unused and fresh, and that the evidence
 * is well formed. `device_verified` is false: Apple's and Google's signatures are not verified
 * here (no device, no Play Integrity key); a caller must not treat the answer as proof of a device.
 */
export const appAttest = defineCall({
  id: 'appAttest.attest',
  method: 'POST',
  path: '/v1/auth/app-attest/attest',
  auth: 'recent-token',
  body: appAttestBodySchema,
  response: z.object({
    attestation_id: z.uuid(),
    platform: z.enum(['ios', 'android']),
    challenge_verified: z.literal(true),
    device_verified: z.literal(false),
  }),
});

export const WEBAUTHN_CALLS = [
  webauthnRegistrationOptions, webauthnRegistrationVerify, listAuthenticators, renamePasskey, deletePasskey,
  webauthnAuthenticationOptions, appAttestChallenge, appAttest,
] as const;
