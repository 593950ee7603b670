/**
 * Sync commits race (issue 12): concurrent commits for one business through two API processes
 * sharing one PostgreSQL (each with its own pool) never put one item in two commits; exactly one
 * wins, the others are told a commit is running (ACCOUNTING_7302) or that nothing is left
 * (ACCOUNTING_7303), and a coding edit racing a commit either lands before it or is refused after.
 */
import { describe, expect, it } from 'vitest';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { request, signIn } from '../test-fixtures.ts';

const ACC = '/v1/auth/accounting';
const RACERS = 8;

describe.skipIf(!(await pgAvailable()))('sync commit races on PostgreSQL', () => {
  it('puts every item in exactly one commit however commits race', async () => {
    await withPgBusiness({ transactions: 300 }, async ({ dbA, appA, appB, f, admin }) => {
      await dbA.query('UPDATE transactions SET gl_account_id = $2 WHERE business_id = $1', [f.businessId, f.glAccounts.active[0]]);
      const bookkeeper = await signIn(appB, f.email('bookkeeper'));
      expect((await request(appA, 'POST', `${ACC}/providers/csv/connect`, { token: admin, body: {} })).status).toBe(200);
      const commitRace = () => Promise.all(Array.from({ length: RACERS }, (_, i) =>
        request(i % 2 === 0 ? appA : appB, 'POST', `${ACC}/providers/csv/sync_commit`, { token: i % 2 === 0 ? admin : bookkeeper, body: {} })));
      const itemsPerObject = async () => dbA.query<{ object_id: string; n: number }>(
        `SELECT object_id::text, count(*) AS n FROM accounting_sync_items WHERE business_id = $1 GROUP BY object_id`, [f.businessId]);

      const round1 = await commitRace();
      const won = round1.filter((r) => r.status === 201);
      expect(won, round1.map((r) => `${r.status} ${r.text.slice(0, 80)}`).join('\n')).toHaveLength(1);
      expect(won[0]!.body.item_count).toBe(300);
      for (const r of round1.filter((x) => x.status !== 201)) expect(['ACCOUNTING_7302', 'ACCOUNTING_7303']).toContain(r.body.error_v2.error_code);
      let per = await itemsPerObject();
      expect(per).toHaveLength(300);
      expect(per.every((p) => Number(p.n) === 1)).toBe(true);

      // Half marked not synced, then commits race with edits of those rows: no row in two commits
      // of this round, and every edit either landed before the winner marked the row or was refused.
      const half = f.allTransactions.slice(0, 150);
      const items = half.map((id) => ({ type: 'transaction', id }));
      expect((await request(appA, 'POST', `${ACC}/mark-not-synced`, { token: admin, body: { items } })).status).toBe(200);
      const edits = half.slice(0, 20).map((id, i) =>
        request(i % 2 === 0 ? appB : appA, 'PATCH', `/v1/auth/transactions/${id}`, { token: admin, body: { memo: `edited ${i}` } }));
      const [round2, edited] = await Promise.all([commitRace(), Promise.all(edits)]);
      expect(round2.filter((r) => r.status === 201)).toHaveLength(1);
      for (const e of edited) expect([200, 409]).toContain(e.status);
      per = await itemsPerObject();
      expect(per.filter((p) => Number(p.n) === 2)).toHaveLength(150);
      const synced = await dbA.query<{ n: number }>(
        'SELECT count(*) AS n FROM transactions WHERE business_id = $1 AND accounting_synced_at IS NOT NULL', [f.businessId]);
      expect(Number(synced[0]!.n)).toBe(300);
      const [commits] = await dbA.query<{ n: number; items: number }>(
        'SELECT count(*) AS n, sum(item_count) AS items FROM accounting_sync_commits WHERE business_id = $1', [f.businessId]);
      expect([Number(commits!.n), Number(commits!.items)]).toEqual([2, 450]);
    });
  });
});
