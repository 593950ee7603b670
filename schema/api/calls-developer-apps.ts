import { z } from 'zod';
import { API_SCOPES } from './api-scopes.ts';
import { apiClientSecretSchema } from './calls-api-clients.ts';
import { defineCall } from './define-call.ts';

/**
 * Issue 32: developer applications (§7 "developer applications"; docs/design/issue-32-developer-apps.md).
 * Software made by someone else that many businesses connect to, each by an admin's consent:
 * OAuth 2.0 authorization code (RFC 6749 §4.1) with PKCE S256 (RFC 7636). A business registers its
 * app here (`admin.developerApps.*`, `canManageApiClients`); an admin of any business allows it on
 * the consent page (`oauth.consents.create` answers the one-time code); the app trades the code at
 * `POST /v1/public/token` (grant_type=authorization_code, then refresh_token), outside this
 * catalogue like the client credentials grant. Connected apps are the business's grants.
 */
const full = { scopes: ['default'] } as const;
/** §6: a new secret (a confidential app comes with one) and deleting an app need a step-up. */
const sensitive = { scopes: ['sensitive'] } as const;

/** A code lives 60 seconds and is used once. */
export const AUTHORIZATION_CODE_TTL_SECONDS = 60;
/** A refresh token lives 30 days; each use answers a new one (rotation). */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
export const REFRESH_TOKEN_PREFIX = 'llrt_';
export const MAX_REDIRECT_URIS = 10;

const apiScopeSchema = z.enum(API_SCOPES);
const isoDate = z.iso.datetime({ offset: true });

/**
 * A redirect URI: https, or http on a loopback host for native apps (RFC 8252 §7.3); no fragment
 * (RFC 6749 §3.1.2); matched exactly, never by prefix or wildcard.
 */
export function redirectUriProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.hash || value.includes('#')) return 'must not have a fragment';
  if (url.username || url.password) return 'must not carry a user name or password';
  if (url.protocol === 'https:') return null;
  const loopback = url.hostname === '127.0.0.1' || url.hostname === '[::1]' || url.hostname === 'localhost';
  if (url.protocol === 'http:' && loopback) return null;
  return 'must use https (or http on 127.0.0.1, [::1] or localhost)';
}

const redirectUriSchema = z.string().max(2000).superRefine((v, ctx) => {
  const problem = redirectUriProblem(v);
  if (problem) ctx.addIssue({ code: 'custom', message: `redirect URI ${problem}` });
});
const httpsUrl = z.url({ protocol: /^https$/ }).max(2000);

export const CLIENT_TYPES = ['confidential', 'public'] as const;

export const developerAppSchema = z.object({
  id: z.uuid(),
  /** The OAuth `client_id` (the same as `id`). */
  client_id: z.uuid(),
  name: z.string(),
  description: z.string(),
  homepage_url: z.string().nullable(),
  logo_url: z.string().nullable(),
  /** confidential: authenticates with a secret at the token endpoint; public: PKCE alone (native and browser apps). */
  client_type: z.enum(CLIENT_TYPES),
  redirect_uris: z.array(z.string()),
  /** The API scopes the app may ask for. */
  scopes: z.array(apiScopeSchema),
  secrets: z.array(apiClientSecretSchema),
  /** How many businesses have it connected now. */
  connected_businesses: z.number().int(),
  created_at: isoDate,
});
export type DeveloperApp = z.infer<typeof developerAppSchema>;

const newSecretSchema = apiClientSecretSchema.extend({ client_secret: z.string() });
const withSecret = z.object({ app: developerAppSchema, secret: newSecretSchema.nullable() });
const appParams = z.object({ app_id: z.uuid() });

const appFields = {
  name: z.string().trim().min(1).max(80),
  description: z.string().trim().max(500),
  homepage_url: httpsUrl.nullable(),
  /** Shown on the consent page: an https image the browser fetches, never the server. */
  logo_url: httpsUrl.nullable(),
  redirect_uris: z.array(redirectUriSchema).min(1).max(MAX_REDIRECT_URIS),
  scopes: z.array(apiScopeSchema).min(1).max(API_SCOPES.length),
};

export const listDeveloperApps = defineCall({
  id: 'admin.developerApps.list',
  method: 'GET',
  path: '/v1/auth/developer-apps',
  auth: full,
  response: z.object({ data: z.array(developerAppSchema) }),
});

export const createDeveloperApp = defineCall({
  id: 'admin.developerApps.create',
  method: 'POST',
  path: '/v1/auth/developer-apps',
  auth: sensitive,
  body: z.object({
    ...appFields,
    description: appFields.description.default(''),
    homepage_url: appFields.homepage_url.default(null),
    logo_url: appFields.logo_url.default(null),
    client_type: z.enum(CLIENT_TYPES),
  }),
  /** `secret`: a confidential app's first secret, shown once; null for a public app. */
  response: withSecret,
});

