import { randomUUID } from 'node:crypto';
import type { OtherSurfaceClaim, Scope, SignInProvider } from '../../schema/api/scopes.ts';
import type { Queryable } from '../db/db.ts';
import { isSurfaceActor, type Caller } from '../core/actor.ts';
import type { AppDeps } from '../core/deps.ts';
import { signIdToken } from './tokens.ts';
import { enrolledFactors } from './webauthn-store.ts';

/** Step-up tokens (sensitive, email-otp) live 10 minutes; the client keeps its normal token too. */
export const STEP_UP_TTL_SECONDS = 10 * 60;
/** Impersonation tokens live one hour. */
export const IMPERSONATION_TTL_SECONDS = 60 * 60;

export type TokenSubject = {
  identityId: string;
  userId: string;
  businessId: string;
  sessionId: string;
  /** A firm user's token inside a client business (its hidden spend user): the firm, for §2 telemetry. */
  externalFirmId?: string;
};
/** A token of another surface than the main app (issue 31): no spend user, no business. */
export type SurfaceTokenSubject = {
  identityId: string;
  sessionId: string;
  surface: OtherSurfaceClaim;
};
export type TokenGrant = {
  scopes: Scope[];
  mfaRequired: boolean;
  mfaAuthed: boolean;
  ttlSeconds?: number;
  impersonator?: { email: string };
  /** How the session was opened (default 'password'); tokens re-issued on a session keep it. */
  signInProvider?: SignInProvider;
};

/**
 * Opens a session. `impersonation`: support acting as the identity, under the business's support
 * access grant; authentication checks that grant on every request of the session's tokens.
 */
export async function openSession(
  db: Queryable,
  identityId: string,
  impersonation: { impersonatorIdentityId: string; grantId: string } | null = null,
): Promise<string> {
  const sessionId = randomUUID();
  await db.query('INSERT INTO sessions (id, identity_id, impersonator_identity_id, support_grant_id) VALUES ($1, $2, $3, $4)', [
    sessionId, identityId, impersonation?.impersonatorIdentityId ?? null, impersonation?.grantId ?? null,
  ]);
  return sessionId;
}

