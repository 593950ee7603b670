import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../ledger/check.ts';
import { fund } from '../ledger/ledger.ts';
import { openTestDb, testDatabases, type TestDb } from '../test-db.ts';
import { makeBusiness } from '../test-fixtures.ts';
import { chooseBatch, lastSettleableDay, settleCardSpend } from './card-settlement.ts';

describe('chooseBatch', () => {
  const c = (n: number, amount: number, day: string) => ({ id: `c${n}`, amount, day });
  const charges = [c(1, 5_000, '2026-01-01'), c(2, -1_000, '2026-01-03'), c(3, 7_000, '2026-01-05')];
  it.each([
    ['no threshold: the charges three days old', null, 'AGED', ['c1', 'c2']],
    ['a threshold above the unpaid total: the same', 11_001, 'AGED', ['c1', 'c2']],
    ['the unpaid total at the threshold: every charge at once', 11_000, 'AUTOPAY', ['c1', 'c2', 'c3']],
  ] as const)('%s', (_, threshold, cause, ids) => {
    const batch = chooseBatch(charges, threshold, '2026-01-03');
    expect(batch.cause).toBe(cause);
    expect(batch.charges.map((x) => x.id)).toEqual(ids);
  });
  it('nothing unpaid is never an autopay batch, even at a threshold a negative total reaches', () => {
    expect(chooseBatch([], 1, '2026-01-03')).toEqual({ cause: 'AGED', charges: [] });
  });
});

/**
 * Issue 30: card spend settles through the ledger per charge, exactly once: every cleared charge
 * three days old that no settlement covers yet, netted into one batch per business and currency
 * (refunds net in, a negative net moves back), its charges recorded as items; a charge that clears
 * after its day was settled is settled by the next run; a batch the account cannot cover is FAILED
 * with the reason, records no items and settles on a later run; at the autopay threshold every
 * unpaid charge settles at once.
 */
