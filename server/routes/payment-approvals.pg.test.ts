/**
 * Issue 28, vendor-payment policy: the last approval pays the bill exactly once. Two approvers of
 * an "any one" step approve the same payment at once, several times each, through two API
 * processes sharing one PostgreSQL: one decision wins, one payment attempt is sent; and racing
 * pay-now requests of one bill open one approval, not several.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { makeVendor, request, signIn } from '../test-fixtures.ts';
import { storeBankAccount } from '../domain/vendors.ts';

const BILLS = '/v1/auth/bill-pay';
const RACERS = 8;

describe.skipIf(!(await pgAvailable()))('vendor-payment approval races on PostgreSQL', () => {
  it('two final approvals racing over two processes send one payment', async () => {
    await withPgBusiness({ transactions: 0 }, async ({ dbA, appA, appB, f, admin }) => {
      const bookkeeper = await signIn(appA, f.email('bookkeeper'));
      const owner = await signIn(appB, f.email('owner'));
      const policy = await request(appA, 'PATCH', '/v1/auth/approval_policy/vendor-payment', {
        token: admin, body: { steps: [{ condition: null, approvers: { kind: 'group', user_ids: [f.users.bookkeeper, f.users.owner], mode: 'any' } }] },
      });
      expect(policy.status, policy.text).toBe(200);
      const vendorId = await makeVendor(appA, admin, 'Race payee');
      await storeBankAccount(dbA, vendorId, { routing_number: '021000021', account_number: '4401927731', account_type: 'CHECKING' });
      const created = await request(appA, 'POST', BILLS, {
        token: admin,
        body: { vendor_id: vendorId, invoice_number: randomUUID(), invoice_date: '2026-11-01', due_date: '2026-11-30', currency: 'USD', line_items: [{ description: 'Race', amount: 7_700 }] },
      });
      expect(created.status, created.text).toBe(200);
      const billId = created.body.id as string;
      await dbA.query(`UPDATE bills SET status = 'APPROVED' WHERE id = $1`, [billId]);

      // Racing asks: one request recorded, one approval opened; the others are refused in their place.
      const asks = await Promise.all(Array.from({ length: RACERS }, (_, i) =>
        request(i % 2 === 0 ? appA : appB, 'POST', `${BILLS}/bulk-actions/pay-now`, { token: admin, body: { bill_ids: [billId] } })));
      for (const r of asks) expect(r.status, r.text).toBe(200);
      expect(asks.filter((r) => r.body.results[0].ok)).toHaveLength(1);
      const open = await dbA.query<{ id: string }>(
        `SELECT id::text FROM approvals WHERE object_id = $1 AND object_type = 'vendor-payment' AND status = 'PENDING'`, [billId],
      );
      expect(open).toHaveLength(1);
      expect(await dbA.query('SELECT 1 FROM bill_payments WHERE bill_id = $1', [billId])).toHaveLength(0);

      // Both approvers, over both processes, at once.
      const decisions = await Promise.all(Array.from({ length: RACERS }, (_, i) =>
        request(i % 2 === 0 ? appA : appB, 'POST', `/v1/auth/approvals/${open[0]!.id}/approve`, { token: i % 4 < 2 ? bookkeeper : owner })));
      const won = decisions.filter((r) => r.status === 200);
      expect(won, decisions.map((r) => r.text).join('\n')).toHaveLength(1);
      for (const r of decisions.filter((x) => x.status !== 200)) expect([409, 422]).toContain(r.status);
      const paid = await dbA.query<{ attempt: number; status: string; created_by: string }>(
        'SELECT attempt, status, created_by::text FROM bill_payments WHERE bill_id = $1', [billId],
      );
      expect(paid).toEqual([{ attempt: 1, status: 'PENDING', created_by: f.users.admin }]);
      const [bill] = await dbA.query<{ status: string; payment_approval: unknown }>('SELECT status, payment_approval FROM bills WHERE id = $1', [billId]);
      expect(bill).toEqual({ status: 'SCHEDULED', payment_approval: null });
    });
  });
});
