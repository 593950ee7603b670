import { describe, expect, it } from 'vitest';
import { createApp } from './app.ts';
import { SUPPORT_EMAIL } from './seed/support.ts';
import { DEMO_PASSWORD } from './seed/types.ts';
import { prepareDatabase } from './startup.ts';
import { openTestDb, testDatabases } from './test-db.ts';
import { TEST_TOKEN_SECRET } from './test-app.ts';
import { FIXTURE_PASSWORD, makeBusiness, request } from './test-fixtures.ts';

const SMALL = { SEED_TRANSACTIONS: '0', SEED_REIMBURSEMENTS: '0', SEED_BILLS: '0' };
const FAST = { N: 2 ** 10, r: 8, p: 1 };
/** Every password the repository or its docs publish. */
const PUBLISHED = [DEMO_PASSWORD, FIXTURE_PASSWORD, 'support-password-1', 'support-test-password-1'];

describe.each(await testDatabases())('npm start preparing its database on %s', (kind) => {
  const identities = async (db: { query: <T>(sql: string) => Promise<T[]> }) =>
    (await db.query<{ email: string }>('SELECT email FROM identities ORDER BY email')).map((r) => r.email);

  it('creates no identity on a database that already holds a business, nor on an empty one with LEDGERLINE_SEED_DEMO=0', async () => {
    const signedUp = await openTestDb(kind);
    const empty = await openTestDb(kind);
    try {
      const f = await makeBusiness(signedUp.db, { transactions: 0 });
      const before = await identities(signedUp.db);
      const log: string[] = [];
      expect(await prepareDatabase(signedUp.db, { ...SMALL, LEDGERLINE_SUPPORT_PASSWORD: undefined }, (l) => log.push(l))).toEqual({ seeded: false });
      expect(await identities(signedUp.db)).toEqual(before);
      expect(before).not.toContain(SUPPORT_EMAIL);
      expect(before).toContain(f.email('owner'));

      expect(await prepareDatabase(empty.db, { ...SMALL, LEDGERLINE_SEED_DEMO: '0' }, (l) => log.push(l))).toEqual({ seeded: false });
      expect(await identities(empty.db)).toEqual([]);
      expect(log.join('\n')).not.toMatch(/password/i);
    } finally {
      await signedUp.close();
      await empty.close();
    }
  });

  it('the demo seed gives support a random password printed once, a second factor to enrol, and no published password', async () => {
    const t = await openTestDb(kind);
    const app = createApp({ db: t.db, tokenSecret: TEST_TOKEN_SECRET });
    try {
      const log: string[] = [];
      expect(await prepareDatabase(t.db, SMALL, (l) => log.push(l), { receipts: false, scrypt: FAST })).toEqual({ seeded: true });
      const printed = log.filter((l) => l.includes(SUPPORT_EMAIL));
      expect(printed).toHaveLength(1);
      const password = /password (\S+) \(shown this once/.exec(printed[0]!)?.[1];
      expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
      const [support] = await t.db.query<{ is_support: boolean; mfa_required: boolean }>(
        'SELECT is_support, mfa_required FROM identities WHERE lower(email) = $1', [SUPPORT_EMAIL],
      );
      expect(support).toEqual({ is_support: true, mfa_required: true });

      for (const guess of PUBLISHED) {
        const res = await request(app, 'POST', '/v1/public/sign-in', { body: { email: SUPPORT_EMAIL, password: guess } });
        expect(res.status, guess).toBe(401);
        expect(res.body.error_v2.error_code).toBe('AUTH_7001');
      }
      // The printed password signs in only to the second-factor step: no scope, no impersonation.
      const res = await request(app, 'POST', '/v1/public/sign-in', { body: { email: SUPPORT_EMAIL, password } });
      expect(res.status).toBe(200);
      expect(res.body.mfa_required).toBe(true);
      const start = await request(app, 'POST', '/v1/auth/impersonation/start', {
        token: res.body.id_token, body: { user_id: '00000000-0000-4000-8000-000000000000' },
      });
      expect(start.body.error_v2.error_code).toBe('AUTH_7016');

      // A second start seeds nothing and prints no password.
      const again: string[] = [];
      expect(await prepareDatabase(t.db, SMALL, (l) => again.push(l))).toEqual({ seeded: false });
      expect(again.join('\n')).not.toContain(SUPPORT_EMAIL);
    } finally {
      await app.close();
      await t.close();
    }
  });

  it('LEDGERLINE_SUPPORT_PASSWORD chooses it; the published demo password or a short one is refused before seeding', async () => {
    const refused = await openTestDb(kind);
    try {
      for (const bad of [DEMO_PASSWORD, 'short']) {
        await expect(prepareDatabase(refused.db, { ...SMALL, LEDGERLINE_SUPPORT_PASSWORD: bad }, () => {})).rejects.toThrow(/LEDGERLINE_SUPPORT_PASSWORD/);
      }
      expect(await identities(refused.db)).toEqual([]);
      const log: string[] = [];
      await prepareDatabase(refused.db, { ...SMALL, LEDGERLINE_SUPPORT_PASSWORD: 'chosen-support-password' }, (l) => log.push(l), { receipts: false, scrypt: FAST });
      expect(log.join('\n')).not.toContain('chosen-support-password');
      const app = createApp({ db: refused.db, tokenSecret: TEST_TOKEN_SECRET });
      const res = await request(app, 'POST', '/v1/public/sign-in', { body: { email: SUPPORT_EMAIL, password: 'chosen-support-password' } });
      expect([res.status, res.body.mfa_required]).toEqual([200, true]);
      await app.close();
    } finally {
      await refused.close();
    }
  });
});
