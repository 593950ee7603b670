/**
 * Flex money moves exactly once however requests race (issue 30): two API processes on one
 * PostgreSQL. Eight accepts of one offer pay the bill once (one FLEX_DRAW, one live payment); eight
 * retries of one FAILED installment post one FLEX_INSTALLMENT (the others 409 FLEX_7004); two job
 * runners on two pools collect a due installment once.
 */
import { describe, expect, it } from 'vitest';
import { withPgBusiness } from '../../test-pg-race.ts';
import { pgAvailable } from '../../testing.ts';
import { refusal, request } from '../../test-fixtures.ts';
import { storeBankAccount } from '../vendors.ts';
import { checkLedger } from '../../ledger/check.ts';
import { fund, openWalletAccount } from '../../ledger/ledger.ts';
import { collectDueInstallments } from './installment-job.ts';

describe.skipIf(!(await pgAvailable()))('flex races on PostgreSQL', () => {
  it('accepts once, retries once and collects once across two processes', async () => {
    await withPgBusiness({ transactions: 0, operating: {} }, async ({ dbA, dbB, appA, appB, f, admin }) => {
      const vendor = await request(appA, 'POST', '/v1/auth/vendors', { token: admin, body: { name: 'Race supplier' } });
      await storeBankAccount(dbA, vendor.body.id, { routing_number: '021000021', account_number: '4401927731', account_type: 'CHECKING' });
      const bill = await request(appA, 'POST', '/v1/auth/bill-pay', {
        token: admin,
        body: { vendor_id: vendor.body.id, invoice_number: 'RACE-1', invoice_date: '2026-11-01', due_date: '2026-11-30', currency: 'USD', line_items: [{ description: 'Steel', amount: 90_000 }] },
      });
      await dbA.query(`UPDATE bills SET status = 'APPROVED' WHERE id = $1`, [bill.body.id]);
      const operating = await dbA.transaction(async (tx) => {
        const id = await openWalletAccount(tx, { businessId: f.businessId, kind: 'OPERATING', currency: 'USD', name: 'Operating', primary: true });
        await fund(tx, { businessId: f.businessId, account: id, amount: 1_000_000, currency: 'USD', key: 'opening', at: new Date() });
        return id;
      });
      expect((await request(appA, 'POST', '/v1/auth/float/onboard', { token: admin, body: { accept_terms: true } })).status).toBe(200);
      const offer = await request(appA, 'POST', '/v1/auth/float/offer', { token: admin, body: { bill_id: bill.body.id } });
      expect(offer.status, offer.text).toBe(200);

      const accepts = await Promise.all(Array.from({ length: 8 }, (_, i) =>
        request(i % 2 ? appB : appA, 'POST', `/v1/auth/float/offer/${offer.body.id}/accept`, { token: admin, body: { term_days: 90 } })));
      expect(accepts.filter((r) => r.status === 200)).toHaveLength(1);
      expect(accepts.filter((r) => r.status !== 200).map(refusal)).toEqual(Array(7).fill([409, 'FLEX_7003']));
      const draws = await dbA.query(`SELECT 1 FROM journal_entries WHERE business_id = $1 AND kind = 'FLEX_DRAW'`, [f.businessId]);
      expect(draws).toHaveLength(1);
      const live = await dbA.query(`SELECT 1 FROM bill_payments WHERE bill_id = $1 AND status IN ('PENDING', 'SETTLED')`, [bill.body.id]);
      expect(live).toHaveLength(1);
      const record = accepts.find((r) => r.status === 200)!.body as { installments: { id: string }[] };
      const [first, second] = record.installments as [{ id: string }, { id: string }];

      // A FAILED installment retried eight times at once over both processes: one posting.
      await dbA.query(`UPDATE flex_installments SET status = 'FAILED', attempts = 1, failure_reason = 'Not enough funds' WHERE id = $1`, [first.id]);
      const retries = await Promise.all(Array.from({ length: 8 }, (_, i) =>
        request(i % 2 ? appB : appA, 'POST', `/v1/auth/float/retry-installment-payment/${first.id}`, { token: admin })));
      expect(retries.filter((r) => r.status === 200)).toHaveLength(1);
      expect(retries.filter((r) => r.status !== 200).map(refusal)).toEqual(Array(7).fill([409, 'FLEX_7004']));
      const posted = await dbA.query(`SELECT 1 FROM journal_entries WHERE business_id = $1 AND source_id = $2`, [f.businessId, first.id]);
      expect(posted).toHaveLength(1);

      // The second falls due: two runners on two pools, twice each, collect it once.
      await dbA.query(`UPDATE flex_installments SET due_date = current_date - 1 WHERE id = $1`, [second.id]);
      const runs = await Promise.all([dbA, dbB, dbA, dbB].map((db) => collectDueInstallments(db, new Date())));
      expect(runs.reduce((n, r) => n + r.paid, 0)).toBe(1);
      const collected = await dbA.query(`SELECT 1 FROM journal_entries WHERE business_id = $1 AND source_id = $2`, [f.businessId, second.id]);
      expect(collected).toHaveLength(1);
      const [{ balance }] = (await dbA.query<{ balance: string }>('SELECT balance::text FROM ledger_accounts WHERE id = $1', [operating])) as [{ balance: string }];
      expect(Number(balance)).toBe(1_000_000 - 2 * (30_000 + 900));
      expect((await checkLedger(dbA, f.businessId)).ok).toBe(true);
    });
  }, 60_000);
});
