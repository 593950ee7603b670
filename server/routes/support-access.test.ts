import { describe, expect, it } from 'vitest';
import { SUPPORT_EMAIL } from '../seed/support.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { FIXTURE_PASSWORD, makeBusiness, request, signIn } from '../test-fixtures.ts';
import { claimsOf, testClock } from './identity-test-kit.ts';
import { grantSupport, supportToken } from './support-test-kit.ts';

const clock = testClock();
const SUPPORT_ACCESS = '/v1/auth/businesses/support-access';
const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(await testDatabases())('support access by grant on %s', (kind) => {
  const t = useTestApp(kind, { now: clock.now, devOutbox: true });
  const impersonate = (support: string, userId: string) =>
    request(t.app, 'POST', '/v1/auth/impersonation/start', { token: support, body: { user_id: userId } });

  it('without a grant impersonation is refused (403), and support cannot act before its second factor', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const support = await supportToken(t.app, t.db, clock);
    expect(claimsOf(support)).toMatchObject({ ramp_mfa_required: true, ramp_mfa_authed: true });
    const res = await impersonate(support, f.users.employee);
    expect(res.status).toBe(403);
    expect(res.body.error_v2.error_code).toBe('SUPPORT_7001');
    // A sign-in still waiting for the second factor has no scope at all.
    const pending = await request(t.app, 'POST', '/v1/public/sign-in', { body: { email: SUPPORT_EMAIL, password: 'support-test-password-1' } });
    expect(pending.body.mfa_required).toBe(true);
    expect((await impersonate(pending.body.id_token, f.users.employee)).body.error_v2.error_code).toBe('AUTH_7016');
  });

  it('a read-only grant: reads work, writes and every security or email-code call are refused (403), refusals audited with both people', async () => {
    const f = await makeBusiness(t.db, { transactions: 5 });
    await grantSupport(t.app, await signIn(t.app, f.email('admin')), { days: 1 });
    const start = await impersonate(await supportToken(t.app, t.db, clock), f.users.employee);
    expect(start.status, start.text).toBe(200);
    const token = start.body.id_token as string;
    expect(claimsOf(token)).toMatchObject({ ramp_user_uuid: f.users.employee, business_id: f.businessId, impersonator: { email: SUPPORT_EMAIL } });

    const me = await request(t.app, 'GET', '/v1/auth/identity', { token });
    expect(me.status).toBe(200);
    expect(me.body.user.impersonator).toEqual({ email: SUPPORT_EMAIL });
    const txId = f.transactions.employee[0]!;
    expect((await request(t.app, 'GET', `/v1/auth/transactions/${txId}`, { token })).status).toBe(200);

    const write = await request(t.app, 'PATCH', `/v1/auth/transactions/${txId}`, { token, body: { memo: 'changed by support' } });
    expect(write.status).toBe(403);
    expect(write.body.error_v2.error_code).toBe('SUPPORT_7002');
    const [memo] = await t.db.query<{ memo: string | null }>('SELECT memo FROM transactions WHERE id = $1', [txId]);
    expect(memo!.memo).not.toBe('changed by support');

    const security: [string, string, unknown][] = [
      ['POST', '/v1/auth/users/current/step-up', { password: FIXTURE_PASSWORD }],
      ['POST', '/v1/auth/users/current/send-email-otp', {}],
      ['POST', '/v1/auth/users/current/verify-email-otp', { code: '123456' }],
      ['POST', '/v1/auth/users/current/set-phone-number', { phone_number: '+15555550100' }],
      ['POST', '/v1/auth/authentication/tokens/totp', {}],
      ['POST', '/v1/auth/authentication/tokens/webauthn/registration/options', {}],
      ['POST', '/v1/auth/users/current/email-verification/send', {}],
      ['POST', '/v1/auth/users/current/sign-out-all-sessions', {}],
      ['GET', SUPPORT_ACCESS, undefined],
      ['POST', SUPPORT_ACCESS, { days: 14, allow_writes: true }],
    ];
    for (const [method, path, body] of security) {
      const res = await request(t.app, method, path, { token, ...(body !== undefined && { body }) });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error_v2.error_code, `${method} ${path}`).toBe('SUPPORT_7003');
    }
    const [audited] = await t.db.query<Record<string, unknown>>(
      `SELECT spend_user_id, impersonator_email, status FROM audit_log WHERE business_id = $1 AND call_id = 'transactions.patch'`,
      [f.businessId],
    );
    expect(audited).toEqual({ spend_user_id: f.users.employee, impersonator_email: SUPPORT_EMAIL, status: 403 });
    // Ending the impersonation session is always allowed.
    expect((await request(t.app, 'POST', '/v1/auth/users/current/sign-out', { token, body: {} })).status).toBe(200);
  });

  it('a write grant: a write lands and its audit row names both people; security calls stay refused', async () => {
    const f = await makeBusiness(t.db, { transactions: 5 });
    await grantSupport(t.app, await signIn(t.app, f.email('owner')), { days: 2, allow_writes: true });
    const start = await impersonate(await supportToken(t.app, t.db, clock), f.users.employee);
    const token = start.body.id_token as string;
    const txId = f.transactions.employee[0]!;
    const patch = await request(t.app, 'PATCH', `/v1/auth/transactions/${txId}`, { token, body: { memo: 'fixed by support' } });
    expect(patch.status, patch.text).toBe(200);
    const rows = await t.db.query<Record<string, unknown>>(
      'SELECT spend_user_id, business_id, impersonator_email, call_id, method, status FROM audit_log WHERE business_id = $1 ORDER BY id',
      [f.businessId],
    );
    expect(rows.at(-1)).toEqual({
      spend_user_id: f.users.employee, business_id: f.businessId, impersonator_email: SUPPORT_EMAIL,
      call_id: 'transactions.patch', method: 'PATCH', status: 200,
    });
    const stepUp = await request(t.app, 'POST', '/v1/auth/users/current/step-up', { token, body: { password: FIXTURE_PASSWORD } });
    expect(stepUp.body.error_v2.error_code).toBe('SUPPORT_7003');
    // No chained impersonation.
    expect((await impersonate(token, f.users.admin)).status).toBe(403);
  });

  it('a revoked grant stops live impersonation tokens at once; a new start is refused', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const admin = await signIn(t.app, f.email('admin'));
    await grantSupport(t.app, admin, { days: 3 });
    const support = await supportToken(t.app, t.db, clock);
    const token = (await impersonate(support, f.users.manager)).body.id_token as string;
    expect((await request(t.app, 'GET', '/v1/auth/identity', { token })).status).toBe(200);

    const revoked = await request(t.app, 'DELETE', SUPPORT_ACCESS, { token: admin });
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body.grant).toMatchObject({ active: false, revoked_by: { user_id: f.users.admin } });
    const after = await request(t.app, 'GET', '/v1/auth/identity', { token });
    expect(after.status).toBe(403);
    expect(after.body.error_v2.error_code).toBe('SUPPORT_7001');
    expect((await impersonate(support, f.users.manager)).body.error_v2.error_code).toBe('SUPPORT_7001');
  });

  it('an expired grant stops live tokens and new starts', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const { grant } = await grantSupport(t.app, await signIn(t.app, f.email('admin')), { days: 1 });
    const support = await supportToken(t.app, t.db, clock);
    // The grant ends in ten minutes, well inside the impersonation token's hour.
    await t.db.query('UPDATE support_access_grants SET expires_at = $2 WHERE id = $1', [grant.id, new Date(clock.ms + 10 * 60 * 1000)]);
    const token = (await impersonate(support, f.users.employee)).body.id_token as string;
    expect((await request(t.app, 'GET', '/v1/auth/identity', { token })).status).toBe(200);
    clock.advance(10 * 60 * 1000 + 1000);
    const res = await request(t.app, 'GET', '/v1/auth/identity', { token });
    expect(res.status).toBe(403);
    expect(res.body.error_v2.error_code).toBe('SUPPORT_7001');
    const support2 = await supportToken(t.app, t.db, clock);
    expect((await impersonate(support2, f.users.employee)).body.error_v2.error_code).toBe('SUPPORT_7001');
    const state = await request(t.app, 'GET', SUPPORT_ACCESS, { token: await signIn(t.app, f.email('admin')) });
    expect(state.body.grant).toMatchObject({ id: grant.id, active: false, revoked_at: null });
  });

  it('grants last 1 to 14 days (422 beyond), are read-only by default, replace the live one and are audited with their detail', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const owner = await signIn(t.app, f.email('owner'));
    expect((await request(t.app, 'GET', SUPPORT_ACCESS, { token: owner })).body).toEqual({ grant: null });
    for (const days of [15, 0, 1.5]) {
      const res = await request(t.app, 'POST', SUPPORT_ACCESS, { token: owner, body: { days } });
      expect(res.status, String(days)).toBe(422);
      expect(res.body.error_v2.errors.days).toBeDefined();
    }
    const extra = await request(t.app, 'POST', SUPPORT_ACCESS, { token: owner, body: { days: 1, scope: 'all' } });
    expect(extra.body.error_v2.errors).toEqual({ scope: 'scope is not allowed' });

    const first = await grantSupport(t.app, owner, { days: 14 });
    expect(first.grant).toMatchObject({
      active: true, allow_writes: false, revoked_at: null, revoked_by: null,
      expires_at: new Date(clock.ms + 14 * DAY_MS).toISOString(),
      granted_by: { user_id: f.users.owner, name: expect.stringContaining('Owner') },
    });
    const second = await grantSupport(t.app, owner, { days: 2, allow_writes: true });
    expect(second.grant).toMatchObject({ active: true, allow_writes: true });
    const [{ live }] = (await t.db.query<{ live: number }>(
      'SELECT count(*)::int AS live FROM support_access_grants WHERE business_id = $1 AND revoked_at IS NULL', [f.businessId],
    )) as [{ live: number }];
    expect(live).toBe(1);
    await request(t.app, 'DELETE', SUPPORT_ACCESS, { token: owner });
    const audit = await t.db.query<{ call_id: string; status: number; detail: Record<string, unknown> | null }>(
      `SELECT call_id, status, detail FROM audit_log WHERE business_id = $1 AND call_id LIKE 'admin.supportAccess.%' AND status < 300 ORDER BY id`,
      [f.businessId],
    );
    expect(audit.map((a) => [a.call_id, a.detail?.support_access, a.detail?.days ?? null, a.detail?.allow_writes ?? null])).toEqual([
      ['admin.supportAccess.grant', 'granted', 14, false],
      ['admin.supportAccess.grant', 'granted', 2, true],
      ['admin.supportAccess.revoke', 'revoked', null, null],
    ]);
  });

  it('only owners and admins see, grant or revoke; another business\'s admin can neither see nor revoke', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const g = await makeBusiness(t.db, { transactions: 0 });
    const { grant } = await grantSupport(t.app, await signIn(t.app, f.email('admin')), { days: 5 });
    for (const role of ['employee', 'manager', 'bookkeeper', 'auditor'] as const) {
      const token = await signIn(t.app, f.email(role));
      for (const [method, body] of [['GET', undefined], ['POST', { days: 1 }], ['DELETE', undefined]] as const) {
        const res = await request(t.app, method, SUPPORT_ACCESS, { token, ...(body && { body }) });
        expect(res.status, `${role} ${method}`).toBe(403);
        expect(res.body.error_v2.error_code).toBe('FORBIDDEN_7003');
      }
    }
    const other = await signIn(t.app, g.email('admin'));
    expect((await request(t.app, 'GET', SUPPORT_ACCESS, { token: other })).body).toEqual({ grant: null });
    const revokeOther = await request(t.app, 'DELETE', SUPPORT_ACCESS, { token: other });
    expect(revokeOther.body).toEqual({ grant: null });
    const mine = await request(t.app, 'GET', SUPPORT_ACCESS, { token: await signIn(t.app, f.email('owner')) });
    expect(mine.body.grant).toMatchObject({ id: grant.id, active: true });
    // g never granted: support cannot act in g, whatever f allows.
    const support = await supportToken(t.app, t.db, clock);
    expect((await impersonate(support, g.users.employee)).body.error_v2.error_code).toBe('SUPPORT_7001');
  });
});
