import { z } from 'zod';
import { defineCall } from './define-call.ts';
import { ANY_SURFACE } from './scopes.ts';
import { featureFlagsResponseSchema } from '../feature-flags.ts';
import { webConfigSchema } from '../web-config.ts';
import { authenticationResponseSchema, secondFactorSchema } from '../webauthn.ts';

/**
 * Issue 3 identity and access calls (sign-up, MFA, step-up, sessions, sensitive profile data,
 * flags, impersonation, telemetry). Kept apart from calls.ts, which spreads IDENTITY_CALLS into
 * the catalogue; this file must not import calls.ts (no cycles).
 */
const fullScopes = { scopes: ['default'] } as const;
const sensitive = { scopes: ['sensitive'] } as const;
/** §6 low-risk: the lightweight reads a low-risk token may make too. */
const lowRisk = { scopes: ['default', 'low-risk'] } as const;
/** §6 lists password change under both step-ups. */
const sensitiveOrEmailOtp = { scopes: ['sensitive', 'email-otp'] } as const;

const PASSWORD_MIN_LENGTH = 10;
const tokenResponse = z.object({ id_token: z.string(), mfa_required: z.boolean() });
/** A step-up token: the normal scopes plus the earned one, valid until expires_at (ISO). */
const stepUpResponse = z.object({ id_token: z.string(), expires_at: z.iso.datetime() });
const okResponse = z.object({ ok: z.literal(true) });
const mfaCode = z.string().regex(/^\d{6}$/, 'code must be 6 digits');
const emptyBody = z.object({}).optional();

export const signUp = defineCall({
  id: 'auth.signUp',
  method: 'POST',
  path: '/v1/public/sign-up',
  auth: 'public',
  body: z.object({
    email: z.email().max(320),
    password: z.string().min(PASSWORD_MIN_LENGTH, `password must be at least ${PASSWORD_MIN_LENGTH} characters`).max(1024),
    first_name: z.string().trim().min(1).max(100),
    last_name: z.string().trim().min(1).max(100),
    business_name: z.string().trim().min(1).max(200),
  }),
  response: tokenResponse,
});

export const webConfig = defineCall({
  id: 'config.web',
  method: 'GET',
  path: '/v1/public/config',
  auth: 'public',
  response: webConfigSchema,
});

export const devOutbox = defineCall({
  id: 'dev.outbox',
  method: 'GET',
  path: '/v1/public/dev/outbox',
  auth: 'public',
  query: z.object({ email: z.email() }),
  response: z.object({
    messages: z.array(z.object({ to: z.string(), subject: z.string(), body: z.string(), created_at: z.string() })),
  }),
});

export const totpStart = defineCall({
  id: 'mfa.totpStart',
  method: 'POST',
  path: '/v1/auth/authentication/tokens/totp',
  auth: 'recent-token',
  surfaces: ANY_SURFACE,
  body: emptyBody,
  response: z.object({ authenticator_id: z.uuid(), secret: z.string(), otpauth_uri: z.string() }),
});

export const totpVerify = defineCall({
  id: 'mfa.totpVerify',
  method: 'POST',
  path: '/v1/auth/authentication/tokens/totp/:authenticator_id/verify',
  auth: 'recent-token',
  surfaces: ANY_SURFACE,
  params: z.object({ authenticator_id: z.uuid() }),
  /**
   * email_code: the code send-email-otp mailed. Required for a first enrolment from a sign-in
   * still waiting for MFA (the password alone must not bind an authenticator); ignored otherwise.
   */
  body: z.object({ code: mfaCode, email_code: mfaCode.optional() }),
  response: z.object({ authenticator_id: z.uuid(), active: z.literal(true) }),
});

export const totpDelete = defineCall({
  id: 'mfa.totpDelete',
  method: 'DELETE',
  path: '/v1/auth/authentication/tokens/totp/:authenticator_id',
  auth: sensitive,
  params: z.object({ authenticator_id: z.uuid() }),
  response: okResponse,
});

/**
 * Nothing is sent (TOTP and passkeys need no message); the answer tells the client which factor
 * to prompt for. `factor`/`enrolled` are TOTP's (kept for older clients); `factors` lists every
 * enrolled one, so the MFA step can offer a passkey.
 */
export const sendMfa = defineCall({
  id: 'mfa.send',
  method: 'POST',
  path: '/v1/auth/users/current/send-mfa',
  auth: 'recent-token',
  surfaces: ANY_SURFACE,
  body: emptyBody,
  response: z.object({ factor: z.literal('totp'), enrolled: z.boolean(), factors: z.array(secondFactorSchema) }),
});

export const checkMfa = defineCall({
  id: 'mfa.check',
  method: 'POST',
  path: '/v1/auth/users/current/check-mfa',
  auth: 'recent-token',
  surfaces: ANY_SURFACE,
  body: emptyBody,
  response: z.object({
    mfa_required: z.boolean(), mfa_authed: z.boolean(), totp_enrolled: z.boolean(), factors: z.array(secondFactorSchema),
  }),
});

