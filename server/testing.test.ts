import { describe, expect, it } from 'vitest';
import { listTransactions } from '../schema/api/calls.ts';
import { sseReader } from './test-fixtures.ts';
import { DEFAULT_PG_ADMIN_URL, pgAvailable, startTestServer, type TestServerOptions } from './testing.ts';

// PostgreSQL is opt-in here (seeding ~40 scrypt hashes is the slow part, and the pg database
// lifecycle is already exercised by every *.test.ts through createPgDatabase).
const targets: [string, TestServerOptions][] = [['pglite', {}]];
if (process.env.LEDGERLINE_FULL_PG === '1' && (await pgAvailable())) targets.push(['pg', { databaseUrl: DEFAULT_PG_ADMIN_URL }]);

describe.each(targets)('startTestServer on %s', (_kind, opts) => {
  it('serves the seeded demo business over real HTTP, and closes promptly despite an open stream', async () => {
    const server = await startTestServer({ ...opts, transactions: 40 });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const signIn = await fetch(`${server.url}/v1/public/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@demo.test', password: 'demo-password-1' }),
      });
      const { id_token } = (await signIn.json()) as { id_token: string };
      const res = await fetch(`${server.url}/v1/auth/transactions?page_size=5&include_count=true`, { headers: { 'RAMP-ID-TOKEN': id_token } });
      const page = listTransactions.response.parse(await res.json());
      expect(page.total_count).toBe(40);
      expect(page.data.every((t) => t.business_id === server.businessId)).toBe(true);

      const sse = sseReader(await fetch(`${server.url}/v1/auth/sync/stream`, { headers: { 'RAMP-ID-TOKEN': id_token } }));
      await sse.until(() => sse.seqs().length === 1);
      const started = performance.now();
      await server.close();
      expect(performance.now() - started).toBeLessThan(2_000);
      await expect(sse.until(() => false)).rejects.toThrow(/stream ended/);
    } finally {
      await server.close().catch(() => {});
    }
    await expect(fetch(`${server.url}/v1/auth/identity`)).rejects.toThrow();
  });
});

describe('startTestServer with reuseSeed', () => {
  it('starts the second server with the same seed options from a copy of the first one’s seed, taken before it started', async () => {
    const first = await startTestServer({ transactions: 5, reuseSeed: true });
    let second: Awaited<ReturnType<typeof startTestServer>> | null = null;
    try {
      // Written once the first server is up: after the copy was taken, so never in the second.
      await first.db.query(`UPDATE transactions SET memo = 'only in the first'`);
      second = await startTestServer({ transactions: 5, reuseSeed: true });
      expect(second.businessId).toBe(first.businessId);
      // Every seed hashes each password with a fresh salt: equal hashes mean the rows were copied.
      const hashes = (s: typeof first) => s.db.query<{ email: string; password_hash: string }>('SELECT email, password_hash FROM identities ORDER BY email');
      expect(await hashes(second)).toEqual(await hashes(first));
      expect(await second.db.query(`SELECT id FROM transactions WHERE memo = 'only in the first'`)).toEqual([]);
      const count = 'SELECT count(*)::int AS n FROM transactions';
      expect(await second.db.query(count)).toEqual(await first.db.query(count));
      const signIn = await fetch(`${second.url}/v1/public/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@demo.test', password: 'demo-password-1' }),
      });
      expect(signIn.status).toBe(200);
    } finally {
      await second?.close();
      await first.close();
    }
  });
});
