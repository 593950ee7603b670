/**
 * Rate limits of the public and mail-sending calls (send-email-otp, telemetry and error reports;
 * sign-ups and sign-in links are quotas: quotas.test.ts): 429 AUTH_7029 with Retry-After once a window is full, per client address (and per
 * identity for mailed codes), opening again as the window slides. Earlier hits are stored
 * directly, so the real limits are tested without hundreds of requests.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { emailOtpLimits, PUBLIC_LIMITS, telemetryLimits, type Limit } from '../auth/rate-limit.ts';
import type { Db } from '../db/db.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn } from '../test-fixtures.ts';
import { claimsOf, testClock } from './identity-test-kit.ts';

const clock = testClock();
let addressSeq = 0;
/** A fresh documentation address per test, so the windows of tests never meet. */
const nextAddress = () => `203.0.113.${(addressSeq += 1)}`;

/** `n` earlier hits on a limit, at the current clock. */
async function prefill(db: Db, limit: Limit | undefined, n: number): Promise<void> {
  if (!limit) throw new Error('no such limit');
  await db.query('INSERT INTO login_failures (key, at) SELECT $1, $2 FROM generate_series(1, $3)', [limit.key, new Date(clock.ms), n]);
}

const expectThrottled = (res: { status: number; body: { error_v2?: { error_code: string } }; headers: Headers }, retryAfter: number) => {
  expect(res.status).toBe(429);
  expect(res.body.error_v2?.error_code).toBe('AUTH_7029');
  expect(Number(res.headers.get('retry-after'))).toBe(retryAfter);
};

describe.each(await testDatabases())('public rate limits on %s', (kind) => {
  const t = useTestApp(kind, { now: clock.now });
  afterEach(() => {
    delete process.env.LEDGERLINE_TRUST_PROXY;
  });
  const from = (address: string) => {
    process.env.LEDGERLINE_TRUST_PROXY = '1';
    return { 'x-forwarded-for': address };
  };

  it('send-email-otp: 5 per 15 minutes per identity and 30 an hour per client address', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const token = await signIn(t.app, f.email('employee'));
    const send = (tok: string, headers?: Record<string, string>) =>
      request(t.app, 'POST', '/v1/auth/users/current/send-email-otp', { token: tok, body: {}, ...(headers && { headers }) });
    const perIdentity = PUBLIC_LIMITS.emailOtpPerIdentity;
    await prefill(t.db, emailOtpLimits(claimsOf(token).sub, null)[0], perIdentity.max - 1);
    expect((await send(token)).status).toBe(200);
    expectThrottled(await send(token), perIdentity.windowSeconds);
    const other = await signIn(t.app, f.email('manager'));
    expect((await send(other)).status).toBe(200);

    const address = nextAddress();
    const perAddress = PUBLIC_LIMITS.emailOtpPerAddress;
    await prefill(t.db, emailOtpLimits(claimsOf(other).sub, address)[1], perAddress.max);
    const admin = await signIn(t.app, f.email('admin'));
    expectThrottled(await send(admin, from(address)), perAddress.windowSeconds);
    expect((await send(admin, from(nextAddress()))).status).toBe(200);
    clock.advance(perAddress.windowSeconds * 1000 + 1000);
    expect((await send(await signIn(t.app, f.email('owner')), from(address))).status).toBe(200);
  });

  it('telemetry and error reports: 600 a minute per client address, one budget', async () => {
    const address = nextAddress();
    const { max, windowSeconds } = PUBLIC_LIMITS.telemetryPerAddress;
    await prefill(t.db, telemetryLimits(address)[0], max - 1);
    const event = { name: 'page', path: '/transactions', props: {}, ts: new Date(clock.ms).toISOString() };
    const telemetry = (headers: Record<string, string>) => request(t.app, 'POST', '/v1/public/telemetry', { headers, body: { events: [event] } });
    const report = (headers: Record<string, string>) => request(t.app, 'POST', '/v1/public/errors', { headers, body: { message: 'boom' } });
    expect((await telemetry(from(address))).status).toBe(204);
    expectThrottled(await report(from(address)), windowSeconds);
    expectThrottled(await telemetry(from(address)), windowSeconds);
    expect((await report(from(nextAddress()))).status).toBe(204);
    clock.advance(windowSeconds * 1000 + 1000);
    expect((await report(from(address))).status).toBe(204);
  });
});