describe.each(await testDatabases())('card settlement on %s', (kind) => {
  let t: TestDb;
  beforeAll(async () => { t = await openTestDb(kind); });
  afterAll(() => t.close());

  const rows = (businessId: string) => t.db.query<{ net: number; status: string; attempts: number; failure_reason: string | null; cause: string; transactions: number }>(
    `SELECT net::int8 AS net, status, attempts, failure_reason, cause, transactions FROM card_settlements
      WHERE business_id = $1 ORDER BY created_at, id`, [businessId]);
  const balanceOf = async (businessId: string, k: string) => Number((await t.db.query<{ b: string }>(
    `SELECT coalesce(sum(balance), 0)::text AS b FROM ledger_accounts WHERE business_id = $1 AND kind = $2`, [businessId, k]))[0]!.b);
  const entries = async (businessId: string) => Number((await t.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM journal_entries WHERE business_id = $1 AND kind = 'CARD_SETTLEMENT'`, [businessId]))[0]!.n);
  const items = async (businessId: string) => t.db.query<{ transaction_id: string; amount: number }>(
    'SELECT transaction_id::text, amount::int8 AS amount FROM card_settlement_items WHERE business_id = $1', [businessId]);
  const clearedSum = async (businessId: string, from = '2025-01-01') => Number((await t.db.query<{ s: string }>(
    `SELECT coalesce(sum(amount), 0)::text AS s FROM transactions WHERE business_id = $1 AND state = 'CLEARED' AND occurred_at >= $2`, [businessId, from]))[0]!.s);

  async function addTransaction(businessId: string, card: string, user: string, amount: number, occurredAt: string, state = 'CLEARED'): Promise<string> {
    const [{ seq }] = (await t.db.query<{ seq: number }>(
      'UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $1 RETURNING change_seq AS seq', [businessId])) as [{ seq: number }];
    const id = randomUUID();
    await t.db.query(
      `INSERT INTO transactions (id, business_id, card_id, user_id, merchant_name, amount, currency, occurred_at, state, change_seq)
       VALUES ($1, $2, $3, $4, 'Settlement test', $5, 'USD', $6, $7, $8)`,
      [id, businessId, card, user, amount, occurredAt, state, seq]);
    return id;
  }

  it('settles each charge three days old once, nets refunds, takes a late-cleared charge next run, and the ledger checks', async () => {
    // 60 fixture transactions, one an hour from 2026-01-01T00:00Z: Jan 1 (24), Jan 2 (24), Jan 3 (12).
    const f = await makeBusiness(t.db, { transactions: 60 });
    const add = (amount: number, at: string, state?: string) => addTransaction(f.businessId, f.cards.admin, f.users.admin, amount, at, state);
    await add(-500, '2026-01-02T10:00:00Z');
    const late = await add(9_999, '2026-01-02T11:00:00Z', 'PENDING');
    await add(-700, '2026-01-04T09:00:00Z');
    // Before the operating account was opened (2025-01-01): settled outside Ledgerline.
    await add(1_234, '2024-12-30T09:00:00Z');
    const throughJan3 = await clearedSum(f.businessId) + 700;

    expect(lastSettleableDay(new Date('2026-01-06T23:00:00Z'))).toBe('2026-01-03');
    expect(await settleCardSpend(t.db, new Date('2026-01-06T23:00:00Z'))).toEqual({ settled: 1, failed: 0 });
    expect((await rows(f.businessId)).map((r) => [r.net, r.status, r.cause, r.transactions])).toEqual([[throughJan3, 'SETTLED', 'AGED', 61]]);
    expect(await balanceOf(f.businessId, 'CARD_NETWORK')).toBe(throughJan3);
    expect(await items(f.businessId)).toHaveLength(61);

    // Again at once: nothing new is due, nothing posts twice.
    expect(await settleCardSpend(t.db, new Date('2026-01-06T23:30:00Z'))).toEqual({ settled: 0, failed: 0 });
    expect(await entries(f.businessId)).toBe(1);

    // The Jan 2 charge clears after Jan 2 settled: the next run takes it, with Jan 4's refund once due.
    await t.db.query(`UPDATE transactions SET state = 'CLEARED' WHERE id = $1`, [late]);
    expect(await settleCardSpend(t.db, new Date('2026-01-06T23:45:00Z'))).toEqual({ settled: 1, failed: 0 });
    expect(await balanceOf(f.businessId, 'CARD_NETWORK')).toBe(throughJan3 + 9_999);
    await settleCardSpend(t.db, new Date('2026-01-07T08:00:00Z'));
    expect(await balanceOf(f.businessId, 'CARD_NETWORK')).toBe(throughJan3 + 9_999 - 700);
    expect((await rows(f.businessId)).map((r) => r.net)).toEqual([throughJan3, 9_999, -700]);
    // Every cleared charge since the account opened is in exactly one settlement, at the amount that moved.
    const settled = await items(f.businessId);
    expect(new Set(settled.map((i) => i.transaction_id)).size).toBe(63);
    expect(settled.reduce((s, i) => s + Number(i.amount), 0)).toBe(await clearedSum(f.businessId));
    expect(await entries(f.businessId)).toBe(3);
    expect((await checkLedger(t.db, f.businessId)).ok).toBe(true);
  });

  it('a batch the operating account cannot cover fails with the reason, records no items, and settles once funded', async () => {
    const f = await makeBusiness(t.db, { transactions: 0, operating: { USD: 1_000 } });
    await addTransaction(f.businessId, f.cards.admin, f.users.admin, 5_000, '2026-02-02T10:00:00Z');
    expect(await settleCardSpend(t.db, new Date('2026-02-10T00:00:00Z'))).toEqual({ settled: 0, failed: 1 });
    let [row] = await rows(f.businessId);
    expect(row).toMatchObject({ status: 'FAILED', net: 5_000, attempts: 1 });
    expect(row!.failure_reason).toMatch(/Not enough funds in Operating USD: 10\.00 USD is available/);
    expect(await entries(f.businessId)).toBe(0);
    expect(await items(f.businessId)).toEqual([]);
    // A charge that became due meanwhile joins the same open batch.
    await addTransaction(f.businessId, f.cards.admin, f.users.admin, 2_000, '2026-02-06T10:00:00Z');
    await settleCardSpend(t.db, new Date('2026-02-10T01:00:00Z'));
    expect(await rows(f.businessId)).toMatchObject([{ status: 'FAILED', attempts: 2, net: 7_000, transactions: 2 }]);

    await t.db.transaction((tx) => fund(tx, {
      businessId: f.businessId, account: f.operatingAccounts.USD!, amount: 10_000, currency: 'USD', key: 'top-up', at: new Date('2026-02-10T02:00:00Z'),
    }));
    await settleCardSpend(t.db, new Date('2026-02-10T03:00:00Z'));
    [row] = await rows(f.businessId);
    expect(await rows(f.businessId)).toHaveLength(1);
    expect(row).toMatchObject({ status: 'SETTLED', attempts: 3, failure_reason: null, net: 7_000 });
    expect(await balanceOf(f.businessId, 'OPERATING')).toBe(4_000);
    expect(await items(f.businessId)).toHaveLength(2);
    await settleCardSpend(t.db, new Date('2026-02-11T03:00:00Z'));
    expect(await entries(f.businessId)).toBe(1);
    expect((await checkLedger(t.db, f.businessId)).ok).toBe(true);
  });

  it('at the autopay threshold every unpaid charge settles at once, fresh ones too; below it they wait three days', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const now = new Date('2026-03-10T12:00:00Z');
    await addTransaction(f.businessId, f.cards.admin, f.users.admin, 30_000, '2026-03-10T09:00:00Z');
    await addTransaction(f.businessId, f.cards.admin, f.users.admin, 20_000, '2026-03-09T09:00:00Z', 'PENDING');
    await t.db.query(`INSERT INTO wallet_settings (business_id, card_autopay_threshold, card_autopay_currency) VALUES ($1, 40000, 'USD')`, [f.businessId]);
    expect(await settleCardSpend(t.db, now)).toEqual({ settled: 0, failed: 0 });
    // Another cleared charge brings the unpaid balance to 45,000 ≥ 40,000: paid at once, the pending one waits.
    await addTransaction(f.businessId, f.cards.admin, f.users.admin, 15_000, '2026-03-10T10:00:00Z');
    expect(await settleCardSpend(t.db, now)).toEqual({ settled: 1, failed: 0 });
    expect(await rows(f.businessId)).toMatchObject([{ status: 'SETTLED', cause: 'AUTOPAY', net: 45_000, transactions: 2 }]);
    expect(await balanceOf(f.businessId, 'CARD_NETWORK')).toBe(45_000);
    // A threshold in another currency does not count USD spend.
    await t.db.query(`UPDATE wallet_settings SET card_autopay_currency = 'EUR', card_autopay_threshold = 1 WHERE business_id = $1`, [f.businessId]);
    await addTransaction(f.businessId, f.cards.admin, f.users.admin, 50_000, '2026-03-10T11:00:00Z');
    expect(await settleCardSpend(t.db, now)).toEqual({ settled: 0, failed: 0 });
    expect((await checkLedger(t.db, f.businessId)).ok).toBe(true);
  });

  it('a currency without a primary operating account is left alone', async () => {
    const f = await makeBusiness(t.db, { transactions: 5, operating: {} });
    await settleCardSpend(t.db, new Date('2026-03-01T00:00:00Z'));
    expect(await rows(f.businessId)).toEqual([]);
  });
});
