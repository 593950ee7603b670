/**
 * Two API processes on one PostgreSQL share everything identity keeps: a session revoked through
 * one is refused at once by the other (the check reads the database on every request), and the
 * sign-in throttle counts failures made through either.
 */
import { describe, expect, it } from 'vitest';
import { SIGN_IN_POLICY } from '../auth/sign-in-limits.ts';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { FIXTURE_PASSWORD, request, signIn } from '../test-fixtures.ts';

describe.skipIf(!(await pgAvailable()))('identity across two API processes on one PostgreSQL', () => {
  it('revocation and throttling hold on every process', async () => {
    await withPgBusiness({ transactions: 0 }, async ({ appA, appB, f, admin: one }) => {
      const two = await signIn(appA, f.email('admin'));
      expect((await request(appB, 'GET', '/v1/auth/identity', { token: one })).status).toBe(200);
      await request(appA, 'POST', '/v1/auth/users/current/sign-out', { token: one, body: {} });
      expect((await request(appB, 'GET', '/v1/auth/identity', { token: one })).body.error_v2.error_code).toBe('AUTH_7003');
      expect((await request(appB, 'GET', '/v1/auth/identity', { token: two })).status).toBe(200);
      await request(appB, 'POST', '/v1/auth/users/current/sign-out-all-sessions', { token: two, body: {} });
      expect((await request(appA, 'GET', '/v1/auth/identity', { token: two })).status).toBe(401);

      const email = f.email('employee');
      for (let i = 0; i < SIGN_IN_POLICY.pairFreeFailures; i++) {
        const app = i % 2 === 0 ? appA : appB;
        await request(app, 'POST', '/v1/public/sign-in', { body: { email, password: 'wrong-password' } });
      }
      const locked = await request(appB, 'POST', '/v1/public/sign-in', { body: { email, password: FIXTURE_PASSWORD } });
      expect(locked.status).toBe(429);
    });
  });
});
