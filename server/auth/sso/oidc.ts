import * as client from 'openid-client';
import { ApiError } from '../../core/errors.ts';
import { outboundFetch, OutboundRefused, type OutboundOptions } from '../../core/outbound-fetch.ts';
import { idpUrl } from './urls.ts';

/**
 * OpenID Connect relying party (openid-client v6): discovery when a provider is configured (its
 * metadata is stored with the provider, so a sign-in never refetches it and every process agrees),
 * authorization code + PKCE (S256) + state + nonce, and the id token validated by the library
 * (signature by the issuer's JWKS, iss, aud, exp, nonce). Used for business providers and, with
 * Google's issuer, for "Continue with Google".
 */

export type OidcMetadata = client.ServerMetadata;
export type OidcClient = { metadata: OidcMetadata; clientId: string; clientSecret: string };

/** Requests to the IdP (discovery, token, JWKS) give up after this long. */
const TIMEOUT_SECONDS = 5;
const OIDC_SCOPE = 'openid email';

/** The allowance of outbound fetches (server/core/outbound-fetch.ts): the opt-in and the resolver. */
export type OidcNet = Pick<OutboundOptions, 'allowLoopbackHttp' | 'dnsServer'>;

/** Every request openid-client makes (discovery, token, JWKS) goes through the outbound fetch helper. */
const fetchThrough = (net: OidcNet): client.CustomFetch => (url, options) =>
  outboundFetch(url, {
    method: options.method, headers: options.headers as Record<string, string> | Headers, body: options.body as string | URLSearchParams | null,
    redirect: options.redirect, signal: options.signal ?? null,
  }, { ...net, timeoutMs: TIMEOUT_SECONDS * 1000 });

const refusedFetch = (err: unknown): boolean => {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof OutboundRefused) return true;
  }
  const name = (err as { name?: string }).name;
  return !(err instanceof client.ClientError) && (err instanceof TypeError || name === 'AbortError' || name === 'TimeoutError');
};

/**
 * The issuer's discovery document: BUSINESS_7004 when the issuer is not an https URL (http only
 * for loopback hosts when allowed) or does not answer; BUSINESS_7014 when it answers something
 * that is not OpenID Connect discovery for that issuer.
 */
export async function discoverIssuer(issuer: string, net: OidcNet): Promise<OidcMetadata> {
  const allowLoopbackHttp = net.allowLoopbackHttp;
  const url = idpUrl(issuer, allowLoopbackHttp);
  // One message for every refusal of an address, whatever the reason (server/core/outbound-fetch.ts).
  const refused = () => new ApiError('BUSINESS_7004', `The issuer ${new OutboundRefused(issuer.trim()).message}`);
  if (!url) throw refused();
  try {
    const config = await client.discovery(url, 'discovery', undefined, client.None(), {
      timeout: TIMEOUT_SECONDS,
      [client.customFetch]: fetchThrough(net),
      ...(url.protocol === 'http:' && { execute: [client.allowInsecureRequests] }),
    });
    const metadata = config.serverMetadata();
    if (!metadata.authorization_endpoint || !metadata.token_endpoint || !metadata.jwks_uri) {
      throw new ApiError('BUSINESS_7014', 'The issuer’s discovery document lacks the authorization, token or key endpoint.');
    }
    for (const endpoint of [metadata.authorization_endpoint, metadata.token_endpoint, metadata.jwks_uri]) {
      if (!idpUrl(endpoint, allowLoopbackHttp)) throw new ApiError('BUSINESS_7014', 'The issuer’s endpoints must be https URLs.');
    }
    return metadata;
  } catch (err) {
    if (err instanceof ApiError) throw err;
    // One message whatever went wrong on the way (refused address, closed port, timeout, TLS).
    if (refusedFetch(err)) throw refused();
    throw new ApiError('BUSINESS_7014', `The issuer ${url.href} did not answer with OpenID Connect discovery.`);
  }
}

function configuration(c: OidcClient, net: OidcNet): client.Configuration {
  const allowLoopbackHttp = net.allowLoopbackHttp;
  const methods = c.metadata.token_endpoint_auth_methods_supported;
  const auth = !methods || methods.includes('client_secret_basic') ? client.ClientSecretBasic(c.clientSecret) : client.ClientSecretPost(c.clientSecret);
  const config = new client.Configuration(c.metadata, c.clientId, undefined, auth);
  config.timeout = TIMEOUT_SECONDS;
  config[client.customFetch] = fetchThrough(net);
  if (allowLoopbackHttp && new URL(c.metadata.issuer).protocol === 'http:' && idpUrl(c.metadata.issuer, true)) client.allowInsecureRequests(config);
  return config;
}

/** What a sign-in keeps between start and callback. */
export type OidcChecks = { state: string; nonce: string; codeVerifier: string };

export function newChecks(): OidcChecks {
  return { state: client.randomState(), nonce: client.randomNonce(), codeVerifier: client.randomPKCECodeVerifier() };
}

export async function authorizationUrl(c: OidcClient, redirectUri: string, checks: OidcChecks, net: OidcNet, loginHint?: string): Promise<string> {
  const config = configuration(c, net);
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: OIDC_SCOPE,
    response_type: 'code',
    state: checks.state,
    nonce: checks.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
    code_challenge_method: 'S256',
    ...(loginHint && { login_hint: loginHint }),
  });
  return url.href;
}

export class OidcCallbackError extends Error {}

/**
 * Trades the callback's code for tokens and answers the id token's verified email, lower-cased.
 * `callbackUrl` is the full URL the IdP sent the browser to (its origin and path are the redirect
 * URI). Refusals are OidcCallbackError with words for the person.
 */
export async function finishOidc(c: OidcClient, callbackUrl: URL, checks: OidcChecks, net: OidcNet): Promise<{ email: string; subject: string }> {
  const config = configuration(c, net);
  let claims: client.IDToken | undefined;
  try {
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: checks.codeVerifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
    claims = tokens.claims();
  } catch (err) {
    if (err instanceof client.AuthorizationResponseError) {
      throw new OidcCallbackError(
        err.error === 'access_denied' ? 'The sign-in was cancelled at your identity provider.' : 'Your identity provider did not complete the sign-in.',
      );
    }
    throw new OidcCallbackError('Your identity provider’s answer could not be verified. Try again, or ask your administrator to check the single sign-on setup.');
  }
  if (!claims) throw new OidcCallbackError('Your identity provider did not send an ID token.');
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (!email) throw new OidcCallbackError('Your identity provider did not share your email address.');
  if (claims.email_verified !== true) throw new OidcCallbackError('Your identity provider has not verified your email address.');
  return { email, subject: claims.sub };
}

/** Google's (or GOOGLE_ISSUER's) discovery, fetched on first use and kept an hour per process. */
const discovered = new Map<string, { at: number; metadata: Promise<OidcMetadata> }>();
const DISCOVERY_TTL_MS = 60 * 60 * 1000;

export function cachedDiscovery(issuer: string, net: OidcNet, now = Date.now()): Promise<OidcMetadata> {
  const hit = discovered.get(issuer);
  if (hit && now - hit.at < DISCOVERY_TTL_MS) return hit.metadata;
  const metadata = discoverIssuer(issuer, net);
  discovered.set(issuer, { at: now, metadata });
  // A failure is not kept: the next sign-in asks again.
  metadata.catch(() => discovered.delete(issuer));
  return metadata;
}

/** Forgets every cached discovery. For tests only: files that share one module graph (vitest.config.ts, the server project) each start with none. */
export function forgetDiscoveries(): void {
  discovered.clear();
}