export const verifyMfa = defineCall({
  id: 'mfa.verify',
  method: 'POST',
  path: '/v1/auth/users/current/verify-mfa',
  auth: 'recent-token',
  surfaces: ANY_SURFACE,
  /** A 6-digit authenticator code, or a passkey assertion for a challenge from webauthn.authenticationOptions. */
  body: z.union([z.object({ code: mfaCode }).strict(), z.object({ webauthn: authenticationResponseSchema }).strict()]),
  response: tokenResponse,
});

export const stepUp = defineCall({
  id: 'auth.stepUp',
  method: 'POST',
  path: '/v1/auth/users/current/step-up',
  auth: fullScopes,
  surfaces: ANY_SURFACE,
  body: z.union([
    z.object({ password: z.string().min(1).max(1024) }).strict(),
    z.object({ mfa_code: mfaCode }).strict(),
    z.object({ webauthn: authenticationResponseSchema }).strict(),
  ]),
  response: stepUpResponse,
});

/**
 * §6 low-risk token: a fully signed-in caller exchanges its token for one carrying only
 * `low-risk`, for a context that needs no more (a background sync of coding, a widget): it may make
 * only the calls listing `low-risk` (lightweight reads, transaction search and patch, metrics, bulk
 * coding, preferences), anything else is 403 AUTH_7016. Same session (sign-out ends it), never
 * outliving the token it came from, never admitted by the recent-token rule.
 */
export const mintLowRiskToken = defineCall({
  id: 'auth.lowRiskToken',
  method: 'POST',
  path: '/v1/auth/users/current/low-risk-token',
  auth: fullScopes,
  body: emptyBody,
  response: stepUpResponse,
});

/** Also from a fresh sign-in still waiting for MFA: its code confirms a first TOTP enrolment. */
export const sendEmailOtp = defineCall({
  id: 'auth.sendEmailOtp',
  method: 'POST',
  path: '/v1/auth/users/current/send-email-otp',
  auth: { ...fullScopes, orRecentToken: true },
  surfaces: ANY_SURFACE,
  body: emptyBody,
  response: z.object({ sent: z.literal(true), expires_at: z.iso.datetime() }),
});

export const verifyEmailOtp = defineCall({
  id: 'auth.verifyEmailOtp',
  method: 'POST',
  path: '/v1/auth/users/current/verify-email-otp',
  auth: fullScopes,
  surfaces: ANY_SURFACE,
  body: z.object({ code: mfaCode }),
  response: stepUpResponse,
});

export const changePassword = defineCall({
  id: 'users.changePassword',
  method: 'POST',
  path: '/v1/auth/users/current/change-password',
  auth: sensitiveOrEmailOtp,
  body: z.object({
    new_password: z.string().min(PASSWORD_MIN_LENGTH, `new_password must be at least ${PASSWORD_MIN_LENGTH} characters`).max(1024),
  }),
  response: okResponse,
});

export const setPhoneNumber = defineCall({
  id: 'users.setPhoneNumber',
  method: 'POST',
  path: '/v1/auth/users/current/set-phone-number',
  auth: sensitive,
  body: z.object({ phone_number: z.string().regex(/^\+[1-9]\d{6,14}$/, 'phone_number must be a valid E.164 number') }),
  response: z.object({ phone_number: z.string() }),
});

export const changeUserEmail = defineCall({
  id: 'users.changeEmail',
  method: 'PATCH',
  path: '/v1/auth/businesses/users/:user_uuid/email',
  auth: sensitive,
  params: z.object({ user_uuid: z.uuid() }),
  body: z.object({ email: z.email().max(320) }),
  response: z.object({ id: z.uuid(), email: z.string() }),
});

const digits = (name: string, min: number, max: number) =>
  z.string().regex(new RegExp(`^\\d{${min},${max}}$`), `${name} must be a valid number`);
const maskedBank = z.object({ account_holder_name: z.string(), routing_number: z.string(), account_number_last4: z.string() });

export const putBankDetails = defineCall({
  id: 'users.putBankDetails',
  method: 'PUT',
  path: '/v1/auth/users/current/bank-details',
  auth: sensitive,
  body: z.object({
    account_holder_name: z.string().trim().min(1).max(200),
    routing_number: digits('routing_number', 9, 9),
    account_number: digits('account_number', 4, 17),
  }),
  response: maskedBank,
});

export const putTaxInfo = defineCall({
  id: 'businesses.putTaxInfo',
  method: 'PUT',
  path: '/v1/auth/businesses/tax-info',
  auth: sensitive,
  body: z.object({ legal_name: z.string().trim().min(1).max(200), tin: z.string().regex(/^\d{2}-?\d{7}$/, 'tin must be a valid TIN') }),
  response: z.object({ legal_name: z.string(), tin_last4: z.string() }),
});

