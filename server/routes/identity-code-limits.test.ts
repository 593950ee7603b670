/**
 * Second-factor attempt limits: 5 wrong codes per person (and per session) in 15 minutes, across
 * TOTP verify-mfa, first enrolment, step-up mfa_code and emailed codes; then 429 AUTH_7029 with
 * Retry-After, a correct code included; the person is mailed once per block, and a half-scoped
 * (MFA pending) token loses its session.
 */
import { describe, expect, it } from 'vitest';
import { SECOND_FACTOR_LIMIT } from '../auth/sign-in-limits.ts';
import { totpCode } from '../auth/totp.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { FIXTURE_PASSWORD, makeBusiness, request, signIn } from '../test-fixtures.ts';
import { WRONG_CODES_SUBJECT } from './identity-code-limits.ts';
import { enrolTotp, outboxCode, STEP_MS, testClock } from './identity-test-kit.ts';

const clock = testClock();
const WINDOW_MS = SECOND_FACTOR_LIMIT.windowSeconds * 1000;
const wrongFor = (right: string) => (right === '000000' ? '111111' : '000000');

describe.each(await testDatabases())('second-factor attempt limits on %s', (kind) => {
  const t = useTestApp(kind, { now: clock.now, devOutbox: true });
  const warnings = async (email: string) =>
    (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM dev_outbox WHERE recipient = $1 AND subject = $2', [
      email, WRONG_CODES_SUBJECT,
    ]))[0]!.n;
  const verifyMfa = (token: string, code: string) => request(t.app, 'POST', '/v1/auth/users/current/verify-mfa', { token, body: { code } });
  const pendingSignIn = async (email: string) => {
    const res = await request(t.app, 'POST', '/v1/public/sign-in', { body: { email, password: FIXTURE_PASSWORD } });
    expect(res.body.mfa_required).toBe(true);
    return res.body.id_token as string;
  };
  const expectBlocked = (res: { status: number; body: { error_v2: { error_code: string } }; headers: Headers }) => {
    expect(res.status).toBe(429);
    expect(res.body.error_v2.error_code).toBe('AUTH_7029');
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(SECOND_FACTOR_LIMIT.windowSeconds);
  };

  it('verify-mfa: 5 wrong codes end the pending session; then even the right code is 429 until the window slides', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const email = f.email('employee');
    const { secret } = await enrolTotp(t.app, await signIn(t.app, email), clock.ms);
    clock.advance(STEP_MS);
    const pending = await pendingSignIn(email);
    const wrong = wrongFor(totpCode(secret, clock.ms));
    for (let i = 0; i < SECOND_FACTOR_LIMIT.max; i++) {
      expect((await verifyMfa(pending, wrong)).body.error_v2.error_code).toBe('AUTH_7025');
    }
    // The half-scoped token is dead: whoever holds it must type the password again.
    expect((await verifyMfa(pending, totpCode(secret, clock.ms))).body.error_v2.error_code).toBe('AUTH_7003');
    const again = await pendingSignIn(email);
    expectBlocked(await verifyMfa(again, totpCode(secret, clock.ms)));
    expect((await verifyMfa(again, totpCode(secret, clock.ms))).body.error_v2.error_code).toBe('AUTH_7003');
    expect(await warnings(email)).toBe(1);

    clock.advance(WINDOW_MS + 1000);
    const ok = await verifyMfa(await pendingSignIn(email), totpCode(secret, clock.ms));
    expect(ok.status).toBe(200);
  });

  it('step-up mfa_code and emailed codes share one budget; a signed-in session survives; one mail per block', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const email = f.email('admin');
    const token = await signIn(t.app, email);
    const { secret } = await enrolTotp(t.app, token, clock.ms);
    clock.advance(STEP_MS);
    const stepUp = (code: string) => request(t.app, 'POST', '/v1/auth/users/current/step-up', { token, body: { mfa_code: code } });
    const verifyEmail = (code: string) => request(t.app, 'POST', '/v1/auth/users/current/verify-email-otp', { token, body: { code } });
    await request(t.app, 'POST', '/v1/auth/users/current/send-email-otp', { token, body: {} });
    const emailCode = await outboxCode(t.app, email);
    for (let i = 0; i < 3; i++) expect((await verifyEmail(wrongFor(emailCode))).body.error_v2.error_code).toBe('PROFILE_7017');
    for (let i = 0; i < 2; i++) expect((await stepUp(wrongFor(totpCode(secret, clock.ms)))).body.error_v2.error_code).toBe('AUTH_7025');
    expect(await warnings(email)).toBe(1);
    expectBlocked(await stepUp(totpCode(secret, clock.ms)));
    expectBlocked(await verifyEmail(emailCode));
    for (let i = 0; i < 3; i++) expectBlocked(await stepUp(wrongFor(totpCode(secret, clock.ms))));
    expect(await warnings(email)).toBe(1);
    // A fully signed-in session is not ended: only the codes wait.
    expect((await request(t.app, 'GET', '/v1/auth/identity', { token })).status).toBe(200);
    // The budget is the person's: a new sign-in's verify-mfa is refused too.
    expectBlocked(await verifyMfa(await pendingSignIn(email), totpCode(secret, clock.ms)));

    clock.advance(WINDOW_MS + 1000);
    expect((await stepUp(totpCode(secret, clock.ms))).status).toBe(200);
    // A new block later is a new mail.
    for (let i = 0; i < SECOND_FACTOR_LIMIT.max; i++) await stepUp('999999' === totpCode(secret, clock.ms) ? '888888' : '999999');
    expect(await warnings(email)).toBe(2);
  });

  it('first enrolment: wrong mailed codes and wrong TOTP codes count, and end the pending session', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    await t.db.query('UPDATE businesses SET mfa_required = true WHERE id = $1', [f.businessId]);
    const email = f.email('bookkeeper');
    const pending = await pendingSignIn(email);
    expect((await request(t.app, 'POST', '/v1/auth/users/current/send-email-otp', { token: pending, body: {} })).status).toBe(200);
    const emailCode = await outboxCode(t.app, email);
    const start = await request(t.app, 'POST', '/v1/auth/authentication/tokens/totp', { token: pending, body: {} });
    const path = `/v1/auth/authentication/tokens/totp/${start.body.authenticator_id}/verify`;
    const verify = (code: string, email_code: string) => request(t.app, 'POST', path, { token: pending, body: { code, email_code } });
    const rightTotp = () => totpCode(start.body.secret, clock.ms);
    for (let i = 0; i < 3; i++) expect((await verify(rightTotp(), wrongFor(emailCode))).body.error_v2.error_code).toBe('PROFILE_7017');
    expect((await verify(wrongFor(rightTotp()), emailCode)).body.error_v2.error_code).toBe('AUTH_7025');
    expect((await verify(wrongFor(rightTotp()), emailCode)).body.error_v2.error_code).toBe('AUTH_7025');
    expect((await verify(rightTotp(), emailCode)).body.error_v2.error_code).toBe('AUTH_7003');
    const [row] = await t.db.query<{ active: boolean }>('SELECT active FROM totp_authenticators WHERE id = $1', [start.body.authenticator_id]);
    expect(row?.active).toBe(false);
    expect(await warnings(email)).toBe(1);
  });
});
