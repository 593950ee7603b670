/**
 * Quotas (issue 24): invites per inviter per hour and per business per day (resends count; a
 * refused invite does not), receipt uploads per person per hour and receipt bytes per person per
 * day, sign-ups and sign-in links per client address and per email address asked for. Each
 * answers 429 QUOTA_EXCEEDED with words naming the quota and the wait, and Retry-After; the
 * window slides. Small limits come through createApp's `quotas` option, so no test sends more
 * than a handful of requests.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { errorV2Schema } from '../../schema/errors.ts';
import { DEFAULT_QUOTAS, QUOTA_ENV, resolveQuotas, sizeWords, waitWords } from '../auth/quotas.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn, type Fixture, type TestResponse } from '../test-fixtures.ts';
import { testClock } from './identity-test-kit.ts';

const HOUR = 3600;
const DAY = 24 * HOUR;

describe('quota settings', () => {
  it('reads LEDGERLINE_QUOTA_* (receipt bytes in MB), lets createApp override, refuses nonsense', () => {
    expect(resolveQuotas({}, {})).toEqual(DEFAULT_QUOTAS);
    const env = { [QUOTA_ENV.invitesPerInviterPerHour]: '7', [QUOTA_ENV.receiptBytesPerPersonPerDay]: '25' };
    const q = resolveQuotas({ receiptsPerPersonPerHour: 3 }, env);
    expect([q.invitesPerInviterPerHour, q.receiptBytesPerPersonPerDay, q.receiptsPerPersonPerHour]).toEqual([7, 25 * 1024 * 1024, 3]);
    expect(q.invitesPerBusinessPerDay).toBe(DEFAULT_QUOTAS.invitesPerBusinessPerDay);
    for (const bad of ['0', '-1', '1.5', 'lots']) {
      expect(() => resolveQuotas({}, { [QUOTA_ENV.signUpsPerEmailPerHour]: bad })).toThrow(QUOTA_ENV.signUpsPerEmailPerHour);
    }
  });

  it('says waits in words, rounded up', () => {
    expect([waitWords(1), waitWords(59.2), waitWords(61), waitWords(720), waitWords(HOUR), waitWords(2 * HOUR + 1)])
      .toEqual(['1 second', '60 seconds', '2 minutes', '12 minutes', '60 minutes', '3 hours']);
    expect([sizeWords(500 * 1024 * 1024), sizeWords(2.5 * 1024 * 1024), sizeWords(800 * 1024), sizeWords(120)]).toEqual(['500 MB', '2.5 MB', '800 KB', '120 bytes']);
  });
});

/** A 429 QUOTA_EXCEEDED with these words and this Retry-After. */
function expectQuota(res: TestResponse, retryAfter: number, words: RegExp) {
  expect(res.status, res.text).toBe(429);
  expect(errorV2Schema.parse(res.body).error_v2.error_code).toBe('QUOTA_EXCEEDED');
  expect((res.body as { error_v2: { message: string } }).error_v2.message).toMatch(words);
  expect(Number(res.headers.get('retry-after'))).toBe(retryAfter);
}

