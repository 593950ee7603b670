import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../ledger/check.ts';
import { fund } from '../ledger/ledger.ts';
import { openTestDb, testDatabases, type TestDb } from '../test-db.ts';
import { makeBusiness } from '../test-fixtures.ts';
import { lastSettleableDay, settleCardSpend } from './card-settlement.ts';

/**
 * Issue 30: a card day settles through the ledger once it is three days old: the net of its
 * cleared transactions OPERATING → CARD_NETWORK (refunds net in, a negative net moves back), one
 * card_settlements row per (business, currency, day), never twice; a day the account cannot cover
 * is FAILED with the reason, nothing posted, and settles on a later run once the money is there.
 */
describe.each(await testDatabases())('card settlement on %s', (kind) => {
  let t: TestDb;
  beforeAll(async () => { t = await openTestDb(kind); });
  afterAll(() => t.close());

  const rows = (businessId: string) => t.db.query<{ day: string; net: number; status: string; attempts: number; failure_reason: string | null }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, net::int8 AS net, status, attempts, failure_reason FROM card_settlements
      WHERE business_id = $1 ORDER BY day`, [businessId]);
  const balanceOf = async (businessId: string, kind: string) => Number((await t.db.query<{ b: string }>(
    `SELECT coalesce(sum(balance), 0)::text AS b FROM ledger_accounts WHERE business_id = $1 AND kind = $2`, [businessId, kind]))[0]!.b);
  const entries = async (businessId: string) => Number((await t.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM journal_entries WHERE business_id = $1 AND kind = 'CARD_SETTLEMENT'`, [businessId]))[0]!.n);

  async function addTransaction(businessId: string, card: string, user: string, amount: number, occurredAt: string, state = 'CLEARED') {
    const [{ seq }] = (await t.db.query<{ seq: number }>(
      'UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $1 RETURNING change_seq AS seq', [businessId])) as [{ seq: number }];
    await t.db.query(
      `INSERT INTO transactions (id, business_id, card_id, user_id, merchant_name, amount, currency, occurred_at, state, change_seq)
       VALUES ($1, $2, $3, $4, 'Refund test', $5, 'USD', $6, $7, $8)`,
      [randomUUID(), businessId, card, user, amount, occurredAt, state, seq]);
  }

  it('settles each day three days old once, nets refunds, and the ledger checks', async () => {
    // 60 fixture transactions, one an hour from 2026-01-01T00:00Z: Jan 1 (24), Jan 2 (24), Jan 3 (12).
    const f = await makeBusiness(t.db, { transactions: 60 });
    await addTransaction(f.businessId, f.cards.admin, f.users.admin, -500, '2026-01-02T10:00:00Z');
    await addTransaction(f.businessId, f.cards.admin, f.users.admin, 9_999, '2026-01-02T11:00:00Z', 'PENDING');
    await addTransaction(f.businessId, f.cards.admin, f.users.admin, -700, '2026-01-04T09:00:00Z');
    // Before the operating account was opened (2025-01-01): settled outside Ledgerline.
    await addTransaction(f.businessId, f.cards.admin, f.users.admin, 1_234, '2024-12-30T09:00:00Z');
    const cleared = await t.db.query<{ day: string; net: string }>(
      `SELECT to_char((occurred_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, sum(amount)::text AS net FROM transactions
        WHERE business_id = $1 AND state = 'CLEARED' AND occurred_at >= '2025-01-01' GROUP BY 1 ORDER BY 1`, [f.businessId]);
    expect(cleared.map((c) => c.day)).toEqual(['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04']);

    expect(lastSettleableDay(new Date('2026-01-06T23:00:00Z'))).toBe('2026-01-03');
    await settleCardSpend(t.db, new Date('2026-01-06T23:00:00Z'));
    const first = await rows(f.businessId);
    expect(first.map((r) => [r.day, r.net, r.status])).toEqual(cleared.slice(0, 3).map((c) => [c.day, Number(c.net), 'SETTLED']));
    const spent = cleared.slice(0, 3).reduce((s, c) => s + Number(c.net), 0);
    expect(await balanceOf(f.businessId, 'CARD_NETWORK')).toBe(spent);

    // Again, and later: Jan 4 (a refund alone: the network gives it back), nothing twice.
    await settleCardSpend(t.db, new Date('2026-01-06T23:30:00Z'));
    expect(await entries(f.businessId)).toBe(3);
    await settleCardSpend(t.db, new Date('2026-01-07T08:00:00Z'));
    expect(await entries(f.businessId)).toBe(4);
    expect(await balanceOf(f.businessId, 'CARD_NETWORK')).toBe(spent - 700);
    expect((await rows(f.businessId)).map((r) => r.day)).not.toContain('2024-12-30');
    expect((await checkLedger(t.db, f.businessId)).ok).toBe(true);
  });

  it('a day the operating account cannot cover fails with the reason, posts nothing, and settles once funded', async () => {
    const f = await makeBusiness(t.db, { transactions: 0, operating: { USD: 1_000 } });
    await addTransaction(f.businessId, f.cards.admin, f.users.admin, 5_000, '2026-02-02T10:00:00Z');
    await settleCardSpend(t.db, new Date('2026-02-10T00:00:00Z'));
    let [row] = await rows(f.businessId);
    expect(row).toMatchObject({ status: 'FAILED', net: 5_000, attempts: 1 });
    expect(row!.failure_reason).toMatch(/Not enough funds in Operating USD: 10\.00 USD is available/);
    expect(await entries(f.businessId)).toBe(0);
    await settleCardSpend(t.db, new Date('2026-02-10T01:00:00Z'));
    [row] = await rows(f.businessId);
    expect(row).toMatchObject({ status: 'FAILED', attempts: 2 });

    await t.db.transaction((tx) => fund(tx, {
      businessId: f.businessId, account: f.operatingAccounts.USD!, amount: 10_000, currency: 'USD', key: 'top-up', at: new Date('2026-02-10T02:00:00Z'),
    }));
    await settleCardSpend(t.db, new Date('2026-02-10T03:00:00Z'));
    [row] = await rows(f.businessId);
    expect(row).toMatchObject({ status: 'SETTLED', attempts: 3, failure_reason: null });
    expect(await balanceOf(f.businessId, 'OPERATING')).toBe(6_000);
    await settleCardSpend(t.db, new Date('2026-02-11T03:00:00Z'));
    expect(await entries(f.businessId)).toBe(1);
    expect((await checkLedger(t.db, f.businessId)).ok).toBe(true);
  });

  it('a currency without a primary operating account is left alone', async () => {
    const f = await makeBusiness(t.db, { transactions: 5, operating: {} });
    await settleCardSpend(t.db, new Date('2026-03-01T00:00:00Z'));
    expect(await rows(f.businessId)).toEqual([]);
  });
});
