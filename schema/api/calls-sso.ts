import { z } from 'zod';
import { defineCall } from './define-call.ts';

/**
 * Single sign-on (issue 14; §1 sign-in methods, §7 "SAML providers under
 * /authentication/saml-providers", "DELETE {business}/sso", §8 BUSINESS_7004/7014,
 * AUTH_7030/7042/7021/7028/7022). An identity provider is configured per email domain (SAML by
 * metadata URL or XML; OIDC by issuer, client id and secret) and, when enabled, people of that
 * domain sign in through it; enforced, their password (and passwordless links) answer AUTH_7022.
 * `admin.*` ids are admin-only (the tenant-isolation test reads that convention).
 *
 * The contract both the server and the app build on. Listed in CATALOGUE with its handlers.
 */
const fullScopes = { scopes: ['default'] } as const;

/** §1's single sign-on providers, plus Google (sign-in with Google is OIDC with Google's issuer). */
export const SSO_BRANDS = [
  'OKTA', 'RIPPLING', 'MICROSOFT_ENTRA_ID', 'ADP', 'ONELOGIN', 'JUMPCLOUD', 'ADFS', 'AUTH0', 'DUO', 'OTHER',
] as const;
const ssoBrandSchema = z.enum(SSO_BRANDS);
export type SsoBrand = z.infer<typeof ssoBrandSchema>;
export const SSO_BRAND_LABELS: Record<SsoBrand, string> = {
  OKTA: 'Okta', RIPPLING: 'Rippling', MICROSOFT_ENTRA_ID: 'Microsoft Entra ID', ADP: 'ADP', ONELOGIN: 'OneLogin',
  JUMPCLOUD: 'JumpCloud', ADFS: 'Active Directory Federation Services', AUTH0: 'Auth0', DUO: 'Duo', OTHER: 'Other',
};

const ssoProtocolSchema = z.enum(['saml', 'oidc']);
export type SsoProtocol = z.infer<typeof ssoProtocolSchema>;

/** A lower-case email domain such as example.com (no @, at least one dot). */
export const emailDomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'domain must be a valid email domain such as example.com');

/** A provider as the admin sees it: never the client secret, only whether one is stored. */
export const ssoProviderSchema = z.object({
  id: z.uuid(),
  business_id: z.uuid(),
  protocol: ssoProtocolSchema,
  brand: ssoBrandSchema,
  domain: z.string(),
  enabled: z.boolean(),
  /** Password and passwordless sign-in are refused (AUTH_7022) for this domain's people. */
  enforced: z.boolean(),
  /** When someone last signed in through it (null: never; enforcement needs a verified provider, see AUTH_7028). */
  verified_at: z.iso.datetime({ offset: true }).nullable(),
  /**
   * Whether the business has proved it owns the domain (issue 24): `pending` until the DNS TXT
   * record `domain_challenge.record_name` holds `record_value` and the admin verifies it. A pending
   * domain cannot be enabled (AUTH_7042) or enforced (AUTH_7028) and binds nobody.
   */
  domain_status: z.enum(['pending', 'proven']),
  domain_proven_at: z.iso.datetime({ offset: true }).nullable(),
  /** The TXT record to add at the domain's DNS host (kept after proof: removing it changes nothing). */
  domain_challenge: z.object({ record_name: z.string(), record_value: z.string() }),
  saml: z
    .object({
      metadata_url: z.string().nullable(),
      idp_entity_id: z.string(),
      idp_sso_url: z.string(),
      /** SHA-256 fingerprints of the IdP's signing certificates, colon-separated hex. */
      certificate_fingerprints: z.array(z.string()),
      /** What the admin pastes into their IdP: our entity id, ACS URL and metadata URL. */
      sp_entity_id: z.string(),
      acs_url: z.string(),
      sp_metadata_url: z.string(),
    })
    .nullable(),
  oidc: z
    .object({
      issuer: z.string(),
      client_id: z.string(),
      has_client_secret: z.boolean(),
      /** What the admin registers at their IdP as the redirect URI. */
      redirect_uri: z.string(),
    })
    .nullable(),
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
});
export type SsoProvider = z.infer<typeof ssoProviderSchema>;

