/**
 * Issue 30: transfers are exactly once under racing devices and server processes, on PostgreSQL.
 * Two API processes (each its own pool) take 10 concurrent creates each way: the same
 * Idempotency-Key, the same body `id`, and different ids whose sum exceeds the balance; then two
 * settlement jobs race. Exactly one transfer per key or id, never an overdraft, each transfer
 * settled once, and the ledger check holds.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkLedger } from '../ledger/check.ts';
import { settleDueTransfers } from '../domain/treasury/settlement-job.ts';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { request } from '../test-fixtures.ts';
import { openWallet } from './treasury-test-kit.ts';

const usd = (amount: number) => ({ amount, currency: 'USD' });

describe.skipIf(!(await pgAvailable()))('treasury transfers race on PostgreSQL', () => {
  it('makes exactly one transfer per key or id and never overdraws, across two processes', async () => {
    await withPgBusiness({ transactions: 0, operating: {} }, async ({ dbA, dbB, appA, appB, f, admin }) => {
      const w = await openWallet(dbA, f.businessId, 10_000);
      const path = `/v1/auth/treasury/business-accounts/${w.operating}/transfers`;
      const apps = Array.from({ length: 10 }, (_, i) => (i % 2 ? appB : appA));
      const count = async (where = '') => Number((await dbA.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM wallet_transfers WHERE business_id = $1 ${where}`, [f.businessId]))[0]!.n);

      // The same Idempotency-Key ten times at once: one transfer; the others replay it or are told to retry.
      const key = `race-${randomUUID()}`;
      const byKey = await Promise.all(apps.map((app) => request(app, 'POST', path, {
        token: admin, body: { to_account_id: w.reserve, amount: usd(1_000) }, headers: { 'Idempotency-Key': key },
      })));
      expect(byKey.filter((r) => r.status === 201).length).toBeGreaterThanOrEqual(1);
      for (const r of byKey) expect([201, 409], r.text).toContain(r.status);
      for (const r of byKey.filter((x) => x.status === 409)) expect(r.body.error_v2.error_code).toBe('IDEMPOTENCY_7010');
      expect(new Set(byKey.filter((r) => r.status === 201).map((r) => r.body.id)).size).toBe(1);
      expect(await count()).toBe(1);

      // The same body id ten times at once: one 201, the rest answer the stored transfer (200).
      const id = randomUUID();
      const byId = await Promise.all(apps.map((app) => request(app, 'POST', path, { token: admin, body: { id, to_account_id: w.reserve, amount: usd(1_000) } })));
      expect(byId.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
      for (const r of byId) expect(r.body.id).toBe(id);
      expect(await count()).toBe(2);
      const holds = await dbA.query('SELECT 1 FROM journal_entries WHERE business_id = $1 AND idem_key = $2', [f.businessId, `transfer:${id}:hold`]);
      expect(holds).toHaveLength(1);

      // Ten different transfers of 3,000 from the 8,000 left: two fit, the rest are refused with the available amount.
      const many = await Promise.all(apps.map((app) => request(app, 'POST', path, { token: admin, body: { to_account_id: w.reserve, amount: usd(3_000) } })));
      expect(many.filter((r) => r.status === 201)).toHaveLength(2);
      for (const r of many.filter((x) => x.status !== 201)) {
        expect([r.status, r.body.error_v2?.error_code], r.text).toEqual([422, 'TREASURY_7004']);
        expect(r.body.error_v2.errors.amount).toMatch(/USD is available$/);
      }
      expect(await count()).toBe(4);
      const [operating] = await dbA.query<{ balance: string }>('SELECT balance::text FROM ledger_accounts WHERE id = $1', [w.operating]);
      expect(Number(operating!.balance)).toBe(10_000 - 1_000 - 1_000 - 6_000);

      // Two settlement jobs at once settle each transfer once.
      const later = new Date(Date.now() + 10 * 24 * 60 * 60 * 1000);
      const runs = await Promise.all([settleDueTransfers(dbA, later), settleDueTransfers(dbB, later), settleDueTransfers(dbA, later)]);
      expect(runs.reduce((s, r) => s + r.settled, 0)).toBe(4);
      expect(await count("AND status = 'SETTLED'")).toBe(4);
      const [reserve] = await dbA.query<{ balance: string }>('SELECT balance::text FROM ledger_accounts WHERE id = $1', [w.reserve]);
      expect(Number(reserve!.balance)).toBe(8_000);
      const report = await checkLedger(dbA, f.businessId);
      expect(report.ok, JSON.stringify(report)).toBe(true);
    });
  });
});
