/**
 * Issue 30: card days settle once however the job races: two server processes on one PostgreSQL,
 * each running the card settlement job twice at once for the same "now", post one entry per
 * (currency, day), and card_settlements' UNIQUE refuses a second row by itself.
 */
import { describe, expect, it } from 'vitest';
import { checkLedger } from '../ledger/check.ts';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { settleCardSpend } from './card-settlement.ts';

describe.skipIf(!(await pgAvailable()))('card settlement job races on PostgreSQL', () => {
  it('settles each day once when four runs on two processes race', async () => {
    await withPgBusiness({ transactions: 120 }, async ({ dbA, dbB, f }) => {
      const now = new Date('2026-01-20T12:00:00Z');
      const runs = await Promise.all([dbA, dbB, dbA, dbB].map((db) => settleCardSpend(db, now)));
      // 120 hourly transactions from Jan 1: five days.
      expect(runs.reduce((s, r) => s + r.settled, 0)).toBe(5);
      expect(runs.reduce((s, r) => s + r.failed, 0)).toBe(0);
      const entries = await dbA.query<{ idem_key: string }>(
        `SELECT idem_key FROM journal_entries WHERE business_id = $1 AND kind = 'CARD_SETTLEMENT' ORDER BY idem_key`, [f.businessId]);
      expect(entries.map((e) => e.idem_key)).toEqual(['01', '02', '03', '04', '05'].map((d) => `card-settlement:USD:2026-01-${d}`));
      const [{ total }] = (await dbA.query<{ total: string }>(
        `SELECT sum(amount)::text AS total FROM transactions WHERE business_id = $1 AND state = 'CLEARED'`, [f.businessId])) as [{ total: string }];
      const [{ network }] = (await dbA.query<{ network: string }>(
        `SELECT balance::text AS network FROM ledger_accounts WHERE business_id = $1 AND kind = 'CARD_NETWORK'`, [f.businessId])) as [{ network: string }];
      expect(Number(network)).toBe(Number(total));
      expect((await checkLedger(dbA, f.businessId)).ok).toBe(true);
      await expect(dbA.query(
        `INSERT INTO card_settlements (id, business_id, currency, day, net, transactions, status, entry_id, settled_at)
         VALUES (gen_random_uuid(), $1, 'USD', '2026-01-01', 1, 1, 'SETTLED', NULL, now())`, [f.businessId],
      )).rejects.toMatchObject({ code: '23505' });
    });
  });
});
