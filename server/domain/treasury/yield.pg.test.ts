/**
 * Issue 30: the investment yield is accrued exactly once per account and day even when two server
 * processes run the daily job at once (four runs over two pools), and the record's key refuses a
 * second accrual by itself.
 */
import { describe, expect, it } from 'vitest';
import { checkLedger } from '../../ledger/check.ts';
import { withPgBusiness } from '../../test-pg-race.ts';
import { pgAvailable } from '../../testing.ts';
import { fundAccount, openAccount } from '../../routes/treasury-test-kit.ts';
import { accrueYield } from './yield.ts';

describe.skipIf(!(await pgAvailable()))('investment yield races on PostgreSQL', () => {
  it('posts each account\'s day once when four runs on two processes race', async () => {
    await withPgBusiness({ transactions: 0, operating: {} }, async ({ dbA, dbB, f }) => {
      await dbA.query('INSERT INTO wallet_settings (business_id, yield_rate_bps) VALUES ($1, 450)', [f.businessId]);
      const opened = new Date('2026-11-20T10:00:00Z');
      const accounts = [
        await openAccount(dbA, f.businessId, 'INVESTMENT', 'T-bills', true, opened),
        await openAccount(dbA, f.businessId, 'INVESTMENT', 'Money market', false, opened),
      ];
      for (const a of accounts) await fundAccount(dbA, f.businessId, a, 2_000_000, opened);
      const now = new Date('2026-11-30T08:00:00Z');
      const runs = await Promise.all([dbA, dbB, dbA, dbB].map((db) => accrueYield(db, now, f.businessId)));
      // The 20th to the 29th: ten days per account.
      expect(runs.reduce((s, r) => s + r.days, 0)).toBe(20);
      const perDay = await dbA.query(
        `SELECT account_id, day FROM yield_accruals WHERE business_id = $1 GROUP BY account_id, day HAVING count(*) > 1`, [f.businessId]);
      expect(perDay).toEqual([]);
      const entries = await dbA.query<{ n: string }>(`SELECT count(*)::text AS n FROM journal_entries WHERE business_id = $1 AND kind = 'YIELD_ACCRUAL'`, [f.businessId]);
      expect(Number(entries[0]!.n)).toBe(20);
      await expect(dbA.query(
        `INSERT INTO yield_accruals (account_id, day, business_id, balance, rate_bps, amount) VALUES ($1, '2026-11-21', $2, 0, 0, 0)`,
        [accounts[0], f.businessId],
      )).rejects.toMatchObject({ code: '23505' });
      const report = await checkLedger(dbA, f.businessId);
      expect(report.ok, JSON.stringify(report)).toBe(true);
    });
  });
});