describe.each(await testDatabases())('quotas on %s', (kind) => {
  const clock = testClock();
  const t = useTestApp(kind, {
    now: clock.now,
    devOutbox: true,
    quotas: {
      invitesPerInviterPerHour: 3,
      invitesPerBusinessPerDay: 5,
      receiptsPerPersonPerHour: 3,
      receiptBytesPerPersonPerDay: 1000,
      signUpsPerAddressPerHour: 3,
      signUpsPerEmailPerHour: 2,
      signInLinksPerAddressPerHour: 3,
      signInLinksPerEmailPerHour: 2,
    },
  });
  afterEach(() => {
    delete process.env.LEDGERLINE_TRUST_PROXY;
  });
  let addressSeq = 0;
  /** A fresh client address per use (behind a trusted proxy), so the windows of tests never meet. */
  const fromNewAddress = () => {
    process.env.LEDGERLINE_TRUST_PROXY = '1';
    return { 'x-forwarded-for': `198.51.100.${(addressSeq += 1)}` };
  };
  let seq = 0;
  const newEmail = (what: string) => `${what}-${(seq += 1)}-${kind}@quota.test`;

  describe('invites', () => {
    let f: Fixture;
    const tokens: Record<string, string> = {};
    const invite = (who: 'admin' | 'owner', email = newEmail('invitee')) =>
      request(t.app, 'POST', '/v1/auth/businesses/users/invite', {
        token: tokens[who], body: { email, first_name: 'In', last_name: 'Vitee', role: 'BUSINESS_USER' },
      });
    beforeAll(async () => {
      f = await makeBusiness(t.db, { transactions: 0 });
      tokens.admin = await signIn(t.app, f.email('admin'));
      tokens.owner = await signIn(t.app, f.email('owner'));
    });

    it('per inviter per hour, then per business per day; resends count; a refused invite does not', async () => {
      // A refused invite (the email is already a member) rolls its count back with it.
      expect((await invite('admin', f.email('employee'))).status).toBe(422);
      const first = await invite('admin');
      expect(first.status, first.text).toBe(201);
      const invitee = (first.body as { user: { id: string } }).user.id;
      clock.advance(10 * 60 * 1000);
      expect((await invite('admin')).status).toBe(201);
      // A resend is an invite too: the admin's third this hour.
      const resend = await request(t.app, 'POST', `/v1/auth/businesses/users/${invitee}/resend-invite`, { token: tokens.admin, body: {} });
      expect(resend.status, resend.text).toBe(200);
      // The fourth waits until the first (10 minutes before the second) leaves the hour: 50 minutes.
      expectQuota(await invite('admin'), 50 * 60, /^You have sent 3 invites in the last hour; try again in 50 minutes\.$/);
      // Another admin of the business has their own hourly quota, but the business's day holds 5.
      expect((await invite('owner')).status).toBe(201);
      expect((await invite('owner')).status).toBe(201);
      const full = await invite('owner');
      expectQuota(full, DAY - 10 * 60, /^Your business has sent 5 invites in the last 24 hours, its daily limit; try again in 24 hours\.$/);
      // An hour later the admin's hour has room again; the business's day still has none.
      clock.advance(HOUR * 1000);
      tokens.admin = await signIn(t.app, f.email('admin'));
      expectQuota(await invite('admin'), DAY - HOUR - 10 * 60, /^Your business has sent 5 invites in the last 24 hours/);
      // Another business is not affected.
      const g = await makeBusiness(t.db, { transactions: 0 });
      const other = await request(t.app, 'POST', '/v1/auth/businesses/users/invite', {
        token: await signIn(t.app, g.email('admin')), body: { email: newEmail('other'), first_name: 'A', last_name: 'B', role: 'BUSINESS_USER' },
      });
      expect(other.status, other.text).toBe(201);
    });
  });

  describe('receipts', () => {
    let f: Fixture;
    const tokens: Record<string, string> = {};
    /** A JPEG of `size` bytes: the signature, then random bytes (new bytes every time). */
    const jpeg = (size: number) => Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, ...randomBytes(size - 4)]);
    const upload = async (who: 'employee' | 'manager', size: number): Promise<TestResponse> => {
      const res = await t.app.request('/v1/auth/receipts', {
        method: 'POST', headers: { 'RAMP-ID-TOKEN': tokens[who]!, 'content-type': 'image/jpeg' }, body: jpeg(size),
      });
      const text = await res.text();
      return { status: res.status, text, body: JSON.parse(text) as unknown, headers: res.headers };
    };
    beforeAll(async () => {
      f = await makeBusiness(t.db, { transactions: 0 });
      tokens.employee = await signIn(t.app, f.email('employee'));
      tokens.manager = await signIn(t.app, f.email('manager'));
    });

    it('counts uploads per person per hour', async () => {
      for (let i = 0; i < 3; i++) expect((await upload('employee', 64)).status).toBe(201);
      expectQuota(await upload('employee', 64), HOUR, /^You have uploaded 3 receipts in the last hour; try again in 60 minutes\.$/);
      // Nothing was stored for the refused one, and a colleague uploads as usual.
      expect((await upload('manager', 64)).status).toBe(201);
      clock.advance(HOUR * 1000 + 1000);
      tokens.employee = await signIn(t.app, f.email('employee'));
      tokens.manager = await signIn(t.app, f.email('manager'));
      expect((await upload('employee', 64)).status).toBe(201);
    });

    it('sums bytes per person per day: a file that would pass the day waits for the oldest bytes to leave it', async () => {
      // The manager has 64 bytes from the last test (an hour ago); 400 + 400 more is 864.
      clock.advance(2 * HOUR * 1000);
      tokens.manager = await signIn(t.app, f.email('manager'));
      expect((await upload('manager', 400)).status).toBe(201);
      clock.advance(HOUR * 1000);
      tokens.manager = await signIn(t.app, f.email('manager'));
      expect((await upload('manager', 400)).status).toBe(201);
      // 864 + 300 > 1000; leaving the window first: the 64 (not enough), then the first 400.
      const refused = await upload('manager', 300);
      expectQuota(refused, DAY - HOUR, /^You have uploaded 864 bytes of receipts in the last 24 hours; this file would pass your daily 1000 bytes\. Try again in 23 hours\.$/);
      // A file that fits the rest of the day still goes (864 + 100 ≤ 1000).
      expect((await upload('manager', 100)).status).toBe(201);
    });
  });

  describe('sign-ups and sign-in links', () => {
    const signUp = (email: string, headers: Record<string, string>) =>
      request(t.app, 'POST', '/v1/public/sign-up', {
        headers, body: { email, password: 'a-long-password-1', first_name: 'A', last_name: 'B', business_name: 'C' },
      });
    const sendLink = (email: string, headers: Record<string, string>) =>
      request(t.app, 'POST', '/v1/public/passwordless/send', { headers, body: { email } });

    it('sign-ups: per email address asked for, and per client address', async () => {
      const email = newEmail('signup');
      expect((await signUp(email, fromNewAddress())).status).toBe(201);
      // The same address again is refused as taken, and still counts: the third is a quota refusal.
      expect((await signUp(email, fromNewAddress())).status).toBe(422);
      expectQuota(await signUp(email, fromNewAddress()), HOUR, /^This email address was used to sign up 2 times in the last hour; try again in 60 minutes\.$/);
      const address = fromNewAddress();
      for (let i = 0; i < 3; i++) expect((await signUp(newEmail('signup'), address)).status).toBe(201);
      expectQuota(await signUp(newEmail('signup'), address), HOUR, /^There have been 3 sign-ups from your network in the last hour; try again in 60 minutes\.$/);
      clock.advance(HOUR * 1000 + 1000);
      expect((await signUp(newEmail('signup'), address)).status).toBe(201);
    });

    it('sign-in links: per email address asked for (known or not) and per client address', async () => {
      const unknown = newEmail('nobody');
      expect((await sendLink(unknown, fromNewAddress())).status).toBe(204);
      expect((await sendLink(unknown, fromNewAddress())).status).toBe(204);
      expectQuota(await sendLink(unknown, fromNewAddress()), HOUR, /^2 sign-in links were requested for this email address in the last hour; try again in 60 minutes\.$/);
      const address = fromNewAddress();
      for (let i = 0; i < 3; i++) expect((await sendLink(newEmail('nobody'), address)).status).toBe(204);
      expectQuota(await sendLink(newEmail('nobody'), address), HOUR, /^3 sign-in links were requested from your network in the last hour; try again in 60 minutes\.$/);
    });
  });
});
