import type { z } from 'zod';
import {
  createOidcProvider, createSamlProvider, deleteOidcProvider, deleteSamlProvider, googleStart, listSsoProviders, ssoStart,
  updateSsoProvider, verifySsoDomain, type DomainCheckOutcome, type SsoProtocol, type SsoProvider,
} from '../../schema/api/calls-sso.ts';
import type { OnlineFailure } from '../contracts/views.ts';
import { bindDomain, custom, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';

/** An SSO call's refusal. `offline`: nothing was sent (identity providers live on the server only). */
export type SsoFailure = OnlineFailure;
export type SsoProviderInput =
  | { protocol: 'saml'; body: z.input<typeof createSamlProvider.body> }
  | { protocol: 'oidc'; body: z.input<typeof createOidcProvider.body> };
export type SsoProviderPatch = z.input<typeof updateSsoProvider.body>;
export type SsoProviderResult = { ok: true; provider: SsoProvider } | SsoFailure;
export type SsoStartResult = { ok: true; authorization_url: string } | SsoFailure;
/** One domain check (issue 24): the provider as it now is, and what the DNS lookup found, in words. */
export type SsoDomainCheckResult = { ok: true; provider: SsoProvider; outcome: DomainCheckOutcome; message: string } | SsoFailure;

/** Refused before any request: identity providers are configured on the server only (nothing mirrored, nothing queued). */
export const SSO_OFFLINE = offlineFailure('You’re offline. Single sign-on is set up on the server and needs a connection: nothing was sent.');

const providerId = (id: string) => ({ provider_uuid: id });
const provider = (p: SsoProvider) => ({ provider: p });
const started = (d: { authorization_url: string }) => ({ authorization_url: d.authorization_url });

/**
 * Single sign-on (issue 14; schema/api/calls-sso.ts): the admin's identity providers per email
 * domain, and the public starts of a sign-in (the browser is then sent to `authorization_url`;
 * no session yet, so the client sends no token). Server-only, online only. The sign-in's end is
 * `SessionApi.ssoComplete`.
 */
export const SSO_CALLS = onlineDomain(SSO_OFFLINE, {
  ssoProviders: via(listSsoProviders, () => ({}), (d) => ({ providers: d.data })),
  createSsoProvider: custom((send) => async (input: SsoProviderInput): Promise<SsoProviderResult> => {
    const r = input.protocol === 'saml'
      ? await send(createSamlProvider, { body: input.body })
      : await send(createOidcProvider, { body: input.body });
    return r.ok ? { ok: true, provider: r.data } : r;
  }),
  /** Enable, disable, enforce, or replace its metadata, issuer or client. */
  updateSsoProvider: via(updateSsoProvider, (id: string, patch: SsoProviderPatch) => ({ params: providerId(id), body: patch }), provider),
  deleteSsoProvider: custom((send) => async (id: string, protocol: SsoProtocol): Promise<{ ok: true } | SsoFailure> => {
    const r = await send(protocol === 'saml' ? deleteSamlProvider : deleteOidcProvider, { params: providerId(id) });
    return r.ok ? { ok: true } : r;
  }),
  /** Looks up the domain's `_ledgerline-challenge` TXT record; proven when it holds this claim's value (AUTH_7030: another business proved it first). */
  verifySsoDomain: via(verifySsoDomain, (id: string) => ({ params: providerId(id) }),
    (d) => ({ provider: d.provider, outcome: d.check.outcome, message: d.check.message })),
  /** The enabled provider of the email's domain (AUTH_7022 when there is none). */
  ssoStart: via(ssoStart, (email: string, redirect?: string) => ({ body: redirect ? { email, redirect } : { email } }), started),
  /** Sign in with Google (AUTH_7022 when the server has no Google client). */
  googleStart: via(googleStart, (redirect?: string) => ({ body: redirect ? { redirect } : {} }), started),
});

export type SsoApi = OnlineApi<typeof SSO_CALLS>;

export const ssoHandlers = (port: OnlinePort): SsoApi => bindDomain(port, SSO_CALLS);
