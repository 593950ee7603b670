import { beforeAll, describe, expect, it } from 'vitest';
import type { Hono } from 'hono';
import { testDatabases } from '../../test-db.ts';
import { useTestApp } from '../../test-app.ts';
import { FIXTURE_PASSWORD, makeBusiness, refusal, request, signIn, type Fixture } from '../../test-fixtures.ts';

let nowMs = Date.UTC(2026, 10, 30, 12, 0, 30);
const clock = { now: () => nowMs };

type Created = { client: { id: string; secrets: { id: string; hint: string }[] }; secret: { id: string; client_secret: string } };

/** POST /v1/public/token as a form, with HTTP Basic unless `basic` is false. */
async function tokenRequest(app: Hono, form: Record<string, string>, auth?: { id: string; secret: string }, headers: Record<string, string> = {}) {
  const h: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', ...headers };
  if (auth) h.authorization = `Basic ${Buffer.from(`${encodeURIComponent(auth.id)}:${encodeURIComponent(auth.secret)}`).toString('base64')}`;
  const res = await app.request('/v1/public/token', { method: 'POST', headers: h, body: new URLSearchParams(form).toString() });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

const bearer = (app: Hono, method: string, path: string, token: string, body?: unknown) =>
  request(app, method, path, { ...(body !== undefined && { body }), headers: { authorization: `Bearer ${token}` } });

describe.each(await testDatabases())('customer API clients on %s', (kind) => {
  const t = useTestApp(kind, { now: clock.now });
  let f: Fixture;
  let other: Fixture;
  let admin: string;
  let sensitive: string;

  beforeAll(async () => {
    f = await makeBusiness(t.db, { transactions: 12 });
    other = await makeBusiness(t.db, { transactions: 2 });
    admin = await signIn(t.app, f.email('admin'));
    const up = await request(t.app, 'POST', '/v1/auth/users/current/step-up', { token: admin, body: { password: FIXTURE_PASSWORD } });
    sensitive = up.body.id_token;
  });

  async function createClient(body: Record<string, unknown>): Promise<Created> {
    const res = await request<Created>(t.app, 'POST', '/v1/auth/clients', { token: sensitive, body });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }
  async function accessToken(c: Created, scope?: string): Promise<string> {
    const res = await tokenRequest(t.app, { grant_type: 'client_credentials', ...(scope && { scope }) }, { id: c.client.id, secret: c.secret.client_secret });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.access_token as string;
  }

  it('creates a client whose secret is shown once, then only as a hint; creating needs a step-up and an admin', async () => {
    expect(refusal(await request(t.app, 'POST', '/v1/auth/clients', { token: admin, body: { name: 'x', scopes: ['transactions:read'] } })))
      .toEqual([403, 'AUTH_7016']);
    const employee = await signIn(t.app, f.email('employee'));
    expect(refusal(await request(t.app, 'GET', '/v1/auth/clients', { token: employee }))).toEqual([403, 'FORBIDDEN_7003']);
    const c = await createClient({ name: 'Warehouse sync', scopes: ['transactions:read'] });
    expect(c.secret.client_secret).toMatch(/^llsk_[A-Za-z0-9_-]{43}$/);
    expect(c.client).toMatchObject({ name: 'Warehouse sync', scopes: ['transactions:read'], rate_limit_per_minute: 600, expires_at: null });
    expect(c.client.secrets[0]!.hint).toBe(`llsk_…${c.secret.client_secret.slice(-4)}`);
    const listed = await request(t.app, 'GET', '/v1/auth/clients', { token: admin });
    expect(listed.text).not.toContain(c.secret.client_secret);
    expect(listed.body.data.map((x: { id: string }) => x.id)).toContain(c.client.id);
    const stored = await t.db.query<{ secret_hash: string }>('SELECT secret_hash FROM api_client_secrets WHERE id = $1', [c.secret.id]);
    expect(stored[0]!.secret_hash).not.toContain(c.secret.client_secret);
  });

  it('issues a bearer token (Basic or body credentials) that reads transactions and is refused a write it has no scope for', async () => {
    const c = await createClient({ name: 'Reader', scopes: ['transactions:read', 'vendors:write'] });
    const res = await tokenRequest(t.app, { grant_type: 'client_credentials', scope: 'transactions:read' }, { id: c.client.id, secret: c.secret.client_secret });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'transactions:read' });
    const token = res.body.access_token as string;
    const list = await bearer(t.app, 'GET', '/v1/auth/transactions?page_size=5', token);
    expect(list.status, list.text).toBe(200);
    expect(list.body.data.length).toBe(5);
    // The same token in RAMP-ID-TOKEN works too.
    expect((await request(t.app, 'GET', '/v1/auth/transactions?page_size=1', { token })).status).toBe(200);
    const txn = f.allTransactions[0]!;
    const write = await bearer(t.app, 'PATCH', `/v1/auth/transactions/${txn}`, token, { memo: 'from the API' });
    expect(refusal(write)).toEqual([403, 'FORBIDDEN_7003']);
    expect(write.body.error_v2.message).toContain('transactions:write');
    // Asked for transactions:read only, so the client's vendors:write is not on this token.
    expect(refusal(await bearer(t.app, 'POST', '/v1/auth/vendors', token, { name: 'Acme' }))).toEqual([403, 'FORBIDDEN_7003']);
    // Never an API client's: its own management, sign-out, the sync feed.
    expect(refusal(await bearer(t.app, 'GET', '/v1/auth/clients', token))).toEqual([403, 'FORBIDDEN_7003']);
    expect(refusal(await bearer(t.app, 'GET', '/v1/auth/sync/changes', token))).toEqual([403, 'FORBIDDEN_7003']);
    // Body credentials, all the client's scopes.
    const body = await tokenRequest(t.app, { grant_type: 'client_credentials', client_id: c.client.id, client_secret: c.secret.client_secret });
    expect(body.body.scope).toBe('transactions:read vendors:write');
    const vendor = await bearer(t.app, 'POST', '/v1/auth/vendors', body.body.access_token as string, { name: 'Acme API' });
    expect(vendor.status, vendor.text).toBe(201);
  });

  it('answers RFC 6749 errors at the token endpoint', async () => {
    const c = await createClient({ name: 'Errors', scopes: ['bills:read'] });
    const auth = { id: c.client.id, secret: c.secret.client_secret };
    const wrong = await tokenRequest(t.app, { grant_type: 'client_credentials' }, { id: c.client.id, secret: 'llsk_wrong' });
    expect([wrong.status, wrong.body.error]).toEqual([401, 'invalid_client']);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect((await tokenRequest(t.app, { grant_type: 'client_credentials' })).body.error).toBe('invalid_client');
    expect((await tokenRequest(t.app, { grant_type: 'client_credentials' }, { id: other.businessId, secret: c.secret.client_secret })).status).toBe(401);
    expect(await tokenRequest(t.app, { grant_type: 'password' }, auth)).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
    expect(await tokenRequest(t.app, {}, auth)).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(await tokenRequest(t.app, { grant_type: 'client_credentials', scope: 'bills:read bills:write' }, auth))
      .toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
    const both = await tokenRequest(t.app, { grant_type: 'client_credentials', client_id: c.client.id, client_secret: c.secret.client_secret }, auth);
    expect(both).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    const json = await t.app.request('/v1/public/token', {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: c.client.id, client_secret: c.secret.client_secret }),
    });
    expect(json.status).toBe(200);
    const text = await t.app.request('/v1/public/token', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'grant_type=client_credentials' });
    expect(text.status).toBe(400);
    // A forged token (id-token shape, or signed with another key) is a 401, never a 500.
    expect(refusal(await bearer(t.app, 'GET', '/v1/auth/transactions', 'eyJhbGciOiJIUzI1NiJ9.eyJhdWQiOiJsZWRnZXJsaW5lLWFwaS1jbGllbnQifQ.x')))
      .toEqual([401, 'AUTH_7002']);
  });

  it('revoking a secret or deleting the client stops its tokens at once; both need a step-up; another business gets 404', async () => {
    const c = await createClient({ name: 'Rotating', scopes: ['transactions:read'] });
    const token = await accessToken(c);
    const rotated = await request<Created>(t.app, 'POST', `/v1/auth/clients/${c.client.id}/secrets`, { token: sensitive, body: { revoke_existing: true } });
    expect(rotated.status).toBe(201);
    const gone = await bearer(t.app, 'GET', '/v1/auth/transactions', token);
    expect(refusal(gone)).toEqual([401, 'AUTH_7002']);
    expect(gone.headers.get('www-authenticate')).toContain('invalid_token');
    expect((await tokenRequest(t.app, { grant_type: 'client_credentials' }, { id: c.client.id, secret: c.secret.client_secret })).status).toBe(401);
    const fresh = await accessToken({ ...c, secret: rotated.body.secret });
    expect((await bearer(t.app, 'GET', '/v1/auth/transactions', fresh)).status).toBe(200);

    const otherOwner = await signIn(t.app, other.email('owner'));
    const up = await request(t.app, 'POST', '/v1/auth/users/current/step-up', { token: otherOwner, body: { password: FIXTURE_PASSWORD } });
    const foreign = up.body.id_token as string;
    expect(refusal(await request(t.app, 'GET', `/v1/auth/clients/${c.client.id}`, { token: foreign }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'DELETE', `/v1/auth/clients/secrets/${rotated.body.secret.id}`, { token: foreign }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'DELETE', `/v1/auth/clients/${c.client.id}`, { token: foreign }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'DELETE', `/v1/auth/clients/${c.client.id}`, { token: admin }))).toEqual([403, 'AUTH_7016']);

    const revoked = await request(t.app, 'DELETE', `/v1/auth/clients/secrets/${rotated.body.secret.id}`, { token: sensitive });
    expect(revoked.status).toBe(200);
    expect(refusal(await bearer(t.app, 'GET', '/v1/auth/transactions', fresh))).toEqual([401, 'AUTH_7002']);

    const again = await request<Created>(t.app, 'POST', `/v1/auth/clients/${c.client.id}/secrets`, { token: sensitive, body: {} });
    const last = await accessToken({ ...c, secret: again.body.secret });
    expect((await request(t.app, 'DELETE', `/v1/auth/clients/${c.client.id}`, { token: sensitive })).body).toEqual({ id: c.client.id, deleted: true });
    expect(refusal(await bearer(t.app, 'GET', '/v1/auth/transactions', last))).toEqual([401, 'AUTH_7002']);
    expect(refusal(await request(t.app, 'GET', `/v1/auth/clients/${c.client.id}`, { token: admin }))).toEqual([404, 'REQUEST_7004']);
  });

  it('stops when the admin it acts as is suspended, and refuses an expiry in the past', async () => {
    const owner = await signIn(t.app, f.email('owner'));
    const ownerUp = (await request(t.app, 'POST', '/v1/auth/users/current/step-up', { token: owner, body: { password: FIXTURE_PASSWORD } })).body.id_token;
    const res = await request<Created>(t.app, 'POST', '/v1/auth/clients', { token: ownerUp, body: { name: 'Owner app', scopes: ['cards:read'] } });
    const token = await accessToken(res.body);
    expect((await bearer(t.app, 'GET', '/v1/auth/cards', token)).status).toBe(200);
    await t.db.query(`UPDATE spend_users SET status = 'SUSPENDED' WHERE id = $1`, [f.users.owner]);
    try {
      expect(refusal(await bearer(t.app, 'GET', '/v1/auth/cards', token))).toEqual([401, 'AUTH_7002']);
    } finally {
      await t.db.query(`UPDATE spend_users SET status = 'ACTIVE' WHERE id = $1`, [f.users.owner]);
    }
    const past = await request(t.app, 'POST', '/v1/auth/clients', { token: sensitive, body: { name: 'Old', scopes: ['cards:read'], expires_at: '2020-01-01T00:00:00Z' } });
    expect(refusal(past)).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await request(t.app, 'POST', '/v1/auth/clients', { token: sensitive, body: { name: 'Bad', scopes: ['cards:delete'] } })))
      .toEqual([422, 'REQUEST_7001']);
  });

  it('rate limits per client per minute with 429 and Retry-After, and records each call with its status', async () => {
    const c = await createClient({ name: 'Limited', scopes: ['transactions:read'], rate_limit_per_minute: 3 });
    const token = await accessToken(c); // the token request is the first of 3
    expect((await bearer(t.app, 'GET', '/v1/auth/transactions?page_size=1', token)).status).toBe(200);
    expect(refusal(await bearer(t.app, 'PATCH', `/v1/auth/transactions/${f.allTransactions[1]}`, token, { memo: 'x' }))).toEqual([403, 'FORBIDDEN_7003']);
    const limited = await bearer(t.app, 'GET', '/v1/auth/transactions?page_size=1', token);
    expect(refusal(limited)).toEqual([429, 'QUOTA_EXCEEDED']);
    expect(Number(limited.headers.get('retry-after'))).toBe(30);
    nowMs += 60_000;
    expect((await bearer(t.app, 'GET', '/v1/auth/transactions?page_size=1', token)).status).toBe(200);

    const got = await request(t.app, 'GET', `/v1/auth/clients/${c.client.id}`, { token: admin });
    expect(got.status).toBe(200);
    expect(got.body.recent_requests.map((r: { call_id: string; status: number }) => [r.call_id, r.status])).toEqual([
      ['transactions.list', 200], ['transactions.list', 429], ['transactions.patch', 403], ['transactions.list', 200], ['oauth.token', 200],
    ]);
    expect(got.body.usage).toEqual({ requests_24h: 5, errors_24h: 2, throttled_24h: 1 });
    expect(got.body.client.secrets[0].last_used_at).not.toBeNull();
  });

  it('a write made through a client is done with the admin’s rights and audited', async () => {
    const c = await createClient({ name: 'Coder', scopes: ['transactions:write'] });
    const token = await accessToken(c);
    const txn = f.allTransactions[2]!;
    const res = await bearer(t.app, 'PATCH', `/v1/auth/transactions/${txn}`, token, { memo: 'coded by the API' });
    expect(res.status, res.text).toBe(200);
    const audit = await t.db.query<{ call_id: string; status: number }>(
      `SELECT call_id, status FROM audit_log WHERE business_id = $1 AND call_id = 'transactions.patch' ORDER BY id DESC LIMIT 1`, [f.businessId],
    );
    expect(audit[0]).toEqual({ call_id: 'transactions.patch', status: 200 });
  });
});