/** Ends a session: every token of it is refused from now on (AUTH_7003). */
export async function revokeSession(db: Queryable, sessionId: string): Promise<void> {
  await db.query('UPDATE sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [sessionId]);
}

/** A sign-in token still waiting for its second factor (no scopes until verify-mfa). */
export const mfaPending = (claims: { ramp_mfa_required: boolean; ramp_mfa_authed: boolean }) =>
  claims.ramp_mfa_required && !claims.ramp_mfa_authed;

/** Signs a token for a session; every token of a session dies with it (sign-out). */
export async function issueToken(
  deps: AppDeps,
  subject: TokenSubject | SurfaceTokenSubject,
  grant: TokenGrant,
): Promise<{ token: string; expiresAt: Date }> {
  const nowSeconds = Math.floor(deps.now() / 1000);
  const surface = 'surface' in subject ? subject.surface : null;
  const firmId = surface?.kind === 'ADVISOR_CONSOLE' ? surface.external_firm_id : 'surface' in subject ? undefined : subject.externalFirmId;
  const token = await signIdToken(
    await deps.tokenKey(),
    {
      sub: subject.identityId,
      ramp_user_uuid: 'surface' in subject ? null : subject.userId,
      ramp_access_scopes: grant.scopes,
      ramp_mfa_required: grant.mfaRequired,
      ramp_mfa_authed: grant.mfaAuthed,
      ramp_session_id: subject.sessionId,
      sign_in_provider: grant.signInProvider ?? 'password',
      business_id: 'surface' in subject ? null : subject.businessId,
      ...(grant.impersonator && { impersonator: grant.impersonator }),
      ...(surface && { ramp_surface: surface }),
      ...(firmId && { external_firm_id: firmId }),
    },
    nowSeconds,
    grant.ttlSeconds,
  );
  const ttl = grant.ttlSeconds ?? 12 * 60 * 60;
  return { token, expiresAt: new Date((nowSeconds + ttl) * 1000) };
}

/**
 * MFA is required when the identity or the business asks for it, or when the identity has
 * enrolled an authenticator app or a passkey (an enrolled factor is always used).
 */
export async function mfaRequiredFor(db: Queryable, identityId: string, businessId: string): Promise<boolean> {
  const [row] = await db.query<{ required: boolean }>(
    `SELECT (i.mfa_required OR coalesce(b.mfa_required, false)) AS required
       FROM identities i LEFT JOIN businesses b ON b.id = $2 WHERE i.id = $1`,
    [identityId, businessId],
  );
  return Boolean(row?.required) || (await enrolledFactors(db, identityId)).length > 0;
}

/**
 * The token a password sign-in gets: fully scoped, or, while MFA is pending, no scope at all
 * (every normal call answers AUTH_7016) until verify-mfa exchanges it.
 */
export function signInGrant(mfaRequired: boolean, signInProvider: SignInProvider = 'password'): TokenGrant {
  return { scopes: mfaRequired ? [] : ['default'], mfaRequired, mfaAuthed: false, signInProvider };
}

/**
 * The one answer of every password sign-in (the sign-in route, invite acceptance) and of single
 * sign-on (`signInProvider` 'oidc' | 'saml' | 'google'): the MFA decision for this identity in
 * this business and the token it allows, on `sessionId` or a new session. With MFA required the
 * token is the half-scoped one verify-mfa later exchanges.
 */
export async function passwordSignIn(
  deps: AppDeps,
  db: Queryable,
  who: Omit<TokenSubject, 'sessionId'>,
  sessionId?: string,
  signInProvider: SignInProvider = 'password',
): Promise<{ id_token: string; mfa_required: boolean }> {
  const mfaRequired = await mfaRequiredFor(db, who.identityId, who.businessId);
  const session = sessionId ?? (await openSession(db, who.identityId));
  const { token } = await issueToken(deps, { ...who, sessionId: session }, signInGrant(mfaRequired, signInProvider));
  return { id_token: token, mfa_required: mfaRequired };
}

/**
 * The sign-in of another surface than the main app (issue 31: a firm user, a vendor network admin,
 * an applicant, a firm applicant): MFA as the identity asks (its own flag or an enrolled factor;
 * there is no business whose policy applies), and the token for `surface` on `sessionId` or a new
 * session. `extraScopes` are granted with `default` once MFA is done (the application surface's
 * `email-otp`, proven by the mailed code that signed it in) and `ttlSeconds` bounds the token.
 */
export async function surfaceSignIn(
  deps: AppDeps,
  db: Queryable,
  identityId: string,
  surface: OtherSurfaceClaim,
  opts: { sessionId?: string; extraScopes?: Scope[]; ttlSeconds?: number; signInProvider?: SignInProvider } = {},
): Promise<{ id_token: string; mfa_required: boolean }> {
  const mfaRequired = await identityMfaRequired(db, identityId);
  const sessionId = opts.sessionId ?? (await openSession(db, identityId));
  const grant = signInGrant(mfaRequired, opts.signInProvider);
  if (!mfaRequired && opts.extraScopes) grant.scopes.push(...opts.extraScopes);
  const { token } = await issueToken(deps, { identityId, sessionId, surface }, { ...grant, ...(opts.ttlSeconds && { ttlSeconds: opts.ttlSeconds }) });
  return { id_token: token, mfa_required: mfaRequired };
}

/** MFA as the identity alone asks (its own flag or an enrolled factor): a surface with no business (issue 31). */
export async function identityMfaRequired(db: Queryable, identityId: string): Promise<boolean> {
  const [row] = await db.query<{ required: boolean }>('SELECT mfa_required AS required FROM identities WHERE id = $1', [identityId]);
  return Boolean(row?.required) || (await enrolledFactors(db, identityId)).length > 0;
}

/** Who a caller's tokens are for, to re-issue one on the same session: a business spend user or a surface (issue 31). */
export function subjectOfCaller(caller: Caller): TokenSubject | SurfaceTokenSubject {
  if (isSurfaceActor(caller)) return { identityId: caller.identityId, sessionId: caller.sessionId, surface: caller.surface };
  return {
    identityId: caller.identityId, userId: caller.user.id, businessId: caller.businessId, sessionId: caller.sessionId,
    ...(caller.claims.external_firm_id !== undefined && { externalFirmId: caller.claims.external_firm_id }),
  };
}

/**
 * Whether a caller needs MFA where it acts: the business's rule for a spend user, the identity's
 * own for a surface token.
 */
export const callerMfaRequired = (db: Queryable, caller: Caller): Promise<boolean> =>
  isSurfaceActor(caller) ? identityMfaRequired(db, caller.identityId) : mfaRequiredFor(db, caller.identityId, caller.businessId);

/**
 * The fully scoped token once the second factor is proven, for the surface the caller signed in to
 * (same session). The application surface keeps its `email-otp` (the mailed code that signed it in)
 * and its 12 h life (issue 31, lead's decision 2).
 */
export function afterMfaGrant(caller: Caller): TokenGrant {
  const scopes: Scope[] = ['default'];
  if (isSurfaceActor(caller) && caller.surface.kind === 'FINANCING_APPLICATION') scopes.push('email-otp');
  return { scopes, mfaRequired: caller.claims.ramp_mfa_required, mfaAuthed: true, signInProvider: caller.claims.sign_in_provider };
}
