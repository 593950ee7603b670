import { z } from 'zod';
import { currentIdentity, signIn as signInCall, signOut as signOutCall } from '../../schema/api/calls.ts';
import { acceptInvite as acceptInviteCall } from '../../schema/api/calls-admin.ts';
import { passwordlessSignIn as passwordlessSignInCall, signOutAllSessions as signOutAllCall, signUp as signUpCall, verifyMfa as verifyMfaCall } from '../../schema/api/calls-identity.ts';
import { switchBusiness as switchBusinessCall } from '../../schema/api/calls-business.ts';
import { switchScope as switchScopeCall } from '../../schema/api/calls-surfaces.ts';
import type { ScopeTarget } from '../../schema/entities/scope-choice.ts';
import type { OtherSurfaceClaim } from '../../schema/api/scopes.ts';
import { ssoComplete as ssoCompleteCall } from '../../schema/api/calls-sso.ts';
import { errorBody } from '../../schema/errors.ts';
import { tokenWaitMs, type Platform } from '../../schema/platform.ts';
import { decodeTokenClaims, isFullyScoped, tokenScopes, waitForFullToken, type ApiError, type HttpResult } from '../../sync/index.ts';
import type { BusinessSessionInfo, SessionApi, SessionInfo, SignInResult, SwitchBusinessResult } from '../api.ts';
import { businessChoices } from '../business-choices.ts';
import { isBusinessSession } from '../contracts/session.ts';
import { mirrorDbName } from '../db.ts';
import { actionFailure } from '../identity.ts';
import { sessionTarget, targetKey } from '../scope-choices.ts';
import { tokenFirmId, tokenIdentity, tokenSurface } from '../token-surface.ts';
import { isStoredBusiness, type StoredBusinessSession } from '../session-store.ts';
import type { WorkerContext } from '../worker-context.ts';
import { completeSurfaceSignIn, readChoices, scopeChoices } from './surface-session.ts';

const SIGN_OUT_TIMEOUT_MS = 3_000;
const BUSINESS_ID = z.uuid();
const MFA_NEEDED = { message: 'Enter the code from your authenticator app.', error_code: 'MFA_REQUIRED' };
export const NO_MFA_PENDING = { message: 'Sign in with your password first.', error_code: 'MFA_NOT_STARTED' };

/**
 * Session: sign-in (password, second factor, re-authentication in place), business switch and
 * sign-out. A completed sign-in stores the session durably and opens that business and user's
 * own mirror; the half-scoped token of a sign-in waiting for MFA stays in memory only.
 */
