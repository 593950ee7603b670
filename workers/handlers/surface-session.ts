import { listScopes } from '../../schema/api/calls-surfaces.ts';
import type { OtherSurfaceClaim } from '../../schema/api/scopes.ts';
import type { ScopeChoice } from '../../schema/entities/scope-choice.ts';
import { decodeTokenClaims, tokenScopes, type HttpClient } from '../../sync/index.ts';
import type { ScopeChoicesResult, SignInResult, SurfaceSessionInfo } from '../contracts/session.ts';
import { offlineChoices, scopeLabel } from '../scope-choices.ts';
import { tokenIdentity } from '../token-surface.ts';
import type { WorkerContext } from '../worker-context.ts';

/**
 * Issue 31: a session on a surface other than the main app (advisor console, vendor portal,
 * financing application, firm application). No spend user and no business: the session is the
 * token's claims plus the identity's scope list (its name there), and no mirror opens. A business
 * mirror open before (a switch from the main app) is closed and kept on disk with its outbox,
 * whose edits go out the next time that business is active.
 */
export async function completeSurfaceSignIn(
  ctx: WorkerContext,
  token: string,
  surface: OtherSurfaceClaim,
  mfaEnabled: boolean,
  email: string | null,
): Promise<SignInResult> {
  const claims = decodeTokenClaims(token);
  const choices = await readChoices(ctx.boundTo(token));
  const session: SurfaceSessionInfo = {
    surface,
    identity_id: tokenIdentity(token),
    email,
    label: scopeLabel(surface, choices),
    scopes: tokenScopes(token),
    mfa_enabled: mfaEnabled || claims?.ramp_mfa_required === true,
    ...(choices && { choices }),
  };
  await ctx.host.close(false);
  ctx.stored = { token, session, db_name: null, expired: false, saved_at: ctx.deps.clock.now() };
  await ctx.deps.sessionStore.set(ctx.stored);
  ctx.hub.setPhase('idle');
  ctx.stepUps.clear();
  return { ok: true, session, mfa_required: mfaEnabled };
}

/** identity.scopes.list with a given client; null when it cannot be read (offline, refused, not served yet). */
export async function readChoices(http: HttpClient): Promise<ScopeChoice[] | null> {
  const res = await http.call(listScopes).catch(() => null);
  return res?.ok ? res.data.scopes : null;
}

/**
 * The picker's list: read online and kept with the session (a surface session's label follows
 * the server's name), else what the session kept (`offline: true`).
 */
export async function scopeChoices(ctx: WorkerContext): Promise<ScopeChoicesResult> {
  const stored = ctx.stored;
  if (!stored) return { ok: false, error: { message: 'Sign in first.', error_code: 'AUTH_7002' } };
  const read = !stored.expired && ctx.hub.online ? await readChoices(ctx.requireHttp()) : null;
  if (!read) return { ok: true, choices: offlineChoices(stored.session), offline: true };
  if (ctx.stored === stored) {
    const session = 'business' in stored.session
      ? { ...stored.session, choices: read }
      : { ...stored.session, choices: read, label: scopeLabel(stored.session.surface, read) };
    ctx.stored = { ...stored, session };
    await ctx.deps.sessionStore.set(ctx.stored);
  }
  return { ok: true, choices: read, offline: false };
}
