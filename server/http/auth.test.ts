import { Hono } from 'hono';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { currentIdentity } from '../../schema/api/calls.ts';
import { defineCall } from '../../schema/api/define-call.ts';
import { tokenClaimsSchema } from '../../schema/api/scopes.ts';
import { errorV2Schema } from '../../schema/errors.ts';
import { signIdToken } from '../auth/tokens.ts';
import { testDatabases } from '../test-db.ts';
import { TEST_TOKEN_SECRET, useTestApp } from '../test-app.ts';
import { FIXTURE_PASSWORD, makeBusiness, request, signIn, type Fixture } from '../test-fixtures.ts';
import { ok } from './handler.ts';
import { register } from './register.ts';

const key = new TextEncoder().encode(TEST_TOKEN_SECRET);
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A token as the server would sign it, with overrides (scopes, age, session). */
async function craftToken(f: Fixture, sessionId: string, overrides: Partial<z.input<typeof tokenClaimsSchema>> = {}, iat = nowSeconds()) {
  const { iat: _iat, exp: _exp, ...rest } = {
    sub: '', ramp_user_uuid: f.users.admin, ramp_access_scopes: ['default'], ramp_mfa_required: false,
    ramp_mfa_authed: false, ramp_session_id: sessionId, sign_in_provider: 'password' as const,
    business_id: f.businessId, iat: 0, exp: 0, ...overrides,
  };
  return signIdToken(key, rest, iat);
}

describe.each(await testDatabases())('auth on %s', (kind) => {
  const t = useTestApp(kind);

  async function sessionOf(token: string) {
    const claims = decodeJwt(token);
    return { sub: claims.sub as string, session: claims.ramp_session_id as string };
  }

  it('signs in with the spec claims and a 12 h token', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const res = await request(t.app, 'POST', '/v1/public/sign-in', { body: { email: f.email('admin').toUpperCase(), password: FIXTURE_PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body.mfa_required).toBe(false);
    const claims = tokenClaimsSchema.strict().parse(decodeJwt(res.body.id_token));
    expect(claims).toMatchObject({
      ramp_user_uuid: f.users.admin, ramp_access_scopes: ['default'], ramp_mfa_required: false,
      ramp_mfa_authed: false, sign_in_provider: 'password', business_id: f.businessId,
    });
    expect(claims.exp - claims.iat).toBe(12 * 3600);
    const [session] = await t.db.query<{ identity_id: string }>('SELECT identity_id FROM sessions WHERE id = $1', [claims.ramp_session_id]);
    expect(session?.identity_id).toBe(claims.sub);
  });

  it.each([
    ['a wrong password', (f: Fixture) => ({ email: f.email('admin'), password: 'wrong-password' })],
    ['an unknown email', () => ({ email: 'nobody@nowhere.test', password: FIXTURE_PASSWORD })],
  ])('refuses %s with AUTH_7001 and one message', async (_name, body) => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const res = await request(t.app, 'POST', '/v1/public/sign-in', { body: body(f) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error_v2: { error_code: 'AUTH_7001', message: 'The email or password is incorrect.' } });
  });

  it.each([
    ['no token', undefined],
    ['garbage', 'not-a-jwt'],
    ['a token signed with another key', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl'],
  ])('answers %s with 401 AUTH_7002', async (_name, token) => {
    const res = await request(t.app, 'GET', '/v1/auth/businesses/departments', { token });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error_v2: { error_code: 'AUTH_7002', message: 'Failed to resolve authenticated state' } });
  });

  it('refuses an expired token', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const { sub, session } = await sessionOf(await signIn(t.app, f.email('admin')));
    const old = await craftToken(f, session, { sub }, nowSeconds() - 13 * 3600);
    const res = await request(t.app, 'GET', '/v1/auth/businesses/departments', { token: old });
    expect(res.body.error_v2.error_code).toBe('AUTH_7002');
  });

  it('revokes the session on sign-out (AUTH_7003 afterwards)', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const token = await signIn(t.app, f.email('employee'));
    expect((await request(t.app, 'GET', '/v1/auth/identity', { token })).status).toBe(200);
    expect((await request(t.app, 'POST', '/v1/auth/users/current/sign-out', { token })).body).toEqual({ ok: true });
    const after = await request(t.app, 'GET', '/v1/auth/identity', { token });
    expect(after.status).toBe(401);
    expect(after.body.error_v2.error_code).toBe('AUTH_7003');
  });

  it('refuses a token without the scope a call needs (AUTH_7016) and accepts an allowed one', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const { sub, session } = await sessionOf(await signIn(t.app, f.email('admin')));
    const extension = await craftToken(f, session, { sub, ramp_access_scopes: ['chrome-extension'] });
    const refused = await request(t.app, 'GET', '/v1/auth/businesses/departments', { token: extension });
    expect(refused.status).toBe(403);
    expect(refused.body.error_v2.error_code).toBe('AUTH_7016');
    // The identity call allows chrome-extension.
    expect((await request(t.app, 'GET', '/v1/auth/identity', { token: extension })).status).toBe(200);
  });

  it('answers the current identity per the catalogue schema', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const res = await request(t.app, 'GET', '/v1/auth/identity', { token: await signIn(t.app, f.email('manager')) });
    const body = currentIdentity.response.parse(res.body);
    expect(body.user).toMatchObject({ id: f.users.manager, role: 'BUSINESS_USER', is_manager: true });
    expect(body.identity.email).toBe(f.email('manager'));
    expect(body.business?.id).toBe(f.businessId);
  });

  it('applies the recent-token rule (token issued within 5 minutes)', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const { sub, session } = await sessionOf(await signIn(t.app, f.email('admin')));
    const recentCall = defineCall({ id: 'test.recent', method: 'GET', path: '/v1/auth/test-recent', auth: 'recent-token', response: z.object({}) });
    const app = new Hono();
    register(app, t.app.deps, recentCall, async () => ok({}));
    app.onError((err, c) => c.json(errorV2Schema.parse((err as unknown as { body: unknown }).body), 403));
    const fresh = await craftToken(f, session, { sub });
    const stale = await craftToken(f, session, { sub }, nowSeconds() - 6 * 60);
    expect((await app.request('/v1/auth/test-recent', { headers: { 'RAMP-ID-TOKEN': fresh } })).status).toBe(200);
    const res = await app.request('/v1/auth/test-recent', { headers: { 'RAMP-ID-TOKEN': stale } });
    expect(((await res.json()) as { error_v2: { error_code: string } }).error_v2.error_code).toBe('AUTH_7016');
  });
});