export function sessionHandlers(ctx: WorkerContext): SessionApi {
  let initOnce: Promise<SessionInfo | null> | null = null;
  const afterPassword = (token: string, mfaRequired: boolean, email: string | null) =>
    afterPasswordSignIn(ctx, token, mfaRequired, undefined, email);

  return {
    init(opts) {
      // React may call init twice (StrictMode); both calls share one start.
      initOnce ??= start(ctx, opts.baseUrl, opts.platform ?? 'web');
      return initOnce;
    },
    signIn: (email, password, businessId) => passwordSignIn(ctx, email, password, undefined, businessId ?? undefined),
    switchBusiness: (businessId) => switchBusiness(ctx, businessId),
    switchScope: (target) => switchScope(ctx, target),
    scopeChoices: () => scopeChoices(ctx),
    async signUp(input) {
      const res = await ctx.requireHttp().call(signUpCall, { body: input });
      if (!res.ok) return { ok: false, error: res.error };
      return afterPassword(res.data.id_token, res.data.mfa_required, input.email);
    },
    async ssoComplete(code) {
      // The identity provider vouched for the person: the code is traded for the same token a
      // password answers, so what follows (MFA step, stored session, mirror) is the password path's.
      const res = await ctx.requireHttp().call(ssoCompleteCall, { body: { code } });
      if (!res.ok) return { ok: false, error: res.error, redirect: null };
      const done = await afterPassword(res.data.id_token, res.data.mfa_required, null);
      return { ...done, redirect: res.data.redirect };
    },
    async verifyMfa(proof) {
      const pending = ctx.pendingMfa;
      if (!pending) return { ok: false, error: NO_MFA_PENDING };
      const body = typeof proof === 'string' ? { code: proof.trim() } : proof;
      const res = await ctx.boundTo(pending.token).call(verifyMfaCall, { body });
      if (!res.ok) return { ok: false, error: res.error, mfa_required: true };
      ctx.pendingMfa = null;
      return completeSignIn(ctx, res.data.id_token, true, pending.expectUserId, pending.email);
    },
    async reauthenticate(password) {
      const stored = ctx.stored;
      if (!stored) return { ok: false, error: errorBody('AUTH_7002').error_v2 };
      if (isBusinessSession(stored.session)) {
        return passwordSignIn(ctx, stored.session.user.email, password, stored.session.user.id, stored.session.business.id);
      }
      return reauthenticateSurface(ctx, stored.session.surface, stored.session.identity_id, stored.session.email, password);
    },
    async signOutAllSessions() {
      const res = ctx.watch401(await ctx.requireHttp().call(signOutAllCall, { body: {} }));
      if (!res.ok) return actionFailure(res);
      // Every session is revoked, this one too: only the local part of sign-out is left.
      await forgetLocally(ctx);
      return { ok: true };
    },
    async signOut() {
      const token = ctx.sessionPort.getToken();
      if (token && ctx.hub.online) {
        // Best effort: the device forgets the token either way.
        await ctx.requireHttp()
          .call(signOutCall, { body: {}, signal: AbortSignal.timeout(SIGN_OUT_TIMEOUT_MS) })
          .catch(() => undefined);
      }
      await forgetLocally(ctx);
    },
    session: async () => ctx.stored?.session ?? null,
    // Both answer a password sign-in's token (same MFA decision): the same path as signIn.
    async acceptInvite(token, password) {
      const res = await ctx.requireHttp().call(acceptInviteCall, { params: { token }, body: { password } });
      if (!res.ok) return { ok: false, error: res.error };
      return afterPassword(res.data.id_token, res.data.mfa_required, null);
    },
    async signInWithLink(token) {
      const res = await ctx.requireHttp().call(passwordlessSignInCall, { body: { token } });
      if (!res.ok) return { ok: false, error: res.error };
      return afterPassword(res.data.id_token, res.data.mfa_required, null);
    },
  };
}

/** `init`: the stored session, if any, and its mirror opened. */
async function start(ctx: WorkerContext, baseUrl: string, platform: Platform): Promise<SessionInfo | null> {
  ctx.baseUrl = baseUrl;
  ctx.platform = platform;
  ctx.http = ctx.httpWith(ctx.sessionPort);
  ctx.deviceId = await ctx.deps.sessionStore.deviceId();
  ctx.stored = await ctx.deps.sessionStore.get();
  if (!ctx.stored) {
    ctx.hub.setPhase('signed_out');
    return null;
  }
  if (!isStoredBusiness(ctx.stored)) {
    // Issue 31: another surface's session opens no mirror.
    ctx.hub.setPhase(ctx.stored.expired ? 'signed_out' : 'idle');
    if (!ctx.stored.expired) void scopeChoices(ctx).catch(() => undefined);
    return ctx.stored.session;
  }
  await ctx.host.open(ctx.stored);
  void ctx.refreshIdentity();
  return ctx.stored.session;
}

async function passwordSignIn(
  ctx: WorkerContext, email: string, password: string, expectUserId: string | undefined, businessId: string | undefined,
): Promise<SignInResult> {
  // The tab's business comes from a link: anything that is not an id is not sent (nor refused).
  const body = businessId && BUSINESS_ID.safeParse(businessId).success
    ? { email, password, business_id: businessId }
    : { email, password };
  const res = await ctx.requireHttp().call(signInCall, { body });
  if (!res.ok) return { ok: false, error: res.error };
  return afterPasswordSignIn(ctx, res.data.id_token, res.data.mfa_required, expectUserId, email);
}

