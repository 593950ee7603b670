import type { Context, Hono } from 'hono';
import { SSO_BROWSER_PATHS } from '../../schema/api/calls-sso.ts';
import { claimSignInState } from '../auth/sso/flow.ts';
import { cachedDiscovery, finishOidc, OidcCallbackError, type OidcClient } from '../auth/sso/oidc.ts';
import { providerById } from '../auth/sso/providers.ts';
import { publicOrigin } from '../auth/sso/settings.ts';
import type { AppDeps } from '../core/deps.ts';
import { ApiError } from '../core/errors.ts';
import { completeLocation, errorLocation, EXPIRED_STATE_MESSAGE, finishSignIn, redirectTo, SsoRefused } from './sso-finish.ts';
import { oidcClientOf } from './sso-provider-store.ts';
import { registerSamlBrowserRoutes } from './sso-saml.ts';

/**
 * The browser's legs of SSO, which are not JSON calls (so not in CATALOGUE): the IdP sends the
 * browser here (OIDC: GET callback with code and state; SAML: a form POST to the ACS), and we
 * answer a redirect — to the app's /sso/complete?code=… on success, or /sign-in?sso_error=… with
 * words to show. Every refusal is such a redirect; nothing a caller sends yields a 500.
 */

async function oidcCallback(c: Context, deps: AppDeps): Promise<Response> {
  const url = new URL(c.req.url);
  const state = url.searchParams.get('state');
  if (!state || state.length > 200) return redirectTo(c, errorLocation(EXPIRED_STATE_MESSAGE));
  // Single use: claimed before anything else, so a replayed callback finds nothing.
  const flow = await claimSignInState(deps.db, state, deps.now());
  if (!flow || (flow.kind !== 'oidc' && flow.kind !== 'google') || !flow.nonce || !flow.code_verifier) {
    return redirectTo(c, errorLocation(EXPIRED_STATE_MESSAGE));
  }
  try {
    let client: OidcClient;
    const provider = flow.provider_id ? await providerById(deps.db, flow.provider_id) : null;
    if (flow.kind === 'oidc') {
      if (!provider || provider.protocol !== 'oidc') throw new SsoRefused('Single sign-on is no longer set up for this email.');
      client = await oidcClientOf(deps.db, provider);
    } else {
      const google = deps.sso.google;
      if (!google) throw new SsoRefused('Sign-in with Google is not available on this server.');
      client = { metadata: await cachedDiscovery(google.issuer, deps.sso), clientId: google.clientId, clientSecret: google.clientSecret };
    }
    // The URL the IdP redirected to, on the public origin: its origin and path are the redirect URI.
    const callbackUrl = new URL(`${url.pathname}${url.search}`, publicOrigin(deps.sso, c.req.url));
    const { email } = await finishOidc(client, callbackUrl, { state, nonce: flow.nonce, codeVerifier: flow.code_verifier }, deps.sso);
    const code = await finishSignIn(deps, { kind: flow.kind, provider, email, redirect: flow.redirect });
    return redirectTo(c, completeLocation(code));
  } catch (err) {
    if (err instanceof SsoRefused || err instanceof OidcCallbackError) return redirectTo(c, errorLocation(err.message));
    // Google's discovery unreachable, and the like: not the person's doing.
    if (err instanceof ApiError) return redirectTo(c, errorLocation('Single sign-on is unavailable right now. Try again shortly.'));
    throw err;
  }
}

/** Mounts the browser routes on the app (createApp, before the catalogue). */
export function registerSsoBrowserRoutes(app: Hono, deps: AppDeps): void {
  app.get(SSO_BROWSER_PATHS.oidcCallback, (c) => oidcCallback(c, deps));
  registerSamlBrowserRoutes(app, deps);
}
