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

/**
 * Scopes a token may carry *instead of* `default`: such a token is restricted to the calls that
 * list its scope (§6). Unlike a sign-in token still waiting for MFA (no scope at all), it is never
 * admitted by the recent-token rule, so a fresh `low-risk` token cannot enrol a second factor.
 */
const RESTRICTED_SCOPES = [
  'low-risk', 'missing-items', 'missing-items-restricted', 'chrome-extension',
  'impersonation-workflows-read', 'ramp-community', 'ramp-academy',
] as const satisfies readonly Scope[];

/** A token carrying only restricted scopes (no `default`). */
export const isRestrictedToken = (tokenScopes: readonly string[]) =>
  !tokenScopes.includes('default') && tokenScopes.some((s) => (RESTRICTED_SCOPES as readonly string[]).includes(s));

/**
 * The §6 low-risk token's lifetime: at most this, and never past the token it was minted from.
 * A low-risk token lives on the minting token's session (sign-out ends it too).
 */
export const LOW_RISK_TOKEN_MAX_TTL_SECONDS = 12 * 60 * 60;

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
  if (auth.kind === 'public') return { ok: true };
  const restricted = isRestrictedToken(tokenScopes);
  if (auth.kind === 'recent-token') return restricted ? { ok: false, reason: 'forbidden' } : { ok: true };
  if (auth.scopes.some((s) => tokenScopes.includes(s))) return { ok: true };
  if (
    !restricted &&
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
const SIGN_IN_PROVIDERS = ['password', 'oidc', 'saml', 'google'] as const;
const signInProviderSchema = z.enum(SIGN_IN_PROVIDERS);
export type SignInProvider = z.infer<typeof signInProviderSchema>;

/**
 * The surfaces (§1) and the business-scope identities of §4 a token acts as (issue 31): a spend
 * user in a business (the main app), a firm user in the advisor console, a vendor network admin
 * in the vendor portal, an applicant in a financing application, and a firm applicant. One
 * identity may hold several; each token names one (`ramp_surface`, absent = BUSINESS).
 */
export const SURFACES = ['BUSINESS', 'ADVISOR_CONSOLE', 'VENDOR_PORTAL', 'FINANCING_APPLICATION', 'ADVISOR_CONSOLE_APPLICATION'] as const;
export type Surface = (typeof SURFACES)[number];
/** Every surface: the few calls any signed-in token may make (identity, sign-out, telemetry, the scope switch). */
export const ANY_SURFACE = SURFACES;
/** The four surfaces besides the main app, as a token names them (each with the id it acts for). */
export const OTHER_SURFACE_CLAIMS = [
  z.object({ kind: z.literal('ADVISOR_CONSOLE'), external_firm_id: z.string(), external_firm_user_id: z.string() }),
  z.object({ kind: z.literal('VENDOR_PORTAL'), network_vendor_id: z.string() }),
  z.object({ kind: z.literal('FINANCING_APPLICATION'), financing_application_id: z.string() }),
  z.object({ kind: z.literal('ADVISOR_CONSOLE_APPLICATION'), external_firm_application_id: z.string() }),
] as const;
export const surfaceClaimSchema = z.discriminatedUnion('kind', [z.object({ kind: z.literal('BUSINESS') }), ...OTHER_SURFACE_CLAIMS]);
export type SurfaceClaim = z.infer<typeof surfaceClaimSchema>;
/** A surface other than the main app: its token has no spend user and no business. */
export type OtherSurfaceClaim = Exclude<SurfaceClaim, { kind: 'BUSINESS' }>;
export type SurfaceClaimOf<K extends Surface> = Extract<SurfaceClaim, { kind: K }>;
export const BUSINESS_SURFACE: SurfaceClaim = { kind: 'BUSINESS' };

/** The surface a token acts on (a token minted before issue 31 has none: the main app). */
export const surfaceOf = (claims: { ramp_surface?: SurfaceClaim | undefined }): SurfaceClaim => claims.ramp_surface ?? BUSINESS_SURFACE;

/** The id of the thing a surface token acts for (firm user, network vendor, application), null on BUSINESS. */
export function surfaceSubjectId(surface: SurfaceClaim): string | null {
  switch (surface.kind) {
    case 'BUSINESS': return null;
    case 'ADVISOR_CONSOLE': return surface.external_firm_user_id;
    case 'VENDOR_PORTAL': return surface.network_vendor_id;
    case 'FINANCING_APPLICATION': return surface.financing_application_id;
    case 'ADVISOR_CONSOLE_APPLICATION': return surface.external_firm_application_id;
  }
}

/** The surface gate (SURFACE_7001 on the server): a call answers only tokens of the surfaces it declares. */
export const checkSurface = (callSurfaces: readonly Surface[], claims: { ramp_surface?: SurfaceClaim | undefined }): boolean =>
  callSurfaces.includes(surfaceOf(claims).kind);

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
  /** The surface this token acts on (issue 31); absent = BUSINESS. */
  ramp_surface: surfaceClaimSchema.optional(),
  /**
   * Set on a firm user's tokens, in the console and inside a client business (its hidden spend
   * user): §2's telemetry carries the firm id instead of the user and business ids.
   */
  external_firm_id: z.string().optional(),
  iat: z.number(),
  exp: z.number(),
});
export type TokenClaims = z.infer<typeof tokenClaimsSchema>;
export const ID_TOKEN_HEADER = 'RAMP-ID-TOKEN';
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
