import type { Context } from 'hono';
import {
  createOidcProvider, deleteBusinessSso, deleteOidcProvider, googleStart, listSsoProviders, ssoComplete, ssoStart, updateSsoProvider,
  verifySsoDomain, type DomainCheckOutcome,
} from '../../schema/api/calls-sso.ts';
import { emailDomain } from '../../schema/sso-rules.ts';
import { loginDownMessage } from '../../schema/web-config.ts';
import { foldEmail } from '../auth/email-address.ts';
import { markEmailVerified, requireVerifiedEmail } from '../auth/email-verification.ts';
import { clientAddress, takeRateLimit, type Limit } from '../auth/rate-limit.ts';
import { passwordSignIn } from '../auth/session.ts';
import { readWebConfig } from '../auth/settings.ts';
import { claimCompletionCode, saveSignInState } from '../auth/sso/flow.ts';
import { authorizationUrl, cachedDiscovery, discoverIssuer, newChecks, type OidcMetadata } from '../auth/sso/oidc.ts';
import { oidcRedirectUri, providerDoc, providerForDomain, providerOf, providersOf, type ProviderRow } from '../auth/sso/providers.ts';
import { encryptClientSecret } from '../auth/sso/secret.ts';
import { publicOrigin } from '../auth/sso/settings.ts';
import { safeRedirect } from '../auth/sso/urls.ts';
import type { AppDeps } from '../core/deps.ts';
import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { signInBlock } from '../domain/admin-users.ts';
import { ok, prepared, type DomainHandlers } from '../http/handler.ts';
import { adminOf, inWriteTx } from './admin.ts';
import { samlProviderFields, samlStartUrl } from './sso-saml.ts';
import {
  assertChangeAllowed, assertDomainFree, assertNotProvenElsewhere, createProvider, deleteProviderOf, draftProvider, markDomainProven, oidcClientOf, removeProviders, takeDomainCheck, takeProviderChange,
} from './sso-provider-store.ts';
import { domainCheckMessage, lookupDomainChallenge } from '../auth/sso/domain-proof.ts';
import type { CallParsed } from '../../schema/api/define-call.ts';

/**
 * Single sign-on (issue 14): the admin calls that configure a business's identity providers and
 * the public sign-in calls (start, Google start, complete). The browser's legs (OIDC callback,
 * SAML ACS and SP metadata) are routes/sso-browser.ts. The rules (AUTH_7042/7028/7021) are
 * schema/sso-rules.ts; this file gathers their inputs and applies them.
 */

const origin = (ctx: { c: Context; deps: AppDeps }) => publicOrigin(ctx.deps.sso, ctx.c.req.url);

const SSO_START_LIMIT = { max: 120, windowSeconds: 15 * 60 };
const startLimits = (address: string | null): Limit[] => (address ? [{ key: `sso-start:address:${address}`, ...SSO_START_LIMIT }] : []);

async function assertLoginUp(db: Queryable): Promise<void> {
  const config = await readWebConfig(db);
  if (config.isLoginDown) throw new ApiError('AUTH_7022', loginDownMessage(config));
}

type Fetched = { saml?: Awaited<ReturnType<typeof samlProviderFields>>; oidc?: OidcMetadata };

/** The business's provider a PATCH edits (404 otherwise), with fields of the other protocol refused. */
async function editableProvider(
  db: Queryable, businessId: string, id: string, body: CallParsed<typeof updateSsoProvider>['body'], lock = false,
): Promise<ProviderRow> {
  const before = await providerOf(db, businessId, id, lock);
  if (!before) throw new ApiError('REQUEST_7004', 'This single sign-on provider was not found.');
  const oidcFields = body.issuer !== undefined || body.client_id !== undefined || body.client_secret !== undefined;
  const samlFields = body.metadata_url !== undefined || body.metadata_xml !== undefined;
  if (before.protocol === 'saml' && oidcFields) throw new ApiError('REQUEST_7001', 'This is a SAML provider: issuer and client fields do not apply.');
  if (before.protocol === 'oidc' && samlFields) throw new ApiError('REQUEST_7001', 'This is an OIDC provider: SAML metadata does not apply.');
  return before;
}

const NOT_SET_UP_MESSAGE = 'Single sign-on is not set up for this email.';

