import {
  createOidcProvider, createSamlProvider, deleteOidcProvider, deleteSamlProvider, googleStart, listSsoProviders, ssoStart,
  updateSsoProvider, verifySsoDomain,
} from '../../schema/api/calls-sso.ts';
import type { CallDef, CallResponse } from '../../schema/api/define-call.ts';
import type { CallOptions } from '../../sync/index.ts';
import type { SsoApi, SsoFailure } from '../api.ts';
import { actionFailure } from '../identity.ts';
import type { WorkerContext } from '../worker-context.ts';

/** Refused before any request: identity providers are configured on the server only (nothing mirrored, nothing queued). */
export const SSO_OFFLINE: SsoFailure = {
  ok: false,
  offline: true,
  error: {
    error_code: 'OFFLINE',
    message: 'You’re offline. Single sign-on is set up on the server and needs a connection: nothing was sent.',
  },
};

/**
 * Single sign-on (issue 14; schema/api/calls-sso.ts), straight through the session's HTTP client
 * like handlers/accounting.ts: online only, a failure is data, a 401 expires the session. The
 * admin calls ride on the session; the sign-in starts are public (no session yet), so they go
 * through the same client, which sends no token when there is none.
 */
export function ssoHandlers(ctx: WorkerContext): SsoApi {
  async function send<C extends CallDef>(def: C, opts: CallOptions<C>): Promise<{ ok: true; data: CallResponse<C> } | SsoFailure> {
    if (!ctx.hub.online) return SSO_OFFLINE;
    const res = ctx.watch401(await ctx.requireHttp().call(def, opts));
    if (res.ok) return { ok: true, data: res.data };
    // Never reached the server: nothing changed there, as offline.
    if ((res.kind === 'network' || res.kind === 'timeout') && !res.maybeSent) return SSO_OFFLINE;
    return actionFailure(res);
  }
  const provider = (id: string) => ({ provider_uuid: id });

  return {
    async ssoProviders() {
      const r = await send(listSsoProviders, {});
      return r.ok ? { ok: true, providers: r.data.data } : r;
    },
    async createSsoProvider(input) {
      const r = input.protocol === 'saml'
        ? await send(createSamlProvider, { body: input.body })
        : await send(createOidcProvider, { body: input.body });
      return r.ok ? { ok: true, provider: r.data } : r;
    },
    async updateSsoProvider(id, patch) {
      const r = await send(updateSsoProvider, { params: provider(id), body: patch });
      return r.ok ? { ok: true, provider: r.data } : r;
    },
    async deleteSsoProvider(id, protocol) {
      const r = await send(protocol === 'saml' ? deleteSamlProvider : deleteOidcProvider, { params: provider(id) });
      return r.ok ? { ok: true } : r;
    },
    async verifySsoDomain(id) {
      const r = await send(verifySsoDomain, { params: provider(id) });
      return r.ok ? { ok: true, provider: r.data.provider, outcome: r.data.check.outcome, message: r.data.check.message } : r;
    },
    async ssoStart(email, redirect) {
      const r = await send(ssoStart, { body: redirect ? { email, redirect } : { email } });
      return r.ok ? { ok: true, authorization_url: r.data.authorization_url } : r;
    },
    async googleStart(redirect) {
      const r = await send(googleStart, { body: redirect ? { redirect } : {} });
      return r.ok ? { ok: true, authorization_url: r.data.authorization_url } : r;
    },
  };
}
