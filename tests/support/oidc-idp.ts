/**
 * A real OpenID Connect identity provider for tests, on 127.0.0.1 (random port): `oidc-provider`
 * (the certified Node implementation) with an RS256 key made at start, authorization code + PKCE,
 * and a real interaction page — a form asking for an email with a "Sign in" button — so a
 * browser (e2e) goes through it as a person would; consent is granted automatically. Server tests
 * run the same flow without a browser through `headlessOidcSignIn` (fetch, a cookie jar, the form
 * posted).
 *
 *   const idp = await startOidcIdp({ clients: [{ client_id: 'app', client_secret: 's', redirect_uris: [cb] }] });
 *   … configure `idp.issuer` as the provider's issuer …
 *   const callbackUrl = await headlessOidcSignIn(authorizationUrl, 'ada@example.com');
 *
 * Accounts: any email signs in, with `email_verified: true`, unless `accounts` says otherwise for
 * it (`email_verified: false`); `onlyAccounts` refuses every email not listed (told so on the
 * page). `setAccount` adds or changes one while the IdP runs.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type ClientMetadata, type Configuration } from 'oidc-provider';

export type OidcIdpAccount = { email: string; email_verified?: boolean };
export type OidcIdpOptions = {
  clients: ClientMetadata[];
  accounts?: OidcIdpAccount[];
  /** Refuse emails not in `accounts` (default false: any email signs in, verified). */
  onlyAccounts?: boolean;
  /** The email the form shows prefilled (e2e: one click on "Sign in"). */
  loginAs?: string;
};
export type OidcIdp = {
  /** http://127.0.0.1:<port> — the issuer (discovery at /.well-known/openid-configuration). */
  issuer: string;
  setAccount(account: OidcIdpAccount): void;
  loginAs(email: string | null): void;
  close(): Promise<void>;
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function loginPage(uid: string, clientId: string, email: string, error: string | null): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test identity provider — sign in</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 24rem; margin: 3rem auto; padding: 0 1rem">
<h1>Test identity provider</h1>
<p>Sign in to continue to <strong>${escapeHtml(clientId)}</strong>.</p>
${error ? `<p role="alert" style="color: #b00020">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
  <label for="email">Email</label><br>
  <input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(email)}" style="width: 100%; padding: .5rem"><br><br>
  <button type="submit">Sign in</button>
</form></body></html>`;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startOidcIdp(opts: OidcIdpOptions): Promise<OidcIdp> {
  const accounts = new Map((opts.accounts ?? []).map((a) => [a.email.toLowerCase(), a]));
  let prefill = opts.loginAs ?? null;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test-idp', use: 'sig', alg: 'RS256' };

  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const configuration: Configuration = {
    clients: opts.clients.map((c) => ({ response_types: ['code'], grant_types: ['authorization_code'], ...c })),
    jwks: { keys: [jwk] },
    cookies: { keys: ['test-idp-cookie-key'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    scopes: ['openid', 'email', 'profile'],
    // The id token carries the email (as Google's does), not only the userinfo endpoint.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({ sub, email: sub, email_verified: accounts.get(sub)?.email_verified ?? true }),
    }),
    // Consent is granted automatically: every client gets the scopes it asks for.
    loadExistingGrant: async (ctx) => {
      const accountId = ctx.oidc.session?.accountId;
      const clientId = ctx.oidc.client?.clientId;
      if (!accountId || !clientId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  };
  const provider = new Provider(issuer, configuration);
  const callback = provider.callback();

  async function interaction(req: IncomingMessage, res: ServerResponse, uid: string, action: string | undefined): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) throw new Error('interaction mismatch');
    const clientId = String(details.params.client_id ?? '');
    if (req.method === 'GET' && !action) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(loginPage(uid, clientId, prefill ?? '', null));
      return;
    }
    if (req.method === 'POST' && action === 'login') {
      const email = ((await readForm(req)).get('email') ?? '').trim().toLowerCase();
      if (!email || (opts.onlyAccounts && !accounts.has(email))) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(loginPage(uid, clientId, email, email ? 'No account at this identity provider uses this email.' : 'Enter an email.'));
        return;
      }
      await provider.interactionFinished(req, res, { login: { accountId: email } }, { mergeWithLastSubmission: false });
      return;
    }
    res.writeHead(405).end();
  }

  server.on('request', (req, res) => {
    const match = /^\/interaction\/([^/?]+)(?:\/([a-z]+))?/.exec(req.url ?? '');
    if (!match) {
      callback(req, res);
      return;
    }
    interaction(req, res, match[1]!, match[2]).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(`interaction failed: ${err instanceof Error ? err.message : String(err)}`);
    });
  });

  return {
    issuer,
    setAccount(account) {
      accounts.set(account.email.toLowerCase(), account);
    },
    loginAs(email) {
      prefill = email;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Runs the browser's part of a sign-in without a browser: opens `authorizationUrl`, follows the
 * IdP's redirects with its cookies, posts the interaction form with `email`, and answers the first
 * URL outside the IdP (the relying party's callback with `code` and `state`, or its error).
 */
export async function headlessOidcSignIn(authorizationUrl: string, email: string): Promise<string> {
  const start = new URL(authorizationUrl);
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  };
  let url = start;
  let init: RequestInit = {};
  for (let hop = 0; hop < 20; hop++) {
    if (url.origin !== start.origin) return url.href;
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: cookieHeader() } });
    keep(res);
    init = {};
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      url = new URL(location, url);
      continue;
    }
    const html = await res.text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (res.status !== 200 || !action) throw new Error(`the identity provider answered ${res.status}: ${html.slice(0, 300)}`);
    if (html.includes('role="alert"')) throw new Error(`the identity provider refused the sign-in: ${/role="alert"[^>]*>([^<]*)/.exec(html)?.[1]}`);
    url = new URL(action.replace(/&#(\d+);/g, (_m, c: string) => String.fromCharCode(Number(c))), url);
    init = { method: 'POST', body: new URLSearchParams({ email }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
  }
  throw new Error('too many redirects at the identity provider');
}