/** The password was right: either the token is already full, or the second factor comes next. */
export function afterPasswordSignIn(
  ctx: WorkerContext, token: string, mfaRequired: boolean, expectUserId: string | undefined, email: string | null,
): Promise<SignInResult> {
  if (mfaRequired && !isFullyScoped(token)) {
    ctx.pendingMfa = { token, expectUserId, email };
    return Promise.resolve({ ok: false, error: MFA_NEEDED, mfa_required: true });
  }
  // An abandoned MFA step must not keep steering startTotp/verifyTotp to its old token.
  ctx.pendingMfa = null;
  return completeSignIn(ctx, token, mfaRequired, expectUserId, email);
}

async function completeSignIn(
  ctx: WorkerContext, candidate: string, mfaEnabled: boolean, expectUserId: string | undefined, email: string | null,
): Promise<SignInResult> {
  let token: string;
  try {
    // §4: wait (1 s mobile / 10 s web) for a fully scoped token before acting as signed in.
    token = await waitForFullToken({ clock: ctx.deps.clock, getToken: () => candidate, waitMs: tokenWaitMs(ctx.platform) });
  } catch {
    return { ok: false, error: errorBody('AUTH_7002').error_v2 };
  }
  // Issue 31: the token names its surface; only the main app's has a spend user and a mirror.
  const surface = tokenSurface(token);
  if (surface.kind !== 'BUSINESS') return completeSurfaceSignIn(ctx, token, surface, mfaEnabled, email);
  // Issue 33: the mirror the token names opens (and a fresh one's first feed page is asked) while
  // identity is asked; it becomes the session's only below, once identity agrees and the session is stored.
  const named = tokenMirror(token);
  if (named && !ctx.host.runtime) ctx.host.prepare(named.name, named.actor, ctx.boundTo(token));
  const failed = (error: ApiError): SignInResult => {
    ctx.host.unprepare();
    return { ok: false, error };
  };
  // The new token is not stored yet: ask who it belongs to with a client bound to it.
  // …and, beside it, the identity's scopes (the picker, the "Acting for" bar's firm name; null until served).
  const [who, choices] = await Promise.all([ctx.boundTo(token).call(currentIdentity), readChoices(ctx.boundTo(token))]);
  if (!who.ok) return failed(who.error);
  // A token of another surface (issue 31) has no user or business: the main app cannot open it.
  const { user, business } = who.data;
  if (!user || !business) return failed(errorBody('SURFACE_7001').error_v2);
  if (expectUserId && user.id !== expectUserId) {
    return failed({ message: 'Sign in again with the same account to keep your unsynced changes.', error_code: 'AUTH_7003' });
  }
  const claims = decodeTokenClaims(token);
  const session: BusinessSessionInfo = {
    surface: { kind: 'BUSINESS' },
    user,
    business,
    scopes: tokenScopes(token),
    mfa_enabled: mfaEnabled || claims?.ramp_mfa_required === true,
    businesses: businessChoices(who.data.identity.spend_users, who.data.businesses),
    external_firm_id: tokenFirmId(token),
    ...(choices && { choices }),
  };
  const dbName = mirrorDbName(session.business.id, session.user.id);
  if (ctx.stored?.db_name !== dbName) await ctx.host.close(false);
  const stored: StoredBusinessSession = { token, session, db_name: dbName, expired: false, saved_at: ctx.deps.clock.now() };
  ctx.stored = stored;
  await ctx.deps.sessionStore.set(stored);
  if (!ctx.host.runtime) await ctx.host.open(stored);
  else ctx.host.engine?.start(); // same user again: resume what the 401 paused
  ctx.hub.setPhase(ctx.host.engine ? ctx.host.engine.status().phase : 'idle');
  ctx.stepUps.clear();
  void ctx.refreshFlagsNow();
  return { ok: true, session, mfa_required: mfaEnabled };
}

/** Another of the person's businesses: a new token, and that business's own mirror. */
async function switchBusiness(ctx: WorkerContext, businessId: string): Promise<SwitchBusinessResult> {
  const stored = ctx.stored;
  if (!stored || stored.expired) return { ok: false, error: errorBody('AUTH_7002').error_v2 };
  // From another surface, the scope switch brings the identity back to a business (issue 31).
  if (!isBusinessSession(stored.session)) return switchScope(ctx, { kind: 'BUSINESS', business_id: businessId });
  if (stored.session.business.id === businessId) return { ok: true, session: stored.session, left_behind: null };
  const send = () => ctx.requireHttp().call(switchBusinessCall, { body: { business_id: businessId } });
  return switchWith(ctx, stored.session, send);
}

