/**
 * Issue 30, bill payment rails on PostgreSQL across two API processes: concurrent pay-now requests
 * by check on one bill end with one payment and one check number; concurrent checks on different
 * bills never share a number; a void racing the settlement job either voids or clears the check,
 * never both; the ledger proves itself after.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { makeVendor, request } from '../test-fixtures.ts';
import { settleBillPayments } from '../domain/bill-settlement.ts';
import { checkLedger } from '../ledger/check.ts';

const BILLS = '/v1/auth/bill-pay';
const ADDRESS = { line1: '1 Pier Rd', line2: null, city: 'Brooklyn', state: 'NY', postal_code: '11201', country: 'US' };

describe.skipIf(!(await pgAvailable()))('check payment races on PostgreSQL', () => {
  it('one bill, many pay-now by check: one payment, one check number; many bills: distinct numbers', async () => {
    await withPgBusiness({ transactions: 0 }, async ({ dbA, dbB, appA, appB, f, admin }) => {
      const vendorId = await makeVendor(appA, admin, 'Check race vendor');
      await dbA.query('UPDATE vendors SET address = $2::jsonb WHERE id = $1', [vendorId, JSON.stringify(ADDRESS)]);
      const approvedBill = async () => {
        const res = await request(appA, 'POST', BILLS, { token: admin, body: {
          vendor_id: vendorId, invoice_number: randomUUID(), invoice_date: '2026-11-01', due_date: '2026-11-30', currency: 'USD',
          line_items: [{ description: 'Race', amount: 5_000 }] } });
        expect(res.status, res.text).toBe(200);
        await dbA.query(`UPDATE bills SET status = 'APPROVED' WHERE id = $1`, [res.body.id]);
        return res.body.id as string;
      };
      const pay = (i: number, ids: string[]) =>
        request(i % 2 === 0 ? appA : appB, 'POST', `${BILLS}/bulk-actions/pay-now`, { token: admin, body: { bill_ids: ids, rail: 'CHECK' } });

      const one = await approvedBill();
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => pay(i, [one])));
      for (const r of answers) expect(r.status, r.text).toBe(200);
      expect(answers.filter((r) => r.body.results[0].ok)).toHaveLength(1);
      const rows = await dbA.query<{ check_number: number }>('SELECT check_number FROM bill_payments WHERE bill_id = $1', [one]);
      expect(rows).toHaveLength(1);

      const many = await Promise.all(Array.from({ length: 6 }, () => approvedBill()));
      const paid = await Promise.all(many.map((id, i) => pay(i, [id])));
      for (const r of paid) expect(r.body.results[0].ok, r.text).toBe(true);
      const numbers = (await dbA.query<{ check_number: number }>(
        'SELECT check_number FROM bill_payments WHERE business_id = $1 ORDER BY check_number', [f.businessId])).map((r) => Number(r.check_number));
      expect(numbers).toHaveLength(7);
      expect(new Set(numbers).size).toBe(7);

      // A void racing the clearing job: each check ends voided or cleared, never both, its money moved once.
      const ids = (await dbA.query<{ id: string }>('SELECT id::text FROM bill_payments WHERE bill_id = ANY($1::uuid[])', [many])).map((r) => r.id);
      await Promise.all([
        ...ids.map((id, i) => request(i % 2 === 0 ? appA : appB, 'POST', `${BILLS}/payments/${id}/void-check`, { token: admin, body: {} })),
        settleBillPayments(dbA, new Date('2026-12-30T12:00:00Z')),
        settleBillPayments(dbB, new Date('2026-12-30T12:00:00Z')),
      ]);
      const ends = await dbA.query<{ status: string; voided: boolean; cleared: boolean; returns: number; settles: number }>(
        `SELECT p.status, p.voided_at IS NOT NULL AS voided, p.cleared_at IS NOT NULL AS cleared,
                (SELECT count(*)::int FROM journal_entries e WHERE e.idem_key = 'bill-payment:' || p.id || ':return') AS returns,
                (SELECT count(*)::int FROM journal_entries e WHERE e.idem_key = 'bill-payment:' || p.id || ':settle') AS settles
           FROM bill_payments p WHERE p.id = ANY($1::uuid[])`, [ids]);
      for (const e of ends) {
        expect(e.voided !== e.cleared).toBe(true);
        expect(e.voided ? [e.status, e.returns, e.settles] : [e.status, e.returns, e.settles]).toEqual(e.voided ? ['REVERSED', 1, 0] : ['SETTLED', 0, 1]);
      }
      expect((await checkLedger(dbA, f.businessId)).ok).toBe(true);
    });
  });
});
