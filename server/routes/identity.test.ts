import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_LOGIN_DOWN_MESSAGE, DEFAULT_MFA_DOWN_MESSAGE, webConfigSchema } from '../../schema/web-config.ts';
import { writeWebConfig } from '../auth/settings.ts';
import { totpCode } from '../auth/totp.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { FIXTURE_PASSWORD, makeBusiness, request, signIn } from '../test-fixtures.ts';
import { SUSPENDED_MESSAGE } from '../domain/admin-users.ts';
import { DUPLICATE_EMAIL_MESSAGE, FIRST_ENROLMENT_EMAIL_MESSAGE } from './identity.ts';
import { claimsOf, enrolTotp, outboxCode, STEP_MS, testClock } from './identity-test-kit.ts';

const clock = testClock();
const signUpBody = (email: string) => ({
  email, password: 'a-long-password-1', first_name: 'Ada', last_name: 'Lovelace', business_name: 'Analytical Engines',
});

describe.each(await testDatabases())('identity on %s', (kind) => {
  const t = useTestApp(kind, { now: clock.now, devOutbox: true });
  afterEach(async () => {
    await writeWebConfig(t.db, {});
    delete process.env.LEDGERLINE_LOGIN_DOWN;
    delete process.env.LEDGERLINE_TRUST_PROXY;
  });

  describe('sign-up', () => {
    it('creates the identity, an empty business and its owner, and signs in', async () => {
      const email = `ada-${clock.ms}-${kind}@signup.test`;
      const res = await request(t.app, 'POST', '/v1/public/sign-up', { body: signUpBody(email) });
      expect(res.status).toBe(201);
      expect(res.body.mfa_required).toBe(false);
      const claims = claimsOf(res.body.id_token);
      expect(claims.ramp_access_scopes).toEqual(['default']);
      const me = await request(t.app, 'GET', '/v1/auth/identity', { token: res.body.id_token });
      expect(me.status).toBe(200);
      expect(me.body.user).toMatchObject({ role: 'BUSINESS_OWNER', first_name: 'Ada', email, payroll_currency: null });
      expect(me.body.business.name).toBe('Analytical Engines');
      expect(me.body.identity).toMatchObject({ email, identity_ofac_status: null });
      await t.db.query("UPDATE spend_users SET payroll_currency = 'GBP' WHERE identity_id = $1", [claims.sub]);
      await t.db.query("UPDATE identities SET ofac_status = 'MANUAL_REVIEW' WHERE id = $1", [claims.sub]);
      const after = await request(t.app, 'GET', '/v1/auth/identity', { token: res.body.id_token });
      expect(after.body.user.payroll_currency).toBe('GBP');
      expect(after.body.identity.identity_ofac_status).toBe('MANUAL_REVIEW');
      const [counts] = await t.db.query<{ d: number; l: number }>(
        'SELECT (SELECT count(*)::int FROM departments WHERE business_id = $1) AS d, (SELECT count(*)::int FROM locations WHERE business_id = $1) AS l',
        [claims.business_id],
      );
      expect(counts).toEqual({ d: 0, l: 0 });
      expect(await signIn(t.app, email.toUpperCase(), 'a-long-password-1')).toBeTruthy();
    });

    it.each([
      ['a short password', { password: 'short-pw1' }, 'password'],
      ['the email as password', { password: 'same-as-email@signup.test', email: 'same-as-email@signup.test' }, 'password'],
      ['a missing business name', { business_name: '' }, 'business_name'],
    ])('refuses %s with 422', async (_n, patch, field) => {
      const res = await request(t.app, 'POST', '/v1/public/sign-up', { body: { ...signUpBody(`x-${kind}@signup.test`), ...patch } });
      expect(res.status).toBe(422);
      expect(res.body.error_v2.errors).toHaveProperty(field);
    });

    it('refuses a duplicate email (any case) with a clear message', async () => {
      const f = await makeBusiness(t.db, { transactions: 0 });
      const res = await request(t.app, 'POST', '/v1/public/sign-up', { body: signUpBody(f.email('admin').toUpperCase()) });
      expect(res.status).toBe(422);
      expect(res.body.error_v2.message).toBe(DUPLICATE_EMAIL_MESSAGE);
    });
  });

  describe('sign-in rules', () => {
    it.each([
      ['INVITED', 'AUTH_7026', 'You have a pending invite. Check your email and accept it to log in.'],
      ['INVITE_EXPIRED', 'AUTH_7027', 'You have an expired invite. Request a new invite from your admin to log in.'],
    ])('a %s user hears %s', async (status, code, message) => {
      const f = await makeBusiness(t.db, { transactions: 0 });
      await t.db.query('UPDATE spend_users SET status = $2 WHERE id = $1', [f.users.employee, status]);
      const res = await request(t.app, 'POST', '/v1/public/sign-in', { body: { email: f.email('employee'), password: FIXTURE_PASSWORD } });
      expect(res.status).toBe(403);
      expect(res.body.error_v2).toEqual({ error_code: code, message });
    });

    it('a suspended user hears so only with the right password', async () => {
      const f = await makeBusiness(t.db, { transactions: 0 });
      await t.db.query("UPDATE spend_users SET status = 'SUSPENDED' WHERE id = $1", [f.users.employee]);
      const wrong = await request(t.app, 'POST', '/v1/public/sign-in', { body: { email: f.email('employee'), password: 'wrong-password' } });
      expect(wrong.body.error_v2.error_code).toBe('AUTH_7001');
      const right = await request(t.app, 'POST', '/v1/public/sign-in', { body: { email: f.email('employee'), password: FIXTURE_PASSWORD } });
      expect(right.body.error_v2).toEqual({ error_code: 'AUTH_7022', message: SUSPENDED_MESSAGE });
    });
  });

  describe('web config', () => {
    it('answers the §3 defaults', async () => {
      const res = await request(t.app, 'GET', '/v1/public/config');
      expect(res.status).toBe(200);
      expect(res.body).toEqual(webConfigSchema.parse({}));
    });

    it('isLoginDown refuses sign-in with the default message, then the custom one', async () => {
      const f = await makeBusiness(t.db, { transactions: 0 });
      const body = { email: f.email('admin'), password: FIXTURE_PASSWORD };
      await writeWebConfig(t.db, { isLoginDown: true });
      expect((await request(t.app, 'GET', '/v1/public/config')).body.isLoginDown).toBe(true);
      let res = await request(t.app, 'POST', '/v1/public/sign-in', { body });
      expect(res.body.error_v2).toEqual({ error_code: 'AUTH_7022', message: DEFAULT_LOGIN_DOWN_MESSAGE });
      await writeWebConfig(t.db, { isLoginDown: true, customLoginDownMessage: 'Back at 3pm.' });
      res = await request(t.app, 'POST', '/v1/public/sign-in', { body });
      expect(res.body.error_v2.message).toBe('Back at 3pm.');
      await writeWebConfig(t.db, {});
      expect((await request(t.app, 'POST', '/v1/public/sign-in', { body })).status).toBe(200);
    });

    it('the environment overrides the stored row', async () => {
      process.env.LEDGERLINE_LOGIN_DOWN = '1';
      expect((await request(t.app, 'GET', '/v1/public/config')).body.isLoginDown).toBe(true);
      process.env.LEDGERLINE_LOGIN_DOWN = '0';
      await writeWebConfig(t.db, { isLoginDown: true });
      expect((await request(t.app, 'GET', '/v1/public/config')).body.isLoginDown).toBe(false);
    });

    it('isMfaDown refuses MFA calls with its message', async () => {
      const f = await makeBusiness(t.db, { transactions: 0 });
      const token = await signIn(t.app, f.email('admin'));
      await writeWebConfig(t.db, { isMfaDown: true });
      const res = await request(t.app, 'POST', '/v1/auth/users/current/send-mfa', { token, body: {} });
      expect(res.status).toBe(403);
      expect(res.body.error_v2).toEqual({ error_code: 'AUTH_7022', message: DEFAULT_MFA_DOWN_MESSAGE });
    });
  });

  describe('TOTP MFA', () => {
    it('enrolment gives an otpauth URI and activates on the first valid code', async () => {
      const f = await makeBusiness(t.db, { transactions: 0 });
      const token = await signIn(t.app, f.email('admin'));
      const start = await request(t.app, 'POST', '/v1/auth/authentication/tokens/totp', { token, body: {} });
      expect(start.body.otpauth_uri).toMatch(/^otpauth:\/\/totp\/Ledgerline:.*secret=[A-Z2-7]+.*algorithm=SHA1&digits=6&period=30/);
      const path = `/v1/auth/authentication/tokens/totp/${start.body.authenticator_id}/verify`;
      const bad = await request(t.app, 'POST', path, { token, body: { code: '000000' === totpCode(start.body.secret, clock.ms) ? '111111' : '000000' } });
      expect(bad.body.error_v2.error_code).toBe('AUTH_7025');
      const good = await request(t.app, 'POST', path, { token, body: { code: totpCode(start.body.secret, clock.ms) } });
      expect(good.body).toEqual({ authenticator_id: start.body.authenticator_id, active: true });
    });

    it('a user requiring MFA signs in half-scoped, and verify-mfa completes it; codes are single-use', async () => {
      const f = await makeBusiness(t.db, { transactions: 0 });
      const first = await signIn(t.app, f.email('employee'));
      const { secret } = await enrolTotp(t.app, first, clock.ms);
      clock.advance(STEP_MS);

      const res = await request(t.app, 'POST', '/v1/public/sign-in', { body: { email: f.email('employee'), password: FIXTURE_PASSWORD } });
      expect(res.body.mfa_required).toBe(true);
      const pending = res.body.id_token as string;
      expect(claimsOf(pending)).toMatchObject({ ramp_mfa_required: true, ramp_mfa_authed: false, ramp_access_scopes: [] });
      expect((await request(t.app, 'GET', '/v1/auth/identity', { token: pending })).body.error_v2.error_code).toBe('AUTH_7016');
      expect((await request(t.app, 'GET', '/v1/auth/transactions', { token: pending })).status).toBe(403);
      // A pending token cannot enrol a new factor over the existing one.
      expect((await request(t.app, 'POST', '/v1/auth/authentication/tokens/totp', { token: pending, body: {} })).status).toBe(403);

      const check = await request(t.app, 'POST', '/v1/auth/users/current/check-mfa', { token: pending, body: {} });
      expect(check.body).toEqual({ mfa_required: true, mfa_authed: false, totp_enrolled: true, factors: ['totp'] });
      const wrong = await request(t.app, 'POST', '/v1/auth/users/current/verify-mfa', { token: pending, body: { code: '12345x' } });
      expect(wrong.status).toBe(422);

      const code = totpCode(secret, clock.ms);
      const ok = await request(t.app, 'POST', '/v1/auth/users/current/verify-mfa', { token: pending, body: { code } });
      expect(ok.status).toBe(200);
      expect(claimsOf(ok.body.id_token)).toMatchObject({ ramp_mfa_authed: true, ramp_access_scopes: ['default'] });
      expect((await request(t.app, 'GET', '/v1/auth/identity', { token: ok.body.id_token })).status).toBe(200);
      // The same code again (same step) is refused: never accepted twice.
      const replay = await request(t.app, 'POST', '/v1/auth/users/current/verify-mfa', { token: pending, body: { code } });
      expect(replay.body.error_v2.error_code).toBe('AUTH_7025');
    });

    it('business-wide MFA applies to its users; their first enrolment is bound to the mailbox', async () => {
      const f = await makeBusiness(t.db, { transactions: 0 });
      await t.db.query('UPDATE businesses SET mfa_required = true WHERE id = $1', [f.businessId]);
      const email = f.email('bookkeeper');
      const res = await request(t.app, 'POST', '/v1/public/sign-in', { body: { email, password: FIXTURE_PASSWORD } });
      expect(res.body.mfa_required).toBe(true);
      const pending = res.body.id_token as string;
      expect(claimsOf(pending).ramp_access_scopes).toEqual([]);
      // The password alone cannot bind an authenticator: the mailed code must confirm it.
      await expect(enrolTotp(t.app, pending, clock.ms)).rejects.toThrow(FIRST_ENROLMENT_EMAIL_MESSAGE);
      expect((await request(t.app, 'POST', '/v1/auth/users/current/send-email-otp', { token: pending, body: {} })).status).toBe(200);
      const emailCode = await outboxCode(t.app, email);
      const wrongCode = emailCode === '000000' ? '111111' : '000000';
      await expect(enrolTotp(t.app, pending, clock.ms, wrongCode)).rejects.toThrow('PROFILE_7017');
      // A wrong TOTP code leaves the mailed code unused: it serves the next try.
      const start = await request(t.app, 'POST', '/v1/auth/authentication/tokens/totp', { token: pending, body: {} });
      const badTotp = totpCode(start.body.secret, clock.ms) === '000000' ? '111111' : '000000';
      const bad = await request(t.app, 'POST', `/v1/auth/authentication/tokens/totp/${start.body.authenticator_id}/verify`, {
        token: pending, body: { code: badTotp, email_code: emailCode },
      });
      expect(bad.body.error_v2.error_code).toBe('AUTH_7025');
      const { secret } = await enrolTotp(t.app, pending, clock.ms, emailCode);
      clock.advance(STEP_MS);
      const ok = await request(t.app, 'POST', '/v1/auth/users/current/verify-mfa', {
        token: res.body.id_token, body: { code: totpCode(secret, clock.ms) },
      });
      expect(claimsOf(ok.body.id_token).ramp_mfa_authed).toBe(true);
      // send-email-otp admits a pending token only while it is recent (the §6 window).
      const later = await request(t.app, 'POST', '/v1/public/sign-in', { body: { email: f.email('admin'), password: FIXTURE_PASSWORD } });
      clock.advance(5 * 60 * 1000 + 1000);
      const stale = await request(t.app, 'POST', '/v1/auth/users/current/send-email-otp', { token: later.body.id_token, body: {} });
      expect(stale.body.error_v2.error_code).toBe('AUTH_7016');
    });

    it('MFA calls need a token issued within 5 minutes', async () => {
      const f = await makeBusiness(t.db, { transactions: 0 });
      const token = await signIn(t.app, f.email('admin'));
      clock.advance(5 * 60 * 1000 + 1000);
      const res = await request(t.app, 'POST', '/v1/auth/users/current/check-mfa', { token, body: {} });
      expect(res.body.error_v2.error_code).toBe('AUTH_7016');
    });
  });
});
