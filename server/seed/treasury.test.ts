import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../auth/password.ts';
import { decryptBankValue, loadVendorBankKey } from '../auth/vendor-bank-crypto.ts';
import { checkLedger } from '../ledger/check.ts';
import { openTestDb, testDatabases, type TestDb } from '../test-db.ts';
import { lastSettleableDay, settleCardSpend } from '../domain/card-settlement.ts';
import { collectDueInstallments } from '../domain/flex/installment-job.ts';
import { listFlexRecords } from '../domain/flex/installments.ts';
import { seedDemo, type SeedDemoResult } from './seed.ts';
import { bankAccountContext, DEMO_BANK_NAME } from './treasury.ts';

/**
 * Issue 30: the demo's treasury (seed/treasury.ts). After seeding, the ledger checks; every seeded
 * payment has its entry under the server's key; every card day three days old settled once (the
 * job finds nothing left); the wallet, its transfers, settings and linked bank account are there.
 */
const NOW = new Date('2026-11-21T00:00:00.000Z');
const fastHash = (password: string) => hashPassword(password, { N: 1024, r: 8, p: 1 });

describe.each(await testDatabases())('the demo treasury on %s', (kind) => {
  let t: TestDb;
  let seeded: SeedDemoResult;
  beforeAll(async () => {
    t = await openTestDb(kind);
    seeded = await seedDemo(t.db, { transactions: 2_000, reimbursements: 300, bills: 300, now: NOW, hashPassword: fastHash });
  });
  afterAll(() => t?.close());
  const n = async (sql: string) => Number((await t.db.query<{ n: number }>(sql, [seeded.businessId]))[0]!.n);

  it('checks: balanced, balances equal to postings, no wallet account below zero', async () => {
    const report = await checkLedger(t.db, seeded.businessId);
    expect(report.ok, JSON.stringify(report)).toBe(true);
    expect(report.entries).toBeGreaterThan(500);
    expect((await checkLedger(t.db)).ok).toBe(true);
    // No day's closing of a wallet account below zero either.
    expect(await n(`SELECT count(*)::int AS n FROM ledger_daily_balances d JOIN ledger_accounts a ON a.id = d.account_id
                     WHERE a.business_id = $1 AND NOT a.allow_negative AND d.closing < 0`)).toBe(0);
  });

  it('posts every seeded payment under the server\'s keys', async () => {
    expect(await n(`SELECT count(*)::int AS n FROM ledger_entries l WHERE l.business_id = $1 AND NOT EXISTS (
        SELECT 1 FROM journal_entries e WHERE e.business_id = l.business_id AND e.idem_key = 'reimbursement-payment:' || l.id)
        AND l.kind = 'PAYMENT'`)).toBe(0);
    expect(await n('SELECT count(*)::int AS n FROM ledger_entries WHERE business_id = $1')).toBeGreaterThan(0);
    expect(await n(`SELECT count(*)::int AS n FROM bill_payments p WHERE p.business_id = $1 AND p.method = 'ACH' AND NOT EXISTS (
        SELECT 1 FROM journal_entries e WHERE e.business_id = p.business_id AND e.idem_key = 'bill-payment:' || p.id || ':send')`)).toBe(0);
    expect(await n(`SELECT count(*)::int AS n FROM bill_payments p WHERE p.business_id = $1 AND p.method = 'ACH' AND p.status = 'SETTLED' AND NOT EXISTS (
        SELECT 1 FROM journal_entries e WHERE e.business_id = p.business_id AND e.idem_key = 'bill-payment:' || p.id || ':settle')`)).toBe(0);
    expect(await n(`SELECT count(*)::int AS n FROM bill_payments WHERE business_id = $1 AND status = 'SETTLED'`)).toBeGreaterThan(0);
  });

  it('settled every card day three days old once: the job finds nothing left', async () => {
    const days = await n(`SELECT count(DISTINCT (currency, (occurred_at AT TIME ZONE 'UTC')::date))::int AS n FROM transactions
                           WHERE business_id = $1 AND state = 'CLEARED' AND (occurred_at AT TIME ZONE 'UTC')::date <= '${lastSettleableDay(NOW)}'`);
    expect(days).toBeGreaterThan(300);
    expect(await n(`SELECT count(*)::int AS n FROM card_settlements WHERE business_id = $1 AND status = 'SETTLED'`)).toBe(days);
    const before = await n('SELECT count(*)::int AS n FROM journal_entries WHERE business_id = $1');
    const run = await settleCardSpend(t.db, NOW);
    expect(run).toEqual({ settled: 0, failed: 0 });
    expect(await n('SELECT count(*)::int AS n FROM journal_entries WHERE business_id = $1')).toBe(before);
  });

  it('has the wallet, its transfers, settings and the verified linked bank account', async () => {
    const wallet = await t.db.query<{ kind: string; name: string; is_primary: boolean; balance: string }>(
      `SELECT kind, name, is_primary, balance::text FROM ledger_accounts WHERE business_id = $1 AND kind IN ('OPERATING', 'RESERVE', 'INVESTMENT') AND currency = 'USD' ORDER BY kind`,
      [seeded.businessId]);
    expect(wallet.map((w) => [w.kind, w.name, w.is_primary])).toEqual([['INVESTMENT', 'Investment', true], ['OPERATING', 'Operating', true], ['RESERVE', 'Reserve', true]]);
    expect(wallet.every((w) => Number(w.balance) > 0)).toBe(true);
    const transfers = await t.db.query<{ status: string }>('SELECT status FROM wallet_transfers WHERE business_id = $1 ORDER BY created_at', [seeded.businessId]);
    expect(transfers.map((x) => x.status)).toEqual(['SETTLED', 'SETTLED', 'SETTLED', 'PENDING']);
    const [settings] = await t.db.query('SELECT yield_rate_bps, external_transfer_fee::int AS fee, external_settlement_days FROM wallet_settings WHERE business_id = $1', [seeded.businessId]);
    expect(settings).toEqual({ yield_rate_bps: 410, fee: 150, external_settlement_days: 1 });
    const [bank] = await t.db.query<{ id: string; name: string; status: string; account_number_enc: string; account_last4: string; ledger_name: string; allow_negative: boolean }>(
      `SELECT b.id::text, b.name, b.status, b.account_number_enc, b.account_last4, a.name AS ledger_name, a.allow_negative
         FROM bank_accounts b JOIN ledger_accounts a ON a.bank_account_id = b.id WHERE b.business_id = $1`, [seeded.businessId]);
    expect(bank).toMatchObject({ name: DEMO_BANK_NAME, status: 'VERIFIED', account_last4: '6789', ledger_name: DEMO_BANK_NAME, allow_negative: true });
    expect(decryptBankValue(await loadVendorBankKey(t.db), bank!.account_number_enc, bankAccountContext(bank!.id))).toMatch(/6789$/);
  });

  it('has flex onboarded and one paid bill paid with flex: one installment paid, two scheduled, the line in the ledger', async () => {
    const [settings] = await t.db.query<{ status: string }>('SELECT status FROM flex_settings WHERE business_id = $1', [seeded.businessId]);
    expect(settings?.status).toBe('ACTIVE');
    const { data: records } = await listFlexRecords(t.db, seeded.businessId);
    expect(records).toHaveLength(1);
    const record = records[0]!;
    expect(record).toMatchObject({ status: 'ACTIVE', term_days: 90 });
    expect(record.installments.map((i) => i.status)).toEqual(['PAID', 'SCHEDULED', 'SCHEDULED']);
    const [bill] = await t.db.query<{ status: string; method: string; paid: string }>(
      `SELECT b.status, p.method, p.status AS paid FROM bills b JOIN bill_payments p ON p.bill_id = b.id WHERE b.id = $1`, [record.bill_id]);
    expect(bill).toEqual({ status: 'PAID', method: 'FLEX', paid: 'SETTLED' });
    // Used = minus the FLEX_LINE balance: the principal not yet repaid.
    const [line] = await t.db.query<{ balance: string }>(
      `SELECT balance::text FROM ledger_accounts WHERE business_id = $1 AND kind = 'FLEX_LINE'`, [seeded.businessId]);
    const [unpaid] = await t.db.query<{ n: string }>(
      `SELECT sum(principal)::text AS n FROM flex_installments WHERE record_id = $1 AND status <> 'PAID'`, [record.id]);
    expect(-Number(line!.balance)).toBe(Number(unpaid!.n));
    expect(await n(`SELECT count(*)::int AS n FROM journal_entries WHERE business_id = $1 AND kind IN ('FLEX_DRAW', 'FLEX_INSTALLMENT')`)).toBe(2);
    // Nothing is due yet: the installment job collects nothing on the seed's day.
    expect(await collectDueInstallments(t.db, NOW)).toMatchObject({ paid: 0, failed: 0 });
  });
});