const providerParams = z.object({ provider_uuid: z.uuid() });
const url = z.string().trim().max(2048);
/** `enabled` defaults to false: configure, sign in once through it (verified), then enforce. */
const common = { domain: emailDomainSchema, brand: ssoBrandSchema, enabled: z.boolean().optional() };

export const listSsoProviders = defineCall({
  id: 'admin.sso.list', method: 'GET', path: '/v1/auth/authentication/sso-providers', auth: fullScopes,
  response: z.object({ data: z.array(ssoProviderSchema) }),
});

/**
 * SAML: exactly one of metadata_url (fetched now; BUSINESS_7004 when it is not a valid https URL or cannot be fetched) or metadata_xml (BUSINESS_7014 when malformed); both or neither → REQUEST_7001.
 * Every provider starts with its domain pending (see verifySsoDomain). AUTH_7030 when this business already has a provider for the domain, or another business has proved it.
 * Adding providers and replacing their IdP (metadata, issuer): at most 10 per business per hour (AUTH_7029, 429 with Retry-After).
 */
export const createSamlProvider = defineCall({
  id: 'admin.sso.createSaml', method: 'POST', path: '/v1/auth/authentication/saml-providers', auth: fullScopes,
  body: z.object({ ...common, metadata_url: url.optional(), metadata_xml: z.string().max(200_000).optional() }),
  response: ssoProviderSchema,
});

/** OIDC: the issuer's discovery document is fetched now (BUSINESS_7004 when the URL is invalid or unreachable, BUSINESS_7014 when it is not OIDC discovery). */
export const createOidcProvider = defineCall({
  id: 'admin.sso.createOidc', method: 'POST', path: '/v1/auth/authentication/oidc-providers', auth: fullScopes,
  body: z.object({ ...common, issuer: url, client_id: z.string().trim().min(1).max(500), client_secret: z.string().min(1).max(2000) }),
  response: ssoProviderSchema,
});

/**
 * Change a provider: enable (AUTH_7042 when no user of the business has an email on its domain),
 * disable or enforce (AUTH_7028 when the result would leave no active admin able to sign in: an
 * admin on an enforced domain needs its provider enabled and verified), or replace its metadata,
 * issuer or client.
 */
export const updateSsoProvider = defineCall({
  id: 'admin.sso.update', method: 'PATCH', path: '/v1/auth/authentication/sso-providers/:provider_uuid', auth: fullScopes,
  params: providerParams,
  body: z.object({
    brand: ssoBrandSchema.optional(),
    enabled: z.boolean().optional(),
    enforced: z.boolean().optional(),
    metadata_url: url.optional(),
    metadata_xml: z.string().max(200_000).optional(),
    issuer: url.optional(),
    client_id: z.string().trim().min(1).max(500).optional(),
    client_secret: z.string().min(1).max(2000).optional(),
  }),
  response: ssoProviderSchema,
});

/**
 * What one domain check found: `proven` (the TXT record holds this claim's value; the domain is
 * now the business's), `no_record` (no TXT record by that name), `no_match` (TXT records, none
 * with this claim's value) or `lookup_failed` (the DNS lookup itself failed or timed out).
 */
const domainCheckOutcomeSchema = z.enum(['proven', 'no_record', 'no_match', 'lookup_failed']);
export type DomainCheckOutcome = z.infer<typeof domainCheckOutcomeSchema>;

/**
 * Looks up `_ledgerline-challenge.<domain>` (TXT) and, when it holds this claim's value, marks the
 * domain proven. Answers the provider and what the lookup found, with words for the admin. AUTH_7030
 * when another business proved the domain first (its claim wins; this one stays pending); AUTH_7029
 * (429, Retry-After) past 30 checks per business per hour.
 */