/**
 * Issue 31: another of the identity's scopes (a business, the advisor console, a vendor portal,
 * an application): a new token on the same session, then completed as a sign-in is (a business
 * opens its own mirror; another surface closes the open one, kept on disk with its outbox).
 */
async function switchScope(ctx: WorkerContext, target: ScopeTarget): Promise<SwitchBusinessResult> {
  const stored = ctx.stored;
  if (!stored || stored.expired) return { ok: false, error: errorBody('AUTH_7002').error_v2 };
  if (targetKey(sessionTarget(stored.session)) === targetKey(target)) return { ok: true, session: stored.session, left_behind: null };
  const send = () => ctx.requireHttp().call(switchScopeCall, { body: { scope: target } });
  return switchWith(ctx, stored.session, send);
}

/** A switch's new token completed as a sign-in; `left_behind` counts a business's edits still in its outbox. */
async function switchWith(
  ctx: WorkerContext, from: SessionInfo, send: () => Promise<HttpResult<{ id_token: string; mfa_required: boolean }>>,
): Promise<SwitchBusinessResult> {
  // Counted before the switch closes this mirror: its outbox stays on disk for next time.
  const unsent = ctx.host.runtime?.outboxIndex.entries().length ?? 0;
  const res = ctx.watch401(await send());
  if (!res.ok) return { ok: false, error: res.error };
  const done = await afterPasswordSignIn(ctx, res.data.id_token, res.data.mfa_required, undefined, emailOf(from));
  if (!done.ok) return done;
  const left_behind = unsent > 0 && isBusinessSession(from) ? { business_name: from.business.name, changes: unsent } : null;
  return { ok: true, session: done.session, left_behind };
}

/** The mirror a business token names (its business and spend user, read unverified: identity confirms them), or null. */
function tokenMirror(token: string): { name: string; actor: { user_id: string; business_id: string } } | null {
  const claims = decodeTokenClaims(token);
  const businessId = claims?.business_id;
  const userId = claims?.ramp_user_uuid;
  if (typeof businessId !== 'string' || typeof userId !== 'string' || !businessId || !userId) return null;
  return { name: mirrorDbName(businessId, userId), actor: { user_id: userId, business_id: businessId } };
}

const emailOf = (session: SessionInfo): string | null => (isBusinessSession(session) ? session.user.email : session.email);

/**
 * A surface session refused (401): the same identity signs in again, then the session returns to
 * the scope it was on (the password's sign-in lands on the identity's default scope). Nothing is
 * kept on the device for a surface, so a failure here loses nothing.
 */
async function reauthenticateSurface(
  ctx: WorkerContext, surface: OtherSurfaceClaim, identityId: string, email: string | null, password: string,
): Promise<SignInResult> {
  if (!email) return { ok: false, error: errorBody('AUTH_7002').error_v2 };
  const res = await ctx.requireHttp().call(signInCall, { body: { email, password } });
  if (!res.ok) return { ok: false, error: res.error };
  if (tokenIdentity(res.data.id_token) !== identityId) {
    return { ok: false, error: { message: 'Sign in again with the same account.', error_code: 'AUTH_7003' } };
  }
  const signedIn = await afterPasswordSignIn(ctx, res.data.id_token, res.data.mfa_required, undefined, email);
  if (!signedIn.ok) return signedIn;
  const back = await switchScope(ctx, surface);
  return back.ok ? { ok: true, session: back.session, mfa_required: signedIn.mfa_required } : back;
}

async function forgetLocally(ctx: WorkerContext): Promise<void> {
  ctx.pendingMfa = null;
  ctx.stepUps.clear();
  ctx.host.unprepare();
  // Unsent edits keep the mirror on the device until that user signs in again and they are
  // delivered; a mirror with nothing pending is deleted, so no spend data stays behind.
  await ctx.host.close(true);
  await ctx.deps.sessionStore.clear();
  ctx.stored = null;
  ctx.hub.setPhase('signed_out');
}
