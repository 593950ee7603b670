import { randomBytes } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { createSamlProvider, deleteSamlProvider, SSO_BROWSER_PATHS } from '../../schema/api/calls-sso.ts';
import {
  consumeAssertion, fetchIdpMetadata, parseIdpMetadata, samlLoginUrl, SamlError, spMetadataXml, verifySamlResponse, type SamlIdp,
} from '../auth/saml/index.ts';
import { requireVerifiedEmail } from '../auth/email-verification.ts';
import { claimSignInState, saveSignInState } from '../auth/sso/flow.ts';
import { providerById, samlSp, type ProviderRow } from '../auth/sso/providers.ts';
import { publicOrigin } from '../auth/sso/settings.ts';
import type { AppDeps } from '../core/deps.ts';
import { ApiError, validationError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { ok, prepared, type DomainHandlers } from '../http/handler.ts';
import { adminOf, inWriteTx } from './admin.ts';
import { completeLocation, errorLocation, EXPIRED_STATE_MESSAGE, finishSignIn, redirectTo, SsoRefused } from './sso-finish.ts';
import { assertDomainFree, createProvider, deleteProviderOf, draftProvider, takeProviderChange } from './sso-provider-store.ts';

/**
 * SAML wiring (issue 14) over the SP library in server/auth/saml: configuration from IdP metadata
 * (fetched from its URL, or pasted XML), the sign-in redirect (HTTP-Redirect AuthnRequest, our
 * state as RelayState), the assertion consumer service (a form POST, not JSON: a raw route) and
 * our SP metadata. Only SP-initiated sign-in: a response must answer a request we sent
 * (InResponseTo = the request id kept with the state); an IdP-initiated one has no state and is
 * refused, which closes login CSRF by unsolicited assertions.
 */

/** What a provider keeps of IdP metadata; BUSINESS_7004 (URL) / BUSINESS_7014 (format) with the library's words. */
export async function samlProviderFields(
  body: { metadata_url?: string; metadata_xml?: string },
  net: { allowLoopbackHttp: boolean; dnsServer: string | null },
): Promise<{ fields: Pick<ProviderRow, 'metadata_url' | 'idp_entity_id' | 'idp_sso_url' | 'idp_certificates'>; metadataXml: string }> {
  const { metadata_url: url, metadata_xml: pasted } = body;
  if ((url === undefined) === (pasted === undefined)) {
    const message = 'Give either metadata_url or metadata_xml.';
    throw validationError({ [url === undefined ? 'metadata_url' : 'metadata_xml']: message });
  }
  try {
    const xml = url !== undefined ? await fetchIdpMetadata(url, net) : pasted!;
    const idp = parseIdpMetadata(xml);
    return {
      fields: { metadata_url: url ?? null, idp_entity_id: idp.entityId, idp_sso_url: idp.ssoUrl, idp_certificates: idp.certificates },
      metadataXml: xml,
    };
  } catch (err) {
    if (err instanceof SamlError) throw new ApiError(err.reason === 'url' ? 'BUSINESS_7004' : 'BUSINESS_7014', err.message);
    throw err;
  }
}

const idpOf = (p: ProviderRow): SamlIdp => ({ entityId: p.idp_entity_id ?? '', ssoUrl: p.idp_sso_url ?? '', certificates: p.idp_certificates ?? [] });

/** Where `start` sends the browser: the IdP's SSO URL with our AuthnRequest, the state as RelayState. */
export async function samlStartUrl(db: Queryable, p: ProviderRow, origin: string, redirect: string | null, nowMs: number): Promise<string> {
  const relayState = randomBytes(32).toString('base64url');
  const { url, requestId } = await samlLoginUrl(samlSp(origin, p.id), idpOf(p), relayState);
  await saveSignInState(db, { kind: 'saml', provider_id: p.id, nonce: null, code_verifier: null, saml_request_id: requestId, redirect }, nowMs, relayState);
  return url;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function samlProviderFrom(deps: AppDeps, id: string): Promise<ProviderRow | null> {
  if (!UUID.test(id)) return null;
  const p = await providerById(deps.db, id.toLowerCase());
  return p && p.protocol === 'saml' ? p : null;
}

/** The form the IdP's page posts: SAMLResponse and RelayState, form-encoded (never JSON). */
async function readAcsForm(c: Context): Promise<URLSearchParams | null> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return null;
  try {
    return new URLSearchParams(new TextDecoder('utf-8', { fatal: true }).decode(await c.req.arrayBuffer()));
  } catch {
    return null;
  }
}

async function acs(c: Context, deps: AppDeps): Promise<Response> {
  const provider = await samlProviderFrom(deps, c.req.param('provider_uuid') ?? '');
  if (!provider) return redirectTo(c, errorLocation('Single sign-on is not set up for this link.'));
  const form = await readAcsForm(c);
  const samlResponse = form?.get('SAMLResponse');
  const relayState = form?.get('RelayState');
  if (!samlResponse) return redirectTo(c, errorLocation('The identity provider sent no sign-in response.'));
  // Single use, and only a sign-in we started: no state, no sign-in (IdP-initiated is refused).
  const flow = relayState && relayState.length <= 200 ? await claimSignInState(deps.db, relayState, deps.now()) : null;
  if (!flow || flow.kind !== 'saml' || flow.provider_id !== provider.id || !flow.saml_request_id) {
    return redirectTo(c, errorLocation(EXPIRED_STATE_MESSAGE));
  }
  const sp = samlSp(publicOrigin(deps.sso, c.req.url), provider.id);
  try {
    const assertion = await verifySamlResponse({
      sp, idp: idpOf(provider), samlResponse, expectedRequestId: flow.saml_request_id, now: new Date(deps.now()),
    });
    await consumeAssertion(deps.db, provider.id, assertion);
    const code = await finishSignIn(deps, { kind: 'saml', provider, email: assertion.email, redirect: flow.redirect });
    return redirectTo(c, completeLocation(code));
  } catch (err) {
    if (err instanceof SamlError || err instanceof SsoRefused) return redirectTo(c, errorLocation(err.message));
    throw err;
  }
}

async function spMetadata(c: Context, deps: AppDeps): Promise<Response> {
  const provider = await samlProviderFrom(deps, c.req.param('provider_uuid') ?? '');
  if (!provider) throw new ApiError('REQUEST_7004', 'This SAML provider was not found.');
  const sp = samlSp(publicOrigin(deps.sso, c.req.url), provider.id);
  return c.body(spMetadataXml({ entityId: sp.entityId, acsUrl: sp.acsUrl }), 200, { 'content-type': 'application/samlmetadata+xml; charset=utf-8' });
}

export function registerSamlBrowserRoutes(app: Hono, deps: AppDeps): void {
  app.post(SSO_BROWSER_PATHS.samlAcs(':provider_uuid'), (c) => acs(c, deps));
  app.get(SSO_BROWSER_PATHS.samlMetadata(':provider_uuid'), (c) => spMetadata(c, deps));
}

export const ssoSamlHandlers = {
  // The metadata URL is fetched before any transaction is opened (prepare), see routes/sso.ts.
  [createSamlProvider.id]: prepared<typeof createSamlProvider, Awaited<ReturnType<typeof samlProviderFields>>>(async (ctx) => {
    const actor = adminOf(ctx);
    await requireVerifiedEmail(ctx);
    await takeProviderChange(ctx, actor.businessId);
    const { metadata_url, metadata_xml } = ctx.input.body;
    // The domain is judged in the transaction only: a repeated Idempotency-Key must reach the stored answer.
    return samlProviderFields({ metadata_url, metadata_xml }, ctx.deps.sso);
  }, async (ctx, saml) => {
    const actor = adminOf(ctx);
    const { domain, brand, enabled } = ctx.input.body;
    await assertDomainFree(ctx.db, actor.businessId, domain);
    const draft = draftProvider(actor, { protocol: 'saml', brand, domain, ...saml.fields }, enabled ?? false);
    return createProvider(ctx.db, publicOrigin(ctx.deps.sso, ctx.c.req.url), draft, { metadataXml: saml.metadataXml });
  }),

  [deleteSamlProvider.id]: async (ctx) => {
    const { businessId } = adminOf(ctx);
    await inWriteTx(ctx, deleteSamlProvider, (tx) => deleteProviderOf(tx, businessId, ctx.input.params.provider_uuid, 'saml', 'This SAML provider was not found.'));
    return ok({ ok: true });
  },
} satisfies DomainHandlers;
