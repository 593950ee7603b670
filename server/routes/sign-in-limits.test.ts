/**
 * Sign-in throttling protects accounts without locking their owners out (SIGN_IN_POLICY): the
 * (account, address) pair gets growing delays after 5 failures, a clean pair is never refused, the
 * per-address budget and the per-account ceiling only hold back addresses that failed on the
 * account, and every spelling of an address is one account.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { pairDelaySeconds, SIGN_IN_POLICY, signInKeys } from '../auth/sign-in-limits.ts';
import type { Db } from '../db/db.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { FIXTURE_PASSWORD, makeBusiness, request } from '../test-fixtures.ts';
import { testClock } from './identity-test-kit.ts';

const P = SIGN_IN_POLICY;
const clock = testClock();
let addressSeq = 0;
/** A fresh documentation address per use, so tests never share a pair or an address budget. */
const nextAddress = () => `198.51.100.${(addressSeq += 1)}`;

it('pair delays: none for the free failures, then doubling from 30 s to the 15 min cap', () => {
  expect([4, 5, 6, 7, 9, 10, 50].map(pairDelaySeconds)).toEqual([0, 30, 60, 120, 480, 900, 900]);
});

describe.each(await testDatabases())('sign-in limits on %s', (kind) => {
  const t = useTestApp(kind, { now: clock.now });
  afterEach(() => {
    delete process.env.LEDGERLINE_TRUST_PROXY;
  });
  const signInFrom = (address: string | null, email: string, password: string) => {
    if (address) process.env.LEDGERLINE_TRUST_PROXY = '1';
    return request(t.app, 'POST', '/v1/public/sign-in', { headers: address ? { 'x-forwarded-for': address } : {}, body: { email, password } });
  };
  const expectThrottled = (res: Awaited<ReturnType<typeof signInFrom>>, retryAfter: number) => {
    expect(res.status).toBe(429);
    expect(res.body.error_v2.error_code).toBe('AUTH_7029');
    expect(Number(res.headers.get('retry-after'))).toBe(retryAfter);
  };
  async function prefill(db: Db, key: string, n: number) {
    await db.query('INSERT INTO login_failures (key, at) SELECT $1, $2 FROM generate_series(1, $3)', [key, new Date(clock.ms), n]);
  }

  it("an attacker's failures do not refuse the owner's correct password from another address (any spelling)", async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const email = f.email('owner');
    const attacker = nextAddress();
    for (let i = 0; i < 12; i++) {
      const spelling = i % 2 === 0 ? email.toUpperCase() : email;
      const res = await signInFrom(attacker, spelling, 'wrong-password');
      expect(res.status).toBe(i < P.pairFreeFailures ? 401 : 429);
    }
    expect((await signInFrom(nextAddress(), email, FIXTURE_PASSWORD)).status).toBe(200);
    expect((await signInFrom(nextAddress(), email.toUpperCase(), FIXTURE_PASSWORD)).status).toBe(200);
    // The attacker's pair, under either spelling, waits even with the right password.
    expectThrottled(await signInFrom(attacker, email, FIXTURE_PASSWORD), P.pairFirstDelaySeconds);
    expectThrottled(await signInFrom(attacker, email.toUpperCase(), FIXTURE_PASSWORD), P.pairFirstDelaySeconds);
  });

  it('a pair waits longer after each failure past the free ones; its success forgets them', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const email = f.email('employee');
    const me = nextAddress();
    for (let i = 0; i < P.pairFreeFailures; i++) expect((await signInFrom(me, email, 'wrong-password')).status).toBe(401);
    expectThrottled(await signInFrom(me, email, 'wrong-password'), 30);
    clock.advance(30_000);
    expect((await signInFrom(me, email, 'wrong-password')).status).toBe(401);
    expectThrottled(await signInFrom(me, email, FIXTURE_PASSWORD), 60);
    clock.advance(60_000);
    expect((await signInFrom(me, email, 'wrong-password')).status).toBe(401);
    expectThrottled(await signInFrom(me, email, FIXTURE_PASSWORD), 120);
    clock.advance(120_000);
    expect((await signInFrom(me, email, FIXTURE_PASSWORD)).status).toBe(200);
    // Forgotten: the free failures are free again.
    for (let i = 0; i < P.pairFreeFailures; i++) expect((await signInFrom(me, email, 'wrong-password')).status).toBe(401);
    expect((await signInFrom(me, email, 'wrong-password')).status).toBe(429);
  });

  it('the per-address budget stops an address spraying accounts it failed on, never a clean account', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const sprayer = nextAddress();
    // One real failure on the admin's account, then the address's budget filled by "others".
    expect((await signInFrom(sprayer, f.email('admin'), 'wrong-password')).status).toBe(401);
    await prefill(t.db, signInKeys('x', sprayer).address!.key, P.addressMaxFailures);
    expectThrottled(await signInFrom(sprayer, f.email('admin'), FIXTURE_PASSWORD), P.addressWindowSeconds);
    // An account this address has not failed on: the correct password signs in.
    expect((await signInFrom(sprayer, f.email('manager'), FIXTURE_PASSWORD)).status).toBe(200);
    expect((await signInFrom(nextAddress(), f.email('admin'), FIXTURE_PASSWORD)).status).toBe(200);
    clock.advance(P.addressWindowSeconds * 1000 + 1000);
    expect((await signInFrom(sprayer, f.email('admin'), FIXTURE_PASSWORD)).status).toBe(200);
  });

  it('the per-account ceiling holds back addresses that failed on the account; a clean address signs in', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const email = f.email('bookkeeper');
    const guesser = nextAddress();
    expect((await signInFrom(guesser, email, 'wrong-password')).status).toBe(401);
    await prefill(t.db, signInKeys(email, null).account.key, P.accountCeiling);
    expectThrottled(await signInFrom(guesser, email, FIXTURE_PASSWORD), P.accountCeilingWindowSeconds);
    expect((await signInFrom(nextAddress(), email.toUpperCase(), FIXTURE_PASSWORD)).status).toBe(200);
  });

  it('in-process requests (no address) are one client: throttled as one pair', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const email = f.email('auditor');
    for (let i = 0; i < P.pairFreeFailures; i++) expect((await signInFrom(null, email, 'wrong-password')).status).toBe(401);
    expectThrottled(await signInFrom(null, email, FIXTURE_PASSWORD), P.pairFirstDelaySeconds);
    clock.advance(P.pairFirstDelaySeconds * 1000);
    expect((await signInFrom(null, email, FIXTURE_PASSWORD)).status).toBe(200);
  });

  it('folds every address once: sign-up and invites store it folded, sign-in finds either spelling', async () => {
    const upper = `Mixed.Case-${clock.ms}-${kind}@SignUp.Test`;
    const signUp = await request(t.app, 'POST', '/v1/public/sign-up', {
      body: { email: upper, password: 'a-long-password-1', first_name: 'A', last_name: 'B', business_name: 'C' },
    });
    expect(signUp.status).toBe(201);
    const [row] = await t.db.query<{ email: string }>('SELECT email FROM identities WHERE lower(email) = $1', [upper.toLowerCase()]);
    expect(row?.email).toBe(upper.toLowerCase());
    expect((await signInFrom(nextAddress(), upper, 'a-long-password-1')).status).toBe(200);

    const f = await makeBusiness(t.db, { transactions: 0 });
    const admin = (await signInFrom(nextAddress(), f.email('admin'), FIXTURE_PASSWORD)).body.id_token as string;
    const invited = `New.Person@${f.businessId.slice(0, 8)}.Invite.Test`;
    const res = await request(t.app, 'POST', '/v1/auth/businesses/users/invite', {
      token: admin, body: { email: invited, first_name: 'New', last_name: 'Person', role: 'BUSINESS_USER' },
    });
    expect(res.status).toBe(201);
    expect(res.body.user.email).toBe(invited.toLowerCase());
    const [identity] = await t.db.query<{ email: string }>('SELECT email FROM identities WHERE lower(email) = $1', [invited.toLowerCase()]);
    expect(identity?.email).toBe(invited.toLowerCase());
  });
});
