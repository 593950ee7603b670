import { z } from 'zod';

/** Token scopes (§6). A fully authenticated sign-in token carries `default`. */
export const SCOPES = [
  'default',
  'email-otp',
  'sensitive',
  'low-risk',
  'missing-items',
  'missing-items-restricted',
  'chrome-extension',
  'impersonation-workflows-read',
  'ramp-community',
  'ramp-academy',
] as const;
export const scopeSchema = z.enum(SCOPES);
export type Scope = z.infer<typeof scopeSchema>;

/** Scopes a step-up grants, and so the ones a missing scope can be earned through. */
export const STEP_UP_SCOPES = ['sensitive', 'email-otp'] as const satisfies readonly Scope[];
export type StepUpScope = (typeof STEP_UP_SCOPES)[number];

/**
 * How a call is authorised: a scope list, a recent token (§6), or nothing at all. A scope list
 * with `recentTokenMaxAgeSeconds` also admits any token issued that recently whatever its scopes
 * (a sign-in still waiting for MFA: it has none), for the few calls that half-signed-in step needs.
 */
export type CallAuth =
  | { kind: 'scopes'; scopes: readonly Scope[]; recentTokenMaxAgeSeconds?: number }
  | { kind: 'recent-token'; maxAgeSeconds: number }
  | { kind: 'public' };

export const RECENT_TOKEN_MAX_AGE_SECONDS = 5 * 60;

export type ScopeDecision =
  | { ok: true }
  | { ok: false; reason: 'step-up'; scope: StepUpScope }
  | { ok: false; reason: 'forbidden' };

/**
 * The scope gate, shared by the server (answering AUTH_7016) and the client (parking commands).
 * `tokenAgeSeconds` (now − iat) lets a scope list with `recentTokenMaxAgeSeconds` admit a recent
 * token without the scopes; the `recent-token` kind's own age rule is checked by the server.
 */
export function checkScopes(
  auth: CallAuth,
  tokenScopes: readonly string[],
  tokenAgeSeconds?: number,
): ScopeDecision {
  if (auth.kind !== 'scopes') return { ok: true };
  if (auth.scopes.some((s) => tokenScopes.includes(s))) return { ok: true };
  if (
    auth.recentTokenMaxAgeSeconds !== undefined &&
    tokenAgeSeconds !== undefined &&
    tokenAgeSeconds <= auth.recentTokenMaxAgeSeconds
  ) {
    return { ok: true };
  }
  const stepUp = STEP_UP_SCOPES.find((s) => auth.scopes.includes(s));
  return stepUp ? { ok: false, reason: 'step-up', scope: stepUp } : { ok: false, reason: 'forbidden' };
}

/** How the session was opened: a password (or a passwordless link, an invite), single sign-on, or Google. */
export const SIGN_IN_PROVIDERS = ['password', 'oidc', 'saml', 'google'] as const;
export const signInProviderSchema = z.enum(SIGN_IN_PROVIDERS);
export type SignInProvider = z.infer<typeof signInProviderSchema>;

/** The id-token claims (§3). */
export const tokenClaimsSchema = z.object({
  sub: z.string(),
  ramp_user_uuid: z.string().nullable(),
  ramp_access_scopes: z.array(z.string()),
  ramp_mfa_required: z.boolean(),
  ramp_mfa_authed: z.boolean(),
  ramp_session_id: z.string(),
  sign_in_provider: signInProviderSchema,
  business_id: z.string().nullable(),
  impersonator: z.object({ email: z.string() }).optional(),
  iat: z.number(),
  exp: z.number(),
});
export type TokenClaims = z.infer<typeof tokenClaimsSchema>;
export const ID_TOKEN_HEADER = 'RAMP-ID-TOKEN';
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
