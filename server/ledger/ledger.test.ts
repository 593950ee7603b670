import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, testDatabases, type TestDb } from '../test-db.ts';
import { makeBusiness, type Fixture } from '../test-fixtures.ts';
import { checkLedger } from './check.ts';
import { fund, move, openWalletAccount, postEntry, systemAccount } from './ledger.ts';

/**
 * Issue 30: the ledger's rules are the database's (migration 058), whatever the code does: an
 * unbalanced entry cannot commit, postings and entries never change, a balance moves only by a
 * posting, a wallet account never goes below zero; a key posts once; the check proves it all.
 */
describe.each(await testDatabases())('ledger on %s', (kind) => {
  let t: TestDb;
  let f: Fixture;
  let operating: string;
  let reserve: string;
  const at = new Date('2026-11-20T12:00:00Z');

  beforeAll(async () => {
    t = await openTestDb(kind);
    f = await makeBusiness(t.db, { operating: {} });
    await t.db.transaction(async (tx) => {
      operating = await openWalletAccount(tx, { businessId: f.businessId, kind: 'OPERATING', currency: 'USD', name: 'Operating', primary: true });
      reserve = await openWalletAccount(tx, { businessId: f.businessId, kind: 'RESERVE', currency: 'USD', name: 'Reserve' });
      await fund(tx, { businessId: f.businessId, account: operating, amount: 100_000, currency: 'USD', key: 'opening', at });
    });
  });
  afterAll(() => t.close());

  const balance = async (id: string) =>
    Number((await t.db.query<{ balance: string }>('SELECT balance::text FROM ledger_accounts WHERE id = $1', [id]))[0]!.balance);

  it('moves money once per key, and the check holds', async () => {
    const key = `m-${randomUUID()}`;
    for (let i = 0; i < 3; i++) {
      await t.db.transaction((tx) => move(tx, { businessId: f.businessId, kind: 'TEST', key, from: operating, to: reserve, amount: 2_500, currency: 'USD', at }));
    }
    expect(await balance(reserve)).toBe(2_500);
    const report = await checkLedger(t.db, f.businessId);
    expect(report.ok, JSON.stringify(report)).toBe(true);
    expect(report.totals.USD).toBe(0);
  });

  it('refuses an overdraft with the available amount, leaving nothing posted', async () => {
    const before = await checkLedger(t.db, f.businessId);
    const err = await t.db.transaction((tx) =>
      move(tx, { businessId: f.businessId, kind: 'TEST', key: `o-${randomUUID()}`, from: reserve, to: operating, amount: 1_000_000, currency: 'USD', at }),
    ).catch((e: unknown) => e as { code: string; errors: Record<string, string> });
    expect(err).toMatchObject({ code: 'TREASURY_7004', errors: { amount: '25.00 USD is available' } });
    expect((await checkLedger(t.db, f.businessId)).entries).toBe(before.entries);
  });

  it('refuses an overdraft in the database even when the code skips the check', async () => {
    const err = await t.db.transaction(async (tx) => postEntry(tx, {
      businessId: f.businessId, kind: 'TEST', key: `d-${randomUUID()}`, currency: 'USD', at,
      lines: [{ account: reserve, amount: -10_000_000 }, { account: operating, amount: 10_000_000 }],
    })).catch((e: unknown) => e as { code: string });
    expect(err).toMatchObject({ code: 'TREASURY_7004' });
  });

  it('refuses an unbalanced entry at commit, and any change to postings or balances', async () => {
    const funding = await t.db.transaction((tx) => systemAccount(tx, f.businessId, 'FUNDING', 'USD'));
    const unbalanced = t.db.transaction(async (tx) => {
      const id = randomUUID();
      await tx.query(`INSERT INTO journal_entries (id, business_id, kind, idem_key, effective_date) VALUES ($1, $2, 'TEST', $3, '2026-11-20')`, [id, f.businessId, `u-${id}`]);
      await tx.query('INSERT INTO postings (business_id, entry_id, account_id, amount, currency) VALUES ($1, $2, $3, 500, $4)', [f.businessId, id, operating, 'USD']);
      await tx.query('INSERT INTO postings (business_id, entry_id, account_id, amount, currency) VALUES ($1, $2, $3, -400, $4)', [f.businessId, id, funding, 'USD']);
    });
    await expect(unbalanced).rejects.toThrow(/does not balance/);
    await expect(t.db.query('UPDATE postings SET amount = amount + 1 WHERE business_id = $1', [f.businessId])).rejects.toThrow(/never changed/);
    await expect(t.db.query('DELETE FROM journal_entries WHERE business_id = $1', [f.businessId])).rejects.toThrow(/never changed/);
    await expect(t.db.query('UPDATE ledger_accounts SET balance = balance + 1 WHERE id = $1', [operating])).rejects.toThrow(/only by posting/);
    await expect(t.db.transaction((tx) => postEntry(tx, {
      businessId: f.businessId, kind: 'TEST', key: `c-${randomUUID()}`, currency: 'EUR', at,
      lines: [{ account: operating, amount: 100 }, { account: funding, amount: -100 }],
    }))).rejects.toThrow(/posting in EUR/);
    expect((await checkLedger(t.db, f.businessId)).ok).toBe(true);
  });

  it('keeps the daily closing balances and restamps the mirrored wallet account', async () => {
    const seq = async () => Number((await t.db.query<{ s: string }>('SELECT change_seq::text AS s FROM ledger_accounts WHERE id = $1', [operating]))[0]!.s);
    const before = await seq();
    await t.db.transaction((tx) => move(tx, {
      businessId: f.businessId, kind: 'TEST', key: `b-${randomUUID()}`, from: operating, to: reserve, amount: 100, currency: 'USD',
      at, effectiveDate: '2026-11-01',
    }));
    expect(await seq()).toBeGreaterThan(before);
    const days = await t.db.query<{ day: string; closing: string }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, closing::text FROM ledger_daily_balances WHERE account_id = $1 ORDER BY day`, [operating],
    );
    expect(days.map((d) => d.day)).toEqual(['2026-11-01', '2026-11-20']);
    expect(Number(days.at(-1)!.closing)).toBe(await balance(operating));
    expect((await checkLedger(t.db, f.businessId)).ok).toBe(true);
  });
});
