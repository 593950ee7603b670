import { describe, expect, it } from 'vitest';
import { SIGN_IN_POLICY, STEP_UP_PASSWORD_LIMIT } from '../auth/sign-in-limits.ts';
import { totpCode } from '../auth/totp.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { FIXTURE_PASSWORD, makeBusiness, request, signIn } from '../test-fixtures.ts';
import { claimsOf, enrolTotp, outboxCode, STEP_MS, testClock } from './identity-test-kit.ts';

const clock = testClock();
const TEN_MINUTES = 10 * 60 * 1000;

describe.each(await testDatabases())('step-up and sensitive calls on %s', (kind) => {
  const t = useTestApp(kind, { now: clock.now, devOutbox: true });

  async function stepUpWithPassword(token: string) {
    const res = await request(t.app, 'POST', '/v1/auth/users/current/step-up', { token, body: { password: FIXTURE_PASSWORD } });
    expect(res.status).toBe(200);
    return res.body.id_token as string;
  }

  it('a password step-up adds sensitive for 10 minutes on the same session', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const token = await signIn(t.app, f.email('employee'));
    const phone = { phone_number: '+14155550123' };
    const refused = await request(t.app, 'POST', '/v1/auth/users/current/set-phone-number', { token, body: phone });
    expect(refused.body.error_v2.error_code).toBe('AUTH_7016');

    const wrong = await request(t.app, 'POST', '/v1/auth/users/current/step-up', { token, body: { password: 'not-the-password' } });
    expect(wrong.body.error_v2.error_code).toBe('AUTH_7001');
    const stepped = await stepUpWithPassword(token);
    const claims = claimsOf(stepped);
    expect(claims.ramp_access_scopes).toEqual(['default', 'sensitive']);
    expect(claims.exp - claims.iat).toBe(600);
    expect(claims.ramp_session_id).toBe(claimsOf(token).ramp_session_id);
    expect((await request(t.app, 'POST', '/v1/auth/users/current/set-phone-number', { token: stepped, body: phone })).body).toEqual(phone);

    clock.advance(TEN_MINUTES + 1000);
    expect((await request(t.app, 'POST', '/v1/auth/users/current/set-phone-number', { token: stepped, body: phone })).status).toBe(401);
    // The normal token still works for normal calls.
    expect((await request(t.app, 'GET', '/v1/auth/identity', { token })).status).toBe(200);
  });

  it('password step-ups have their own budget (429 AUTH_7029 with Retry-After) and never lock the sign-in', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const email = f.email('bookkeeper');
    const token = await signIn(t.app, email);
    const step = (password: string) => request(t.app, 'POST', '/v1/auth/users/current/step-up', { token, body: { password } });
    const { max, windowSeconds } = STEP_UP_PASSWORD_LIMIT;
    for (let i = 0; i < Math.max(max, SIGN_IN_POLICY.pairFreeFailures) + 1; i++) {
      expect((await step('not-the-password')).status).toBe(i < max ? 401 : 429);
    }
    const locked = await step(FIXTURE_PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.body.error_v2.error_code).toBe('AUTH_7029');
    expect(Number(locked.headers.get('retry-after'))).toBe(windowSeconds);
    // The same person signs in (same in-process "address") as if nothing happened.
    expect(await signIn(t.app, email)).toBeTruthy();
    clock.advance(windowSeconds * 1000 + 1000);
    expect((await step(FIXTURE_PASSWORD)).status).toBe(200);
  });

  it('an MFA code step-up adds sensitive; a wrong one answers AUTH_7025; deleting the authenticator needs sensitive', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const token = await signIn(t.app, f.email('admin'));
    const { id, secret } = await enrolTotp(t.app, token, clock.ms);
    clock.advance(STEP_MS);
    const path = `/v1/auth/authentication/tokens/totp/${id}`;
    expect((await request(t.app, 'DELETE', path, { token })).body.error_v2.error_code).toBe('AUTH_7016');
    const code = totpCode(secret, clock.ms);
    const wrong = await request(t.app, 'POST', '/v1/auth/users/current/step-up', { token, body: { mfa_code: code === '000000' ? '000001' : '000000' } });
    expect(wrong.body.error_v2.error_code).toBe('AUTH_7025');
    const res = await request(t.app, 'POST', '/v1/auth/users/current/step-up', { token, body: { mfa_code: code } });
    expect(claimsOf(res.body.id_token).ramp_access_scopes).toContain('sensitive');
    expect((await request(t.app, 'DELETE', path, { token: res.body.id_token })).body).toEqual({ ok: true });
    expect((await t.db.query('SELECT 1 FROM totp_authenticators WHERE id = $1', [id])).length).toBe(0);
  });

  it('an emailed code adds email-otp, which allows a password change; expired and wrong codes are refused', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const email = f.email('manager');
    const token = await signIn(t.app, email);
    const sent = await request(t.app, 'POST', '/v1/auth/users/current/send-email-otp', { token, body: {} });
    expect(sent.status).toBe(200);
    const code = await outboxCode(t.app, email);
    const wrongCode = code === '000000' ? '000001' : '000000';
    const verify = (c: string) => request(t.app, 'POST', '/v1/auth/users/current/verify-email-otp', { token, body: { code: c } });
    expect((await verify(wrongCode)).body.error_v2.error_code).toBe('PROFILE_7017');
    const ok = await verify(code);
    expect(ok.status).toBe(200);
    expect(claimsOf(ok.body.id_token).ramp_access_scopes).toEqual(['default', 'email-otp']);
    // Used once only.
    expect((await verify(code)).body.error_v2.error_code).toBe('PROFILE_7017');

    const change = (tok: string) =>
      request(t.app, 'POST', '/v1/auth/users/current/change-password', { token: tok, body: { new_password: 'a-brand-new-password' } });
    expect((await change(token)).body.error_v2.error_code).toBe('AUTH_7016');
    expect((await change(ok.body.id_token)).status).toBe(200);
    expect(await signIn(t.app, email, 'a-brand-new-password')).toBeTruthy();

    await request(t.app, 'POST', '/v1/auth/users/current/send-email-otp', { token, body: {} });
    const late = await outboxCode(t.app, email);
    clock.advance(TEN_MINUTES + 1000);
    expect((await verify(late)).body.error_v2.error_code).toBe('PROFILE_7016');
  });

  it('five wrong email codes burn the code', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const token = await signIn(t.app, f.email('teammate'));
    await request(t.app, 'POST', '/v1/auth/users/current/send-email-otp', { token, body: {} });
    const code = await outboxCode(t.app, f.email('teammate'));
    const wrongCode = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++) {
      await request(t.app, 'POST', '/v1/auth/users/current/verify-email-otp', { token, body: { code: wrongCode } });
    }
    // The second-factor budget is used up too: even the right code waits for the window.
    const blocked = await request(t.app, 'POST', '/v1/auth/users/current/verify-email-otp', { token, body: { code } });
    expect(blocked.body.error_v2.error_code).toBe('AUTH_7029');
    clock.advance(15 * 60 * 1000 + 1000);
    const res = await request(t.app, 'POST', '/v1/auth/users/current/verify-email-otp', { token, body: { code } });
    expect(res.body.error_v2.error_code).toBe('PROFILE_7017');
  });

  it('bank details need sensitive and come back masked to the last 4', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const token = await signIn(t.app, f.email('employee'));
    const body = { account_holder_name: 'Emp Loyee', routing_number: '021000021', account_number: '000123456789' };
    expect((await request(t.app, 'PUT', '/v1/auth/users/current/bank-details', { token, body })).status).toBe(403);
    const res = await request(t.app, 'PUT', '/v1/auth/users/current/bank-details', { token: await stepUpWithPassword(token), body });
    expect(res.body).toEqual({ account_holder_name: 'Emp Loyee', routing_number: '021000021', account_number_last4: '6789' });
    expect(res.text).not.toContain('000123456789');
  });

  it('tax info needs sensitive and an admin; the TIN comes back masked', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const body = { legal_name: 'Fixture Inc', tin: '12-3456789' };
    const employee = await stepUpWithPassword(await signIn(t.app, f.email('employee')));
    expect((await request(t.app, 'PUT', '/v1/auth/businesses/tax-info', { token: employee, body })).body.error_v2.error_code).toBe('FORBIDDEN_7003');
    const admin = await signIn(t.app, f.email('admin'));
    expect((await request(t.app, 'PUT', '/v1/auth/businesses/tax-info', { token: admin, body })).status).toBe(403);
    const res = await request(t.app, 'PUT', '/v1/auth/businesses/tax-info', { token: await stepUpWithPassword(admin), body });
    expect(res.body).toEqual({ legal_name: 'Fixture Inc', tin_last4: '6789' });
  });

  it('an admin changes a user email with sensitive; not across businesses; not to a taken address', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const other = await makeBusiness(t.db, { transactions: 0 });
    const admin = await signIn(t.app, f.email('admin'));
    const path = `/v1/auth/businesses/users/${f.users.employee}/email`;
    const newEmail = `renamed-${f.businessId.slice(0, 8)}@fixture.test`;
    expect((await request(t.app, 'PATCH', path, { token: admin, body: { email: newEmail } })).status).toBe(403);
    const stepped = await stepUpWithPassword(admin);
    const taken = await request(t.app, 'PATCH', path, { token: stepped, body: { email: f.email('manager') } });
    expect(taken.status).toBe(422);
    const foreign = `/v1/auth/businesses/users/${other.users.employee}/email`;
    expect((await request(t.app, 'PATCH', foreign, { token: stepped, body: { email: newEmail } })).status).toBe(404);
    const employee = await stepUpWithPassword(await signIn(t.app, f.email('employee')));
    expect((await request(t.app, 'PATCH', `/v1/auth/businesses/users/${f.users.manager}/email`, { token: employee, body: { email: newEmail } })).status).toBe(403);

    const res = await request(t.app, 'PATCH', path, { token: stepped, body: { email: newEmail } });
    expect(res.body).toEqual({ id: f.users.employee, email: newEmail });
    expect(await signIn(t.app, newEmail)).toBeTruthy();
    const [row] = await t.db.query<{ email: string; change_seq: number }>('SELECT email, change_seq FROM spend_users WHERE id = $1', [f.users.employee]);
    const [biz] = await t.db.query<{ change_seq: number }>('SELECT change_seq FROM businesses WHERE id = $1', [f.businessId]);
    expect(row).toEqual({ email: newEmail, change_seq: biz!.change_seq });
    // The new address is unverified until the code mailed to it is confirmed.
    const [identity] = await t.db.query<{ verified: boolean }>(
      'SELECT i.email_verified_at IS NOT NULL AS verified FROM identities i JOIN spend_users u ON u.identity_id = i.id WHERE u.id = $1', [f.users.employee],
    );
    expect(identity!.verified).toBe(false);
    expect(await outboxCode(t.app, newEmail)).toMatch(/^\d{6}$/);
  });

  it('an admin cannot change the sign-in email of someone who also belongs to another business', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const other = await makeBusiness(t.db, { transactions: 0 });
    // The other business's owner is also a member here (same identity).
    const [owner] = await t.db.query<{ identity_id: string }>('SELECT identity_id FROM spend_users WHERE id = $1', [other.users.owner]);
    const [member] = await t.db.query<{ id: string }>(
      `INSERT INTO spend_users (id, business_id, identity_id, role, is_manager, first_name, last_name, email, change_seq)
       SELECT gen_random_uuid(), $1, identity_id, 'BUSINESS_USER', false, first_name, last_name, email, 0 FROM spend_users WHERE id = $2
       RETURNING id::text`, [f.businessId, other.users.owner],
    );
    const stepped = await stepUpWithPassword(await signIn(t.app, f.email('admin')));
    const res = await request(t.app, 'PATCH', `/v1/auth/businesses/users/${member!.id}/email`, { token: stepped, body: { email: `taken-over-${f.businessId.slice(0, 8)}@attacker.test` } });
    expect(res.status).toBe(403);
    expect(res.body.error_v2.message).toContain('another business');
    const [still] = await t.db.query<{ email: string }>('SELECT email FROM identities WHERE id = $1', [owner!.identity_id]);
    expect(still!.email).toBe(other.email('owner'));
  });
});