/** Changes what the app shows and may ask for; grants keep the scopes they were given, narrowed to the app's. */
export const updateDeveloperApp = defineCall({
  id: 'admin.developerApps.update',
  method: 'PATCH',
  path: '/v1/auth/developer-apps/:app_id',
  auth: full,
  params: appParams,
  body: z.object({
    name: appFields.name.optional(),
    description: appFields.description.optional(),
    homepage_url: appFields.homepage_url.optional(),
    logo_url: appFields.logo_url.optional(),
    redirect_uris: appFields.redirect_uris.optional(),
    scopes: appFields.scopes.optional(),
  }),
  response: z.object({ app: developerAppSchema }),
});

/** A new secret for a confidential app; every other live secret is revoked in the same step. */
export const rotateDeveloperAppSecret = defineCall({
  id: 'admin.developerApps.secrets.rotate',
  method: 'POST',
  path: '/v1/auth/developer-apps/:app_id/secrets',
  auth: sensitive,
  params: appParams,
  body: z.object({}).optional(),
  response: withSecret,
});

/** Deletes the app: its secrets, every business's grant and every token stop at once. */
export const deleteDeveloperApp = defineCall({
  id: 'admin.developerApps.delete',
  method: 'DELETE',
  path: '/v1/auth/developer-apps/:app_id',
  auth: sensitive,
  params: appParams,
  response: z.object({ id: z.uuid(), deleted: z.literal(true) }),
});

/** What the consent page shows of an app (any business's admin may be asked). */
export const oauthAppInfoSchema = z.object({
  client_id: z.uuid(),
  name: z.string(),
  description: z.string(),
  homepage_url: z.string().nullable(),
  logo_url: z.string().nullable(),
  /** The business that registered it. */
  publisher: z.string(),
});

/**
 * The consent page's first read: the app and whether `redirect_uri` is one it registered. An
 * unknown client answers 404, an unregistered redirect URI 422 on `redirect_uri`: the page shows
 * either and never redirects (RFC 6749 §4.1.2.1).
 */
export const getOAuthApp = defineCall({
  id: 'oauth.apps.get',
  method: 'GET',
  path: '/v1/auth/oauth/apps/:client_id',
  auth: full,
  params: z.object({ client_id: z.uuid() }),
  query: z.object({ redirect_uri: z.string().max(2000) }),
  /** `scopes`: what the app registered; a request asking for more goes back with error=invalid_scope. */
  response: z.object({ app: oauthAppInfoSchema, scopes: z.array(apiScopeSchema) }),
});

/**
 * Allow: a one-time code (60 s) bound to the app, the redirect URI, the PKCE challenge, the scopes,
 * this business and the person allowing. §6 recent-token rule: a consent is given by a token
 * issued in the last minutes (sign in, or step up, first).
 */
export const createOAuthConsent = defineCall({
  id: 'oauth.consents.create',
  method: 'POST',
  path: '/v1/auth/oauth/consents',
  auth: 'recent-token',
  body: z.object({
    client_id: z.uuid(),
    redirect_uri: z.string().max(2000),
    /** Space-separated API scopes, each one the app registered. */
    scope: z.string().trim().min(1).max(2000),
    state: z.string().min(1).max(2000),
    /** RFC 7636: base64url of sha256(code_verifier), 43 characters. */
    code_challenge: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be a base64url sha256 (43 characters)'),
    code_challenge_method: z.literal('S256'),
  }),
  response: z.object({
    code: z.string(),
    /** Where the browser goes next: the redirect URI with `code` and `state`. */
    redirect_to: z.string(),
  }),
});

export const oauthGrantSchema = z.object({
  id: z.uuid(),
  app: oauthAppInfoSchema,
  scopes: z.array(apiScopeSchema),
  /** Who allowed it: the app acts as this person, narrowed to `scopes`. */
  allowed_by: z.object({ id: z.uuid(), name: z.string() }),
  created_at: isoDate,
  last_used_at: isoDate.nullable(),
});
export type OAuthGrant = z.infer<typeof oauthGrantSchema>;

/** Connected apps: the business's live grants, newest first. */
export const listOAuthGrants = defineCall({
  id: 'admin.oauthGrants.list',
  method: 'GET',
  path: '/v1/auth/oauth/grants',
  auth: full,
  response: z.object({ data: z.array(oauthGrantSchema) }),
});

/** Disconnect: the grant's access and refresh tokens stop at once. */
export const revokeOAuthGrant = defineCall({
  id: 'admin.oauthGrants.revoke',
  method: 'DELETE',
  path: '/v1/auth/oauth/grants/:grant_id',
  auth: full,
  params: z.object({ grant_id: z.uuid() }),
  response: z.object({ id: z.uuid(), revoked: z.literal(true) }),
});

export const DEVELOPER_APP_CALLS = [
  listDeveloperApps, createDeveloperApp, updateDeveloperApp, rotateDeveloperAppSecret, deleteDeveloperApp,
  getOAuthApp, createOAuthConsent, listOAuthGrants, revokeOAuthGrant,
] as const;
