import {
  changePassword as changePasswordCall, checkMfa as checkMfaCall, postErrorReport, postTelemetry, sendEmailOtp,
  stepUp as stepUpCall, totpDelete, totpStart, totpVerify,
} from '../../schema/api/calls-identity.ts';
import {
  deletePasskey, listAuthenticators, renamePasskey, webauthnAuthenticationOptions, webauthnRegistrationOptions,
  webauthnRegistrationVerify,
} from '../../schema/api/calls-webauthn.ts';
import type { IdentityApi } from '../api.ts';
import type { HttpResult } from '../../sync/index.ts';
import { actionFailure, cachedFlags, loadWebConfig, toAction } from '../identity.ts';
import type { WorkerContext } from '../worker-context.ts';
import { retryEntry } from './commands.ts';
import { NO_MFA_PENDING } from './session.ts';

/**
 * Identity: account settings and second factors (direct, online-only calls; their failures are
 * data, a 401 expires the session), web config, feature flags and telemetry. While a sign-in
 * waits for MFA, the TOTP and email-code calls ride on its half-scoped token (first enrolment).
 */
export function identityHandlers(ctx: WorkerContext): IdentityApi {
  return {
    webConfig: () => loadWebConfig(ctx.requireHttp()),
    async stepUp(input) {
      const res = ctx.watch401(await ctx.requireHttp().call(stepUpCall, { body: input }));
      if (!res.ok) return actionFailure(res);
      ctx.stepUps.set(res.data.id_token, Date.parse(res.data.expires_at));
      // Commands the outbox parked for want of the scope go out now, with the stepped-up token.
      const parked = (ctx.host.runtime?.outboxIndex.entries() ?? []).filter((e) => e.state === 'needs_step_up');
      for (const entry of parked) await retryEntry(ctx, entry.id);
      return { ok: true };
    },
    async changePassword(newPassword) {
      return toAction(ctx.watch401(await ctx.requireHttp().call(changePasswordCall, { body: { new_password: newPassword } })));
    },
    async startTotp() {
      const pending = ctx.pendingMfa;
      if (pending) {
        // First enrolment while signing in: the half-scoped token asks; no session to expire.
        const res = await ctx.boundTo(pending.token).call(totpStart, { body: {} });
        return res.ok ? { ok: true, setup: res.data } : { ok: false, error: res.error };
      }
      const res = ctx.watch401(await ctx.requireHttp().call(totpStart, { body: {} }));
      return res.ok ? { ok: true, setup: res.data } : actionFailure(res);
    },
    async verifyTotp(authenticatorId, code, emailCode) {
      const params = { authenticator_id: authenticatorId };
      const email_code = emailCode?.trim() || undefined;
      const body = email_code ? { code: code.trim(), email_code } : { code: code.trim() };
      const pending = ctx.pendingMfa;
      if (pending) {
        // The server's AUTH_7016 here means "confirm the emailed code", not a step-up: shown as is.
        const res = await ctx.boundTo(pending.token).call(totpVerify, { params, body });
        return res.ok ? { ok: true } : { ok: false, error: res.error };
      }
      const res = ctx.watch401(await ctx.requireHttp().call(totpVerify, { params, body }));
      if (res.ok && ctx.stored) {
        ctx.stored = { ...ctx.stored, session: { ...ctx.stored.session, mfa_enabled: true } };
        await ctx.deps.sessionStore.set(ctx.stored);
      }
      return toAction(res);
    },
    async pendingMfaStatus() {
      const pending = ctx.pendingMfa;
      if (!pending) return { ok: false, error: NO_MFA_PENDING };
      const res = await ctx.boundTo(pending.token).call(checkMfaCall, { body: {} });
      return res.ok
        ? { ok: true, totp_enrolled: res.data.totp_enrolled, factors: res.data.factors, email: pending.email }
        : { ok: false, error: res.error };
    },
    async sendEmailCode() {
      const pending = ctx.pendingMfa;
      const res = pending
        ? await ctx.boundTo(pending.token).call(sendEmailOtp, { body: {} })
        : ctx.watch401(await ctx.requireHttp().call(sendEmailOtp, { body: {} }));
      return res.ok ? { ok: true, expires_at: res.data.expires_at } : { ok: false, error: res.error };
    },
    ...passkeyHandlers(ctx),
    flags: () => cachedFlags(ctx.host.runtime),
    async sendTelemetry(events) {
      if (events.length === 0 || !ctx.hub.online) return;
      await ctx.requireHttp().call(postTelemetry, { body: { events } });
    },
    async sendErrorReport(report) {
      if (!ctx.hub.online) return;
      await ctx.requireHttp().call(postErrorReport, { body: report });
    },
  };
}

/**
 * Passkeys (issue 14 part 6). The ceremonies themselves run in the page (navigator.credentials
 * is not available in a worker); the worker only carries options and answers with the right
 * token: the pending sign-in's while one waits for MFA, else the session's (the step-up token
 * for the `sensitive` calls, which the HTTP client picks by itself).
 */
function passkeyHandlers(ctx: WorkerContext): Pick<IdentityApi,
  'listAuthenticators' | 'passkeyRegistrationOptions' | 'registerPasskey' | 'renamePasskey' | 'deletePasskey' | 'deleteTotp'
  | 'passkeyAuthenticationOptions'> {
  // Evaluated per call: a sign-in may start or finish while Settings stays open.
  const http = () => (ctx.pendingMfa ? ctx.boundTo(ctx.pendingMfa.token) : ctx.requireHttp());
  /** A pending sign-in's failures are shown as they are (it has no session to expire). */
  const failure = <R extends Exclude<HttpResult<unknown>, { ok: true }>>(res: R) =>
    ctx.pendingMfa ? { ok: false as const, error: res.error } : actionFailure(ctx.watch401(res) as R);
  const markMfaEnabled = async () => {
    if (!ctx.stored || ctx.pendingMfa) return;
    ctx.stored = { ...ctx.stored, session: { ...ctx.stored.session, mfa_enabled: true } };
    await ctx.deps.sessionStore.set(ctx.stored);
  };
  return {
    async listAuthenticators() {
      const res = await ctx.requireHttp().call(listAuthenticators, {});
      return res.ok ? { ok: true, authenticators: res.data.authenticators } : failure(res);
    },
    async passkeyRegistrationOptions() {
      const res = await http().call(webauthnRegistrationOptions, { body: {} });
      return res.ok ? { ok: true, options: res.data.options } : failure(res);
    },
    async registerPasskey(response, name, emailCode) {
      const email_code = emailCode?.trim() || undefined;
      const res = await http().call(webauthnRegistrationVerify, { body: { response, name, ...(email_code && { email_code }) } });
      if (!res.ok) return failure(res);
      await markMfaEnabled();
      return { ok: true, authenticator: res.data };
    },
    async renamePasskey(id, name) {
      return toAction(ctx.watch401(await ctx.requireHttp().call(renamePasskey, { params: { authenticator_id: id }, body: { name } })));
    },
    async deletePasskey(id) {
      return toAction(ctx.watch401(await ctx.requireHttp().call(deletePasskey, { params: { authenticator_id: id } })));
    },
    async deleteTotp(id) {
      return toAction(ctx.watch401(await ctx.requireHttp().call(totpDelete, { params: { authenticator_id: id } })));
    },
    async passkeyAuthenticationOptions() {
      const res = await http().call(webauthnAuthenticationOptions, { body: {} });
      return res.ok ? { ok: true, options: res.data.options } : failure(res);
    },
  };
}
