import type { GoogleClient, SsoSettings } from '../../core/deps.ts';

/** What createApp may set; anything left out comes from the environment. */
export type SsoOptions = { publicUrl?: string | null; allowLoopbackHttp?: boolean; google?: GoogleClient | null; dnsServer?: string | null };

const GOOGLE_ISSUER = 'https://accounts.google.com';

/**
 * The SSO settings of this process:
 * - `PUBLIC_URL`: the origin people reach the server at (https://ledgerline.example.com). OIDC
 *   redirect URIs and SAML entity ids / ACS URLs are built on it; unset, each request's own origin
 *   is used (fine for one origin; set it behind a proxy, or the IdP sees an internal address).
 * - `SSO_ALLOW_LOOPBACK_HTTP` (1|true): whether server-side fetches (server/core/outbound-fetch.ts)
 *   may reach loopback addresses (127.0.0.0/8, ::1, localhost), and those over plain http — for
 *   the tests' local IdPs and development. Off by default in every mode (NODE_ENV plays no part);
 *   private, link-local and other inside addresses are refused even with it.
 * - `LEDGERLINE_DNS_SERVER` (host:port, e.g. 127.0.0.1:5353): the DNS server asked for domain
 *   proofs (TXT) and the names of outbound fetches; unset, the system's resolver.
 * - `GOOGLE_CLIENT_ID` + `GOOGLE_CLIENT_SECRET` (+ `GOOGLE_ISSUER`, default Google's): sign in
 *   with Google; without both the web config says `googleSignIn: false`.
 */
export function resolveSsoSettings(opts: SsoOptions = {}, env: NodeJS.ProcessEnv = process.env): SsoSettings {
  const flag = env.SSO_ALLOW_LOOPBACK_HTTP;
  const loopbackFromEnv = flag === '1' || flag?.toLowerCase() === 'true';
  const googleFromEnv = env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
    ? { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET, issuer: env.GOOGLE_ISSUER || GOOGLE_ISSUER }
    : null;
  const publicUrl = opts.publicUrl !== undefined ? opts.publicUrl : env.PUBLIC_URL || null;
  return {
    publicUrl: publicUrl ? new URL(publicUrl).origin : null,
    allowLoopbackHttp: opts.allowLoopbackHttp ?? loopbackFromEnv,
    google: opts.google !== undefined ? opts.google : googleFromEnv,
    dnsServer: opts.dnsServer !== undefined ? opts.dnsServer : env.LEDGERLINE_DNS_SERVER || null,
  };
}

/** The origin SSO URLs are built on: PUBLIC_URL when set, else the request's own. */
export const publicOrigin = (settings: SsoSettings, requestUrl: string): string => settings.publicUrl ?? new URL(requestUrl).origin;
