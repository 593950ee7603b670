import { describe, expect, it } from 'vitest';
import { featureFlagsResponseSchema, FEATURE_FLAG_DEFAULTS } from '../../schema/feature-flags.ts';
import { setFeatureFlagOverrides } from '../auth/settings.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { FIXTURE_PASSWORD, makeBusiness, request, signIn } from '../test-fixtures.ts';
import { claimsOf, testClock } from './identity-test-kit.ts';

const clock = testClock();

describe.each(await testDatabases())('sessions, flags, impersonation and telemetry on %s', (kind) => {
  const t = useTestApp(kind, { now: clock.now });

  it.each(['/v1/auth/identity/id', '/v1/auth/users/current/full-auth-check'])('%s accepts only a token issued within 5 minutes', async (path) => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const token = await signIn(t.app, f.email('employee'));
    const fresh = await request(t.app, 'GET', path, { token });
    expect(fresh.status).toBe(200);
    clock.advance(5 * 60 * 1000 + 1000);
    expect((await request(t.app, 'GET', path, { token })).body.error_v2.error_code).toBe('AUTH_7016');
  });

  it('full-auth-check is not ok while MFA is pending', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    await t.db.query("UPDATE identities SET mfa_required = true WHERE lower(email) = $1", [f.email('employee')]);
    const res = await request(t.app, 'POST', '/v1/public/sign-in', { body: { email: f.email('employee'), password: FIXTURE_PASSWORD } });
    const check = await request(t.app, 'GET', '/v1/auth/users/current/full-auth-check', { token: res.body.id_token });
    expect(check.body).toEqual({ ok: false, mfa_required: true, mfa_authed: false });
    const id = await request(t.app, 'GET', '/v1/auth/identity/id', { token: res.body.id_token });
    expect(id.body.identity_id).toBe(claimsOf(res.body.id_token).sub);
  });

  it('sign-out revokes its session only; sign-out-all-sessions revokes every one', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const [a, b, c] = [await signIn(t.app, f.email('admin')), await signIn(t.app, f.email('admin')), await signIn(t.app, f.email('admin'))];
    expect((await request(t.app, 'POST', '/v1/auth/users/current/sign-out', { token: a, body: {} })).status).toBe(200);
    expect((await request(t.app, 'GET', '/v1/auth/identity', { token: a })).body.error_v2.error_code).toBe('AUTH_7003');
    expect((await request(t.app, 'GET', '/v1/auth/identity', { token: b })).status).toBe(200);
    const all = await request(t.app, 'POST', '/v1/auth/users/current/sign-out-all-sessions', { token: b, body: {} });
    expect(all.body).toEqual({ revoked: 2 });
    for (const tok of [b, c]) expect((await request(t.app, 'GET', '/v1/auth/identity', { token: tok })).status).toBe(401);
  });

  it('feature flags: defaults, then the business overrides; other businesses unaffected', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const g = await makeBusiness(t.db, { transactions: 0 });
    const token = await signIn(t.app, f.email('employee'));
    const before = await request(t.app, 'GET', '/v1/auth/feature_flags', { token });
    expect(featureFlagsResponseSchema.parse(before.body).flags).toEqual(FEATURE_FLAG_DEFAULTS);
    await setFeatureFlagOverrides(t.db, f.businessId, { auditor_role: true, bulk_bill_creation_limit: 10 });
    const after = await request(t.app, 'GET', '/v1/auth/feature_flags', { token });
    expect(after.body.flags).toMatchObject({ auditor_role: true, bulk_bill_creation_limit: 10, security_login_history: true });
    const other = await request(t.app, 'GET', '/v1/auth/feature_flags', { token: await signIn(t.app, g.email('employee')) });
    expect(other.body.flags.auditor_role).toBe(false);
    await expect(setFeatureFlagOverrides(t.db, f.businessId, { nope: true } as never)).rejects.toThrow();
  });

  // Support impersonation under a business's grant: support-access.test.ts.
  it('a normal write is audited without impersonator; a non-support user cannot impersonate', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const admin = await signIn(t.app, f.email('admin'));
    const res = await request(t.app, 'POST', '/v1/auth/impersonation/start', { token: admin, body: { user_id: f.users.employee } });
    expect(res.body.error_v2.error_code).toBe('FORBIDDEN_7003');
    const [row] = await t.db.query<Record<string, unknown>>(
      'SELECT spend_user_id, impersonator_email, call_id, status FROM audit_log WHERE spend_user_id = $1', [f.users.admin],
    );
    expect(row).toEqual({ spend_user_id: f.users.admin, impersonator_email: null, call_id: 'impersonation.start', status: 403 });
  });

  it('telemetry is stored sanitised and masked again on the server (204)', async () => {
    const marker = `evt-${kind}-${clock.ms}`;
    const res = await request(t.app, 'POST', '/v1/public/telemetry', {
      body: {
        events: [{
          name: marker,
          path: '/transactions/8d4e1c1a-1b7a-4a9c-9f3e-2f1f0a9b7c6d?code=secret-oauth-code&state=xyz&tab=all',
          props: { password: 'hunter2hunter2', note: 'card 4111 1111 1111 1111' },
          ts: new Date(clock.ms).toISOString(),
        }],
      },
    });
    expect(res.status).toBe(204);
    const [row] = await t.db.query<{ path: string; props: Record<string, string> }>('SELECT path, props FROM telemetry_events WHERE name = $1', [marker]);
    expect(row!.path).toBe('/transactions/:id?tab=all&sanitized_path=%2Ftransactions%2F%3Aid');
    expect(row!.props).toEqual({ password: '[masked]', note: 'card [masked]' });
  });

  it.each([
    ['more than 100 events', { events: Array.from({ length: 101 }, () => ({ name: 'x', path: '/', props: {}, ts: new Date().toISOString() })) }, 422],
    ['more than 64 KB', { events: [{ name: 'x', path: '/', props: { blob: 'a'.repeat(70_000) }, ts: new Date().toISOString() }] }, 413],
  ])('telemetry refuses %s', async (_n, body, status) => {
    expect((await request(t.app, 'POST', '/v1/public/telemetry', { body })).status).toBe(status);
  });

  it('error reports are masked before they are stored', async () => {
    // Letters only: long digit runs would themselves be masked as account numbers.
    const marker = `boom-${kind}-report`;
    const res = await request(t.app, 'POST', '/v1/public/errors', {
      body: { message: `${marker} for SSN 123-45-6789`, url: '/cards/123?oobCode=abc', context: { iban: 'DE89 3704 0044 0532 0130 00', token: 'eyJa.eyJb.sig' } },
    });
    expect(res.status).toBe(204);
    const [row] = await t.db.query<{ report: Record<string, unknown> }>("SELECT report FROM error_reports WHERE report->>'message' LIKE $1 ORDER BY id DESC LIMIT 1", [`${marker}%`]);
    expect(row!.report).toEqual({
      message: `${marker} for SSN [masked]`,
      url: '/cards/:id?sanitized_path=%2Fcards%2F%3Aid',
      context: { iban: '[masked]', token: '[masked]' },
    });
  });
});