export const verifySsoDomain = defineCall({
  id: 'admin.sso.verifyDomain', method: 'POST', path: '/v1/auth/authentication/sso-providers/:provider_uuid/verify-domain', auth: fullScopes,
  params: providerParams,
  response: z.object({ provider: ssoProviderSchema, check: z.object({ outcome: domainCheckOutcomeSchema, message: z.string() }) }),
});

/** Removing a provider whose domain is enforced answers AUTH_7021. */
export const deleteSamlProvider = defineCall({
  id: 'admin.sso.deleteSaml', method: 'DELETE', path: '/v1/auth/authentication/saml-providers/:provider_uuid', auth: fullScopes,
  params: providerParams, response: z.object({ ok: z.literal(true) }),
});
export const deleteOidcProvider = defineCall({
  id: 'admin.sso.deleteOidc', method: 'DELETE', path: '/v1/auth/authentication/oidc-providers/:provider_uuid', auth: fullScopes,
  params: providerParams, response: z.object({ ok: z.literal(true) }),
});

/** §7 "DELETE {business}/sso (body)": removes every provider of the given domains (all when none are named, or no body is sent); AUTH_7021 while any of them is enforced; another business's id → 404. */
export const deleteBusinessSso = defineCall({
  id: 'admin.sso.deleteBusiness', method: 'DELETE', path: '/v1/auth/businesses/:business_uuid/sso', auth: fullScopes,
  params: z.object({ business_uuid: z.uuid() }),
  body: z.object({ domains: z.array(emailDomainSchema).max(50).optional() }).optional(),
  response: z.object({ ok: z.literal(true), removed: z.number().int() }),
});

/**
 * Sign-in, public. `start` finds the enabled provider of the email's domain (AUTH_7022 "Single
 * sign-on is not set up for this email." when there is none) and answers where to send the
 * browser; the IdP comes back to the server (OIDC callback, SAML ACS), which redirects the browser
 * to the app's /sso/complete?code=… (a one-time code, 60 s) or /sign-in?sso_error=… with words to
 * show. `complete` trades the code for the same token a password sign-in answers.
 */
export const ssoStart = defineCall({
  id: 'sso.start', method: 'POST', path: '/v1/public/sso/start', auth: 'public',
  body: z.object({ email: z.email().max(320), redirect: z.string().max(2048).optional() }),
  response: z.object({ authorization_url: z.string() }),
});
/** Sign in with Google (OIDC with Google's issuer; AUTH_7022 when this server has no Google client configured). */
export const googleStart = defineCall({
  id: 'sso.googleStart', method: 'POST', path: '/v1/public/sso/google/start', auth: 'public',
  body: z.object({ redirect: z.string().max(2048).optional() }),
  response: z.object({ authorization_url: z.string() }),
});
/** PROFILE_7017 when the code is unknown, used or past its 60 s; the token's `sign_in_provider` is oidc, saml or google. */
export const ssoComplete = defineCall({
  id: 'sso.complete', method: 'POST', path: '/v1/public/sso/complete', auth: 'public',
  body: z.object({ code: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'code must be a valid sign-in code') }),
  response: z.object({ id_token: z.string(), mfa_required: z.boolean(), redirect: z.string().nullable() }),
});

/** The browser-facing paths that are not JSON calls (redirects and a form post), served by the SSO routes. */
export const SSO_BROWSER_PATHS = {
  oidcCallback: '/v1/public/sso/oidc/callback',
  samlAcs: (providerId: string) => `/v1/public/sso/saml/${providerId}/acs`,
  samlMetadata: (providerId: string) => `/v1/public/sso/saml/${providerId}/metadata`,
  /** The app's page that finishes a sign-in (src), with ?code= or ?sso_error= on /sign-in. */
  appComplete: '/sso/complete',
} as const;

export const SSO_CALLS = [
  listSsoProviders, createSamlProvider, createOidcProvider, updateSsoProvider, deleteSamlProvider,
  deleteOidcProvider, deleteBusinessSso, ssoStart, googleStart, ssoComplete, verifySsoDomain,
] as const;