export const identityId = defineCall({
  id: 'identity.id',
  method: 'GET',
  path: '/v1/auth/identity/id',
  auth: 'recent-token',
  surfaces: ANY_SURFACE,
  response: z.object({ identity_id: z.uuid() }),
});

export const fullAuthCheck = defineCall({
  id: 'users.fullAuthCheck',
  method: 'GET',
  path: '/v1/auth/users/current/full-auth-check',
  auth: 'recent-token',
  surfaces: ANY_SURFACE,
  response: z.object({ ok: z.boolean(), mfa_required: z.boolean(), mfa_authed: z.boolean() }),
});

export const signOutAllSessions = defineCall({
  id: 'users.signOutAllSessions',
  method: 'POST',
  path: '/v1/auth/users/current/sign-out-all-sessions',
  auth: fullScopes,
  surfaces: ANY_SURFACE,
  body: emptyBody,
  response: z.object({ revoked: z.number().int().nonnegative() }),
});

export const featureFlags = defineCall({
  id: 'featureFlags.get',
  method: 'GET',
  path: '/v1/auth/feature_flags',
  auth: lowRisk,
  response: featureFlagsResponseSchema,
});

export const startImpersonation = defineCall({
  id: 'impersonation.start',
  method: 'POST',
  path: '/v1/auth/impersonation/start',
  auth: fullScopes,
  body: z.object({ user_id: z.uuid() }),
  response: z.object({ id_token: z.string(), expires_at: z.iso.datetime() }),
});

const TELEMETRY_MAX_EVENTS = 100;
export const TELEMETRY_MAX_BYTES = 64 * 1024;

export const postTelemetry = defineCall({
  id: 'telemetry.events',
  method: 'POST',
  path: '/v1/public/telemetry',
  auth: 'public',
  body: z.object({
    events: z
      .array(
        z.object({
          name: z.string().min(1).max(200),
          path: z.string().max(4096),
          props: z.record(z.string(), z.unknown()).default({}),
          ts: z.iso.datetime({ offset: true }),
        }),
      )
      .min(1)
      .max(TELEMETRY_MAX_EVENTS),
  }),
  response: z.null(),
});

export const postErrorReport = defineCall({
  id: 'telemetry.error',
  method: 'POST',
  path: '/v1/public/errors',
  auth: 'public',
  body: z.object({
    message: z.string().max(4096),
    stack: z.string().max(16_384).optional(),
    url: z.string().max(4096).optional(),
    context: z.record(z.string(), z.unknown()).optional(),
  }),
  response: z.null(),
});

/** A passwordless link token: 32 random bytes, base64url. */
const linkToken = z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'token must be a valid link token');

/** Always 204, whether or not the email has an account (no account oracle). */
export const passwordlessSend = defineCall({
  id: 'auth.passwordlessSend',
  method: 'POST',
  path: '/v1/public/passwordless/send',
  auth: 'public',
  body: z.object({ email: z.email().max(320) }),
  response: z.null(),
});

export const passwordlessSignIn = defineCall({
  id: 'auth.passwordlessSignIn',
  method: 'POST',
  path: '/v1/public/passwordless/sign-in',
  auth: 'public',
  body: z.object({ token: linkToken }),
  response: tokenResponse,
});

/** §6 recent-token rule: a freshly signed-in client confirms a link is its own identity's. */
export const passwordlessValidate = defineCall({
  id: 'auth.passwordlessValidate',
  method: 'POST',
  path: '/v1/auth/authentication/passwordless/validate',
  auth: 'recent-token',
  body: z.object({ token: linkToken }),
  response: z.object({ valid: z.boolean(), email: z.string() }),
});

/** §6 recent-token rule: the signed-in person accepts an invite addressed to their own email. */
export const acceptAndCreateIdentity = defineCall({
  id: 'invites.acceptAndCreateIdentity',
  method: 'POST',
  path: '/v1/auth/invites/:token/accept-and-create-identity',
  auth: 'recent-token',
  params: z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'token must be a valid invite token') }),
  body: z.object({
    password: z.string().min(PASSWORD_MIN_LENGTH, `password must be at least ${PASSWORD_MIN_LENGTH} characters`).max(1024),
  }),
  response: tokenResponse,
});

export const IDENTITY_CALLS = [
  signUp, webConfig, devOutbox, totpStart, totpVerify, totpDelete, sendMfa, checkMfa, verifyMfa, stepUp, mintLowRiskToken,
  sendEmailOtp, verifyEmailOtp, changePassword, setPhoneNumber, changeUserEmail, putBankDetails, putTaxInfo,
  identityId, fullAuthCheck, signOutAllSessions, featureFlags, startImpersonation, postTelemetry, postErrorReport,
  passwordlessSend, passwordlessSignIn, passwordlessValidate, acceptAndCreateIdentity,
] as const;