export const ssoHandlers = {
  [listSsoProviders.id]: async (ctx) => {
    const { businessId } = adminOf(ctx);
    return ok({ data: (await providersOf(ctx.db, businessId)).map((p) => providerDoc(p, origin(ctx))) });
  },

  // The issuer's discovery is fetched before any transaction is opened (prepare): a slow or
  // hanging issuer holds no database connection (issue 24).
  [createOidcProvider.id]: prepared<typeof createOidcProvider, OidcMetadata>(async (ctx) => {
    const actor = adminOf(ctx);
    await requireVerifiedEmail(ctx);
    await takeProviderChange(ctx, actor.businessId);
    // The domain is judged in the transaction only: a repeated Idempotency-Key must reach the stored answer.
    return discoverIssuer(ctx.input.body.issuer, ctx.deps.sso);
  }, async (ctx, metadata) => {
    const actor = adminOf(ctx);
    const { domain, brand, enabled, client_id, client_secret } = ctx.input.body;
    await assertDomainFree(ctx.db, actor.businessId, domain);
    const draft = draftProvider(actor, { protocol: 'oidc', brand, domain, issuer: metadata.issuer, client_id, oidc_metadata: metadata }, enabled ?? false);
    return createProvider(ctx.db, origin(ctx), draft, { clientSecret: client_secret });
  }),

  [updateSsoProvider.id]: prepared<typeof updateSsoProvider, Fetched>(async (ctx) => {
    const { businessId } = adminOf(ctx);
    await requireVerifiedEmail(ctx);
    const body = ctx.input.body;
    // Replacing what identifies the IdP (its metadata or issuer: a fetch) counts against the
    // business's hourly provider changes; switches (enable, enforce, brand, client) do not.
    if (body.metadata_url !== undefined || body.metadata_xml !== undefined || body.issuer !== undefined) await takeProviderChange(ctx, businessId);
    const before = await editableProvider(ctx.db, businessId, ctx.input.params.provider_uuid, body);
    const fetched: Fetched = {};
    if (before.protocol === 'saml' && (body.metadata_url !== undefined || body.metadata_xml !== undefined)) {
      fetched.saml = await samlProviderFields(body, ctx.deps.sso);
    }
    if (body.issuer !== undefined) fetched.oidc = await discoverIssuer(body.issuer, ctx.deps.sso);
    return fetched;
  }, async (ctx, fetched) => {
    const { businessId } = adminOf(ctx);
    const body = ctx.input.body;
    const before = await editableProvider(ctx.db, businessId, ctx.input.params.provider_uuid, body, true);
    const after: ProviderRow = {
      ...before,
      brand: body.brand ?? before.brand,
      enabled: body.enabled ?? before.enabled,
      enforced: body.enforced ?? before.enforced,
    };
    let secretEnc = before.client_secret_enc;
    let metadataXml: string | null | undefined;
    if (fetched.saml) {
      Object.assign(after, fetched.saml.fields);
      metadataXml = fetched.saml.metadataXml;
    }
    if (fetched.oidc) {
      after.issuer = fetched.oidc.issuer;
      after.oidc_metadata = fetched.oidc;
    }
    if (body.client_id !== undefined) after.client_id = body.client_id;
    if (body.client_secret !== undefined) secretEnc = await encryptClientSecret(ctx.db, before.id, body.client_secret);
    await assertChangeAllowed(ctx.db, businessId, before, after);
    await ctx.db.query(
      `UPDATE sso_providers SET brand = $2, enabled = $3, enforced = $4, metadata_url = $5,
         metadata_xml = CASE WHEN $6::boolean THEN $7 ELSE metadata_xml END, idp_entity_id = $8, idp_sso_url = $9, idp_certificates = $10::jsonb,
         issuer = $11, client_id = $12, client_secret_enc = $13, oidc_metadata = $14::jsonb, updated_at = now()
       WHERE id = $1`,
      [
        before.id, after.brand, after.enabled, after.enforced, after.metadata_url, metadataXml !== undefined, metadataXml ?? null,
        after.idp_entity_id, after.idp_sso_url, after.idp_certificates && JSON.stringify(after.idp_certificates),
        after.issuer, after.client_id, secretEnc, after.oidc_metadata && JSON.stringify(after.oidc_metadata),
      ],
    );
    return ok(providerDoc((await providerOf(ctx.db, businessId, before.id))!, origin(ctx)));
  }),

  // The DNS lookup runs before the transaction (prepare), as a fetch does.
  [verifySsoDomain.id]: prepared<typeof verifySsoDomain, { outcome: DomainCheckOutcome; token: string }>(async (ctx) => {
    const { businessId } = adminOf(ctx);
    await takeDomainCheck(ctx, businessId);
    const p = await providerOf(ctx.db, businessId, ctx.input.params.provider_uuid);
    if (!p) throw new ApiError('REQUEST_7004', 'This single sign-on provider was not found.');
    if (p.domain_proven_at) return { outcome: 'proven', token: p.domain_token };
    await assertNotProvenElsewhere(ctx.db, p);
    return { outcome: await lookupDomainChallenge(p.domain, p.domain_token, ctx.deps.sso.dnsServer), token: p.domain_token };
  }, async (ctx, found) => {
    const { businessId } = adminOf(ctx);
    const p = await providerOf(ctx.db, businessId, ctx.input.params.provider_uuid, true);
    if (!p) throw new ApiError('REQUEST_7004', 'This single sign-on provider was not found.');
    // The record proves this claim's token only (a claim removed and made again has a new one).
    const outcome: DomainCheckOutcome = found.outcome === 'proven' && found.token !== p.domain_token ? 'no_match' : found.outcome;
    if (outcome === 'proven') await markDomainProven(ctx.db, p, ctx.deps.now());
    else await assertNotProvenElsewhere(ctx.db, p);
    const stored = (await providerOf(ctx.db, businessId, p.id))!;
    return ok({ provider: providerDoc(stored, origin(ctx)), check: { outcome, message: domainCheckMessage(outcome, p.domain) } });
  }),

  [deleteOidcProvider.id]: async (ctx) => {
    const { businessId } = adminOf(ctx);
    await inWriteTx(ctx, deleteOidcProvider, (tx) => deleteProviderOf(tx, businessId, ctx.input.params.provider_uuid, 'oidc', 'This OIDC provider was not found.'));
    return ok({ ok: true });
  },

  [deleteBusinessSso.id]: async (ctx) => {
    const { businessId } = adminOf(ctx);
    // Another business's id answers 404, as an unknown one.
    if (ctx.input.params.business_uuid !== businessId) throw new ApiError('REQUEST_7004', 'This business was not found.');
    const domains = ctx.input.body?.domains;
    const removed = await inWriteTx(ctx, deleteBusinessSso, async (tx) => {
      const providers = (await providersOf(tx, businessId, true)).filter((p) => !domains || domains.includes(p.domain.toLowerCase()));
      return removeProviders(tx, providers);
    });
    return ok({ ok: true, removed });
  },

  [ssoStart.id]: async (ctx) => {
    await assertLoginUp(ctx.db);
    await takeRateLimit(ctx.c, ctx.db, startLimits(clientAddress(ctx.c)), ctx.deps.now());
    const email = foldEmail(ctx.input.body.email);
    const provider = await providerForDomain(ctx.db, emailDomain(email));
    if (!provider || !provider.enabled) throw new ApiError('AUTH_7022', NOT_SET_UP_MESSAGE);
    const redirect = safeRedirect(ctx.input.body.redirect);
    const base = origin(ctx);
    if (provider.protocol === 'saml') return ok({ authorization_url: await samlStartUrl(ctx.db, provider, base, redirect, ctx.deps.now()) });
    const checks = newChecks();
    await saveSignInState(ctx.db, {
      kind: 'oidc', provider_id: provider.id, nonce: checks.nonce, code_verifier: checks.codeVerifier, saml_request_id: null, redirect,
    }, ctx.deps.now(), checks.state);
    const url = await authorizationUrl(await oidcClientOf(ctx.db, provider), oidcRedirectUri(base), checks, ctx.deps.sso, email);
    return ok({ authorization_url: url });
  },

  [googleStart.id]: async (ctx) => {
    const google = ctx.deps.sso.google;
    if (!google) throw new ApiError('AUTH_7022', 'Sign-in with Google is not available on this server.');
    await assertLoginUp(ctx.db);
    await takeRateLimit(ctx.c, ctx.db, startLimits(clientAddress(ctx.c)), ctx.deps.now());
    const metadata = await cachedDiscovery(google.issuer, ctx.deps.sso).catch(() => {
      throw new ApiError('AUTH_7022', 'Google sign-in is unavailable right now. Try again shortly.');
    });
    const checks = newChecks();
    await saveSignInState(ctx.db, {
      kind: 'google', provider_id: null, nonce: checks.nonce, code_verifier: checks.codeVerifier, saml_request_id: null,
      redirect: safeRedirect(ctx.input.body.redirect),
    }, ctx.deps.now(), checks.state);
    const client = { metadata, clientId: google.clientId, clientSecret: google.clientSecret };
    return ok({ authorization_url: await authorizationUrl(client, oidcRedirectUri(origin(ctx)), checks, ctx.deps.sso) });
  },

  [ssoComplete.id]: async (ctx) => {
    await assertLoginUp(ctx.db);
    const completion = await claimCompletionCode(ctx.db, ctx.input.body.code, ctx.deps.now());
    if (!completion) throw new ApiError('PROFILE_7017', 'This sign-in code is invalid or has expired. Sign in again.');
    // Still a member in good standing a minute later (a suspension in between wins).
    const [user] = await ctx.db.query<{ status: string; deleted: boolean }>('SELECT status, deleted FROM spend_users WHERE id = $1', [completion.user_id]);
    const block = user ? signInBlock(user) : { code: '4014' as const };
    if (block || user?.status !== 'ACTIVE') throw new ApiError(block?.code ?? '4014', block?.message);
    const who = { identityId: completion.identity_id, userId: completion.user_id, businessId: completion.business_id };
    await markEmailVerified(ctx.db, completion.identity_id); // the identity provider vouched for the address
    const answer = await passwordSignIn(ctx.deps, ctx.db, who, completion.session_id ?? undefined, completion.kind);
    return ok({ ...answer, redirect: completion.redirect });
  },
} satisfies DomainHandlers;
