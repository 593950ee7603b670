/**
 * Issue 30: card spend settles each charge once however the job races: two server processes on one
 * PostgreSQL, each running the card settlement job twice at once for the same "now", settle every
 * cleared charge in exactly one batch with one entry; a charge that clears later is settled once by
 * the next racing runs; card_settlement_items' key refuses a second settlement of a charge by itself.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkLedger } from '../ledger/check.ts';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { settleCardSpend } from './card-settlement.ts';

describe.skipIf(!(await pgAvailable()))('card settlement job races on PostgreSQL', () => {
  it('settles each charge once when four runs on two processes race, and a late-cleared one once more', async () => {
    await withPgBusiness({ transactions: 120 }, async ({ dbA, dbB, f }) => {
      const q = async (sql: string) => Number((await dbA.query<{ n: string }>(sql, [f.businessId]))[0]!.n);
      const network = () => q(`SELECT balance::text AS n FROM ledger_accounts WHERE business_id = $1 AND kind = 'CARD_NETWORK'`);
      const cleared = () => q(`SELECT sum(amount)::text AS n FROM transactions WHERE business_id = $1 AND state = 'CLEARED'`);
      // A charge of Jan 2 still pending when its day is settled.
      const late = randomUUID();
      await dbA.query(
        `INSERT INTO transactions (id, business_id, card_id, user_id, merchant_name, amount, currency, occurred_at, state, change_seq)
         VALUES ($1, $2, $3, $4, 'Late', 4321, 'USD', '2026-01-02T12:00:00Z', 'PENDING',
                 (SELECT change_seq + 1 FROM businesses WHERE id = $2))`, [late, f.businessId, f.cards.admin, f.users.admin]);
      await dbA.query('UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $1', [f.businessId]);

      const race = (now: Date) => Promise.all([dbA, dbB, dbA, dbB].map((db) => settleCardSpend(db, now)));
      const first = await race(new Date('2026-01-20T12:00:00Z'));
      expect(first.reduce((s, r) => s + r.settled, 0)).toBe(1);
      expect(first.reduce((s, r) => s + r.failed, 0)).toBe(0);
      expect(await q(`SELECT count(*)::text AS n FROM card_settlement_items WHERE business_id = $1`)).toBe(120);
      expect(await network()).toBe(await cleared());

      await dbB.query(`UPDATE transactions SET state = 'CLEARED' WHERE id = $1`, [late]);
      const second = await race(new Date('2026-01-20T13:00:00Z'));
      expect(second.reduce((s, r) => s + r.settled, 0)).toBe(1);
      expect(await q(`SELECT count(*)::text AS n FROM card_settlement_items WHERE business_id = $1`)).toBe(121);
      expect(await q(`SELECT count(*)::text AS n FROM journal_entries WHERE business_id = $1 AND kind = 'CARD_SETTLEMENT'`)).toBe(2);
      expect(await network()).toBe(await cleared());
      expect((await checkLedger(dbA, f.businessId)).ok).toBe(true);

      const [settlement] = await dbA.query<{ id: string }>(`SELECT id::text FROM card_settlements WHERE business_id = $1 LIMIT 1`, [f.businessId]);
      await expect(dbA.query(
        `INSERT INTO card_settlement_items (business_id, settlement_id, transaction_id, amount) VALUES ($1, $2, $3, 4321)`,
        [f.businessId, settlement!.id, late],
      )).rejects.toMatchObject({ code: '23505' });
    });
  });
});
