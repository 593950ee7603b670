import { beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { testDatabases } from '../../test-db.ts';
import { useTestApp } from '../../test-app.ts';
import { FIXTURE_PASSWORD, makeBusiness, refusal, request, signIn, type Fixture } from '../../test-fixtures.ts';

/**
 * Issue 32: developer applications, driven by oauth4webapi (an independent OAuth 2.0 client: its
 * PKCE, its token requests and its RFC 6749 error parsing), against the app in memory.
 */
const nowMs = Date.now();
const clock = { now: () => nowMs };
const REDIRECT = 'https://sync.example/callback';

type App = { app: { id: string; client_id: string; redirect_uris: string[]; connected_businesses: number }; secret: { client_secret: string } | null };

describe.each(await testDatabases())('developer applications on %s', (kind) => {
  const t = useTestApp(kind, { now: clock.now });
  const as: oauth.AuthorizationServer = { issuer: 'http://ledgerline.test', token_endpoint: 'http://ledgerline.test/v1/public/token' };
  const options = () => ({ [oauth.customFetch]: (url: string, init: RequestInit) => Promise.resolve(t.app.request(url, init)), [oauth.allowInsecureRequests]: true });
  let f: Fixture;
  let other: Fixture;
  let sensitive: string;
  let confidential: App;

  beforeAll(async () => {
    f = await makeBusiness(t.db, { transactions: 6 });
    other = await makeBusiness(t.db, { transactions: 3 });
    const up = await request(t.app, 'POST', '/v1/auth/users/current/step-up', { token: await signIn(t.app, f.email('admin')), body: { password: FIXTURE_PASSWORD } });
    sensitive = up.body.id_token;
    confidential = await register({ name: 'Acme Sync', client_type: 'confidential', redirect_uris: [REDIRECT], scopes: ['transactions:read', 'vendors:write'] });
  });

  async function register(body: Record<string, unknown>): Promise<App> {
    const res = await request<App>(t.app, 'POST', '/v1/auth/developer-apps', { token: sensitive, body });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }
  const clientOf = (a: App) => ({ client: { client_id: a.app.client_id }, auth: a.secret ? oauth.ClientSecretBasic(a.secret.client_secret) : oauth.None() });

  /** An admin of `fixture` allows the app: the consent call answers the redirect with code and state. */
  async function consent(a: App, opts: { fixture?: Fixture; scope?: string; redirect?: string } = {}) {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const admin = await signIn(t.app, (opts.fixture ?? f).email('admin'));
    const res = await request(t.app, 'POST', '/v1/auth/oauth/consents', {
      token: admin,
      body: {
        client_id: a.app.client_id, redirect_uri: opts.redirect ?? REDIRECT, scope: opts.scope ?? 'transactions:read vendors:write', state,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
      },
    });
    return { res, verifier, state, admin };
  }

  async function exchange(a: App, c: Awaited<ReturnType<typeof consent>>, verifier = c.verifier, redirect = REDIRECT) {
    const { client, auth } = clientOf(a);
    const params = oauth.validateAuthResponse(as, client, new URL(c.res.body.redirect_to as string), c.state);
    const res = await oauth.authorizationCodeGrantRequest(as, client, auth, params, redirect, verifier, options());
    return oauth.processAuthorizationCodeResponse(as, client, res);
  }
  async function refreshWith(a: App, token: string, scope?: string) {
    const { client, auth } = clientOf(a);
    const res = await oauth.refreshTokenGrantRequest(as, client, auth, token, { ...options(), ...(scope && { additionalParameters: { scope } }) });
    return oauth.processRefreshTokenResponse(as, client, res);
  }
  const oauthError = (p: Promise<unknown>) => p.then(() => 'no error', (e: unknown) => {
    if (e instanceof oauth.ResponseBodyError) return e.error;
    // A 401 with WWW-Authenticate (invalid_client) comes as a challenge: its status is what it says.
    return e instanceof oauth.WWWAuthenticateChallengeError ? String(e.status) : String(e);
  });
  const bearer = (path: string, token: string, method = 'GET', body?: unknown) =>
    request(t.app, method, path, { ...(body !== undefined && { body }), headers: { authorization: `Bearer ${token}` } });

  it('runs the whole flow: consent → code → tokens that read transactions as the admin, narrowed to the granted scopes', async () => {
    const c = await consent(confidential);
    expect(c.res.status, c.res.text).toBe(201);
    const redirect = new URL(c.res.body.redirect_to as string);
    expect(redirect.origin + redirect.pathname).toBe(REDIRECT);
    expect(redirect.searchParams.get('state')).toBe(c.state);
    const tokens = await exchange(confidential, c);
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'transactions:read vendors:write' });
    expect(tokens.refresh_token).toMatch(/^llrt_/);
    const list = await bearer('/v1/auth/transactions?page_size=50', tokens.access_token);
    expect(list.status, list.text).toBe(200);
    expect(list.body.data.map((x: { id: string }) => x.id).sort()).toEqual([...f.allTransactions].sort());
    // Outside the granted scopes, and a call no app ever makes.
    expect(refusal(await bearer(`/v1/auth/transactions/${f.allTransactions[0]}`, tokens.access_token, 'PATCH', { memo: 'x' }))).toEqual([403, 'FORBIDDEN_7003']);
    expect(refusal(await bearer('/v1/auth/developer-apps', tokens.access_token))).toEqual([403, 'FORBIDDEN_7003']);

    // Event history names the app, for the person who allowed it.
    const vendor = await bearer('/v1/auth/vendors', tokens.access_token, 'POST', { name: 'Synced Supplies' });
    expect(vendor.status, vendor.text).toBe(201);
    const [admin] = await t.db.query<{ name: string }>("SELECT trim(first_name || ' ' || last_name) AS name FROM spend_users WHERE id = $1", [f.users.admin]);
    const history = await request(t.app, 'GET', `/v1/auth/event-history/vendor/${vendor.body.id}`, { token: c.admin });
    expect(history.status, history.text).toBe(200);
    expect(history.body.data.at(-1).actor).toMatchObject({ kind: 'api_client', label: `Acme Sync (app, for ${admin!.name})` });

    const grants = await request(t.app, 'GET', '/v1/auth/oauth/grants', { token: c.admin });
    const grant = grants.body.data.find((g: { app: { client_id: string } }) => g.app.client_id === confidential.app.client_id);
    expect(grant).toMatchObject({ scopes: ['transactions:read', 'vendors:write'], allowed_by: { id: f.users.admin }, app: { name: 'Acme Sync' } });
    expect(grant.last_used_at).not.toBeNull();
  });

  it('refuses a wrong verifier, a redirect URI mismatch, and a code used twice (which revokes what it issued)', async () => {
    const wrong = await consent(confidential);
    expect(await oauthError(exchange(confidential, wrong, oauth.generateRandomCodeVerifier()))).toBe('invalid_grant');
    // The code is spent by the failed try: the right verifier no longer helps.
    expect(await oauthError(exchange(confidential, wrong))).toBe('invalid_grant');

    const mismatch = await consent(confidential);
    expect(await oauthError(exchange(confidential, mismatch, mismatch.verifier, 'https://sync.example/other'))).toBe('invalid_grant');

    const reused = await consent(confidential);
    const first = await exchange(confidential, reused);
    expect((await bearer('/v1/auth/transactions?page_size=1', first.access_token)).status).toBe(200);
    expect(await oauthError(exchange(confidential, reused))).toBe('invalid_grant');
    expect(refusal(await bearer('/v1/auth/transactions?page_size=1', first.access_token))).toEqual([401, 'AUTH_7002']);
    expect(await oauthError(refreshWith(confidential, first.refresh_token!))).toBe('invalid_grant');

    // Client authentication: a confidential app's code with a wrong secret, or none, is invalid_client.
    const c = await consent(confidential);
    const { client } = clientOf(confidential);
    const params = oauth.validateAuthResponse(as, client, new URL(c.res.body.redirect_to as string), c.state);
    const res = await oauth.authorizationCodeGrantRequest(as, client, oauth.ClientSecretBasic('llsk_wrong'), params, REDIRECT, c.verifier, options());
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('refuses a redirect URI the app did not register (shown, not redirected) and scopes it did not register', async () => {
    const info = await request(t.app, 'GET', `/v1/auth/oauth/apps/${confidential.app.client_id}?redirect_uri=${encodeURIComponent(REDIRECT)}`, { token: sensitive });
    expect(info.body).toMatchObject({ app: { name: 'Acme Sync', description: '' }, scopes: ['transactions:read', 'vendors:write'] });
    const bad = await request(t.app, 'GET', `/v1/auth/oauth/apps/${confidential.app.client_id}?redirect_uri=${encodeURIComponent(`${REDIRECT}/x`)}`, { token: sensitive });
    expect(refusal(bad)).toEqual([422, 'REQUEST_7001']);
    expect(bad.body.error_v2.errors.redirect_uri).toContain('not registered');
    expect(refusal((await consent(confidential, { redirect: `${REDIRECT}?x=1` })).res)).toEqual([422, 'REQUEST_7001']);
    const escalate = await consent(confidential, { scope: 'transactions:read bills:write' });
    expect(refusal(escalate.res)).toEqual([422, 'REQUEST_7001']);
    expect(escalate.res.body.error_v2.errors.scope).toContain('bills:write');
    // A refresh may narrow the scopes, never widen them.
    const tokens = await exchange(confidential, await consent(confidential, { scope: 'transactions:read' }));
    expect(await oauthError(refreshWith(confidential, tokens.refresh_token!, 'transactions:read vendors:write'))).toBe('invalid_scope');
    // Registration refuses a redirect URI that is neither https nor loopback http.
    const refused = await request(t.app, 'POST', '/v1/auth/developer-apps', {
      token: sensitive, body: { name: 'Bad', client_type: 'public', redirect_uris: ['http://evil.example/cb'], scopes: ['transactions:read'] },
    });
    expect(refusal(refused)).toEqual([422, 'REQUEST_7001']);
  });

  it('rotates refresh tokens; a spent one presented again revokes the grant', async () => {
    const tokens = await exchange(confidential, await consent(confidential));
    const second = await refreshWith(confidential, tokens.refresh_token!);
    expect(second.refresh_token).not.toBe(tokens.refresh_token);
    const third = await refreshWith(confidential, second.refresh_token!, 'transactions:read');
    expect(third.scope).toBe('transactions:read');
    expect((await bearer('/v1/auth/transactions?page_size=1', third.access_token)).status).toBe(200);
    expect(await oauthError(refreshWith(confidential, second.refresh_token!))).toBe('invalid_grant');
    expect(refusal(await bearer('/v1/auth/transactions?page_size=1', third.access_token))).toEqual([401, 'AUTH_7002']);
    expect(await oauthError(refreshWith(confidential, third.refresh_token!))).toBe('invalid_grant');
  });

  it('serves a public app with PKCE alone, in another business; Disconnect stops it; other businesses get 404', async () => {
    const native = await register({ name: 'Desk CLI', client_type: 'public', redirect_uris: ['http://127.0.0.1:8400/cb'], scopes: ['transactions:read'] });
    expect(native.secret).toBeNull();
    const c = await consent(native, { fixture: other, scope: 'transactions:read', redirect: 'http://127.0.0.1:8400/cb' });
    expect(c.res.status, c.res.text).toBe(201);
    const tokens = await exchange(native, c, c.verifier, 'http://127.0.0.1:8400/cb');
    const list = await bearer('/v1/auth/transactions?page_size=50', tokens.access_token);
    expect(list.body.data.map((x: { id: string }) => x.id).sort()).toEqual([...other.allTransactions].sort());
    expect(refusal(await bearer(`/v1/auth/transactions/${f.allTransactions[0]}`, tokens.access_token))).toEqual([404, 'REQUEST_7004']);

    const grants = await request(t.app, 'GET', '/v1/auth/oauth/grants', { token: c.admin });
    expect(grants.body.data).toHaveLength(1);
    const grantId = grants.body.data[0].id as string;
    // The publisher's admin neither sees nor disconnects another business's grant; nor may the other business touch the app.
    const publisher = await signIn(t.app, f.email('admin'));
    expect((await request(t.app, 'GET', '/v1/auth/oauth/grants', { token: publisher })).body.data.map((g: { id: string }) => g.id)).not.toContain(grantId);
    expect(refusal(await request(t.app, 'DELETE', `/v1/auth/oauth/grants/${grantId}`, { token: publisher }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'PATCH', `/v1/auth/developer-apps/${native.app.id}`, { token: c.admin, body: { name: 'Mine' } }))).toEqual([404, 'REQUEST_7004']);
    const apps = await request(t.app, 'GET', '/v1/auth/developer-apps', { token: publisher });
    expect(apps.body.data.find((a: { id: string }) => a.id === native.app.id).connected_businesses).toBe(1);

    expect((await request(t.app, 'DELETE', `/v1/auth/oauth/grants/${grantId}`, { token: c.admin })).status).toBe(200);
    expect(refusal(await bearer('/v1/auth/transactions?page_size=1', tokens.access_token))).toEqual([401, 'AUTH_7002']);
    expect(await oauthError(refreshWith(native, tokens.refresh_token!))).toBe('invalid_grant');
    expect((await request(t.app, 'GET', '/v1/auth/oauth/grants', { token: c.admin })).body.data).toEqual([]);
  });

  it('kills the grant when the person who allowed it is suspended or no longer an admin; employees cannot consent', async () => {
    const tokens = await exchange(confidential, await consent(confidential, { fixture: other }));
    expect((await bearer('/v1/auth/transactions?page_size=1', tokens.access_token)).status).toBe(200);
    await t.db.query("UPDATE spend_users SET status = 'SUSPENDED' WHERE id = $1", [other.users.admin]);
    expect(refusal(await bearer('/v1/auth/transactions?page_size=1', tokens.access_token))).toEqual([401, 'AUTH_7002']);
    expect(await oauthError(refreshWith(confidential, tokens.refresh_token!))).toBe('invalid_grant');
    await t.db.query("UPDATE spend_users SET status = 'ACTIVE', role = 'BUSINESS_USER' WHERE id = $1", [other.users.admin]);
    expect(refusal(await bearer('/v1/auth/transactions?page_size=1', tokens.access_token))).toEqual([401, 'AUTH_7002']);
    await t.db.query("UPDATE spend_users SET role = 'BUSINESS_ADMIN' WHERE id = $1", [other.users.admin]);

    const employee = await signIn(t.app, f.email('employee'));
    const res = await request(t.app, 'POST', '/v1/auth/oauth/consents', {
      token: employee,
      body: { client_id: confidential.app.client_id, redirect_uri: REDIRECT, scope: 'transactions:read', state: 's', code_challenge: 'a'.repeat(43), code_challenge_method: 'S256' },
    });
    expect(refusal(res)).toEqual([403, 'FORBIDDEN_7003']);
  });

  it('rotates an app secret, and deleting the app stops every grant', async () => {
    const tokens = await exchange(confidential, await consent(confidential));
    const rotated = await request<App>(t.app, 'POST', `/v1/auth/developer-apps/${confidential.app.id}/secrets`, { token: sensitive, body: {} });
    expect(rotated.status, rotated.text).toBe(201);
    expect(await oauthError(refreshWith(confidential, tokens.refresh_token!))).toContain('401');
    const fresh = { ...confidential, secret: rotated.body.secret };
    const next = await refreshWith(fresh, tokens.refresh_token!);
    expect((await request(t.app, 'DELETE', `/v1/auth/developer-apps/${confidential.app.id}`, { token: sensitive })).status).toBe(200);
    expect(refusal(await bearer('/v1/auth/transactions?page_size=1', next.access_token))).toEqual([401, 'AUTH_7002']);
    expect((await request(t.app, 'GET', '/v1/auth/oauth/grants', { token: sensitive })).body.data).toEqual([]);
  });
});
