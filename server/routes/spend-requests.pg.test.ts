/**
 * Issue 28: approving a spend request fulfils it exactly once, whatever races, through two API
 * processes sharing one PostgreSQL (each with its own pool): two approves of one approval, an
 * approve racing a bulk approval, and many product requests approved at once, numbered PO-000001
 * upwards without a gap or a repeat.
 */
import { describe, expect, it } from 'vitest';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { makeVendor, request, signIn } from '../test-fixtures.ts';

const REQS = '/v1/auth/spend-requests';
const APPROVALS = '/v1/auth/approvals';
const BULK = '/v1/auth/approval_policy/bulk-approval';

describe.skipIf(!(await pgAvailable()))('spend request races on PostgreSQL', () => {
  it('fulfils each request once: one card, one PO, numbers without gaps', async () => {
    await withPgBusiness({ transactions: 0 }, async ({ dbA, appA, appB, f, admin }) => {
      const employee = await signIn(appA, f.email('employee'));
      const vendor = await makeVendor(appA, admin, 'Race Supplies');
      const ask = async (body: Record<string, unknown>) => {
        const res = await request(appA, 'POST', REQS, { token: employee, body: { amount: { amount: 3_000, currency: 'USD' }, description: 'Race', ...body } });
        expect(res.status, res.text).toBe(201);
        return res.body as { id: string; approval_id: string };
      };
      const product = () => ask({
        type: 'PRODUCT_OR_SERVICE', vendor_id: vendor, line_items: [{ description: 'Chair', quantity: 3, unit_price: 1_000 }],
      });
      const count = async (sql: string, params: unknown[]) => Number((await dbA.query<{ n: number }>(sql, params))[0]!.n);

      // Two approves of one approval, one per process: one wins, the other is refused; one card.
      const card = await ask({ type: 'GENERAL_EXPENSE' });
      const both = await Promise.all([appA, appB].map((app) => request(app, 'POST', `${APPROVALS}/${card.approval_id}/approve`, { token: admin })));
      expect(both.map((r) => r.status).sort()).toEqual([200, 422]);
      expect(await count('SELECT count(*) AS n FROM cards WHERE spend_request_id = $1', [card.id])).toBe(1);

      // An approve racing a bulk approval of the same product request: one PO.
      const first = await product();
      const [single, bulk] = await Promise.all([
        request(appA, 'POST', `${APPROVALS}/${first.approval_id}/approve`, { token: admin }),
        request(appB, 'POST', BULK, { token: admin, body: { approval_ids: [first.approval_id], decision: 'APPROVE' } }),
      ]);
      expect(single.status, single.text).toBeLessThan(500);
      expect(bulk.status, bulk.text).toBe(200);
      const oks = (single.status === 200 ? 1 : 0) + bulk.body.results.filter((r: { ok: boolean }) => r.ok).length;
      expect(oks).toBe(1);
      expect(await count('SELECT count(*) AS n FROM purchase_orders WHERE spend_request_id = $1', [first.id])).toBe(1);

      // Eight product requests approved at once across both processes: PO-000002 … PO-000009, once each.
      const many = [];
      for (let i = 0; i < 8; i++) many.push(await product());
      const raced = await Promise.all(many.map((r, i) =>
        request(i % 2 === 0 ? appA : appB, 'POST', `${APPROVALS}/${r.approval_id}/approve`, { token: admin })));
      for (const r of raced) expect(r.status, r.text).toBe(200);
      const numbers = await dbA.query<{ po_number: string }>('SELECT po_number FROM purchase_orders WHERE business_id = $1 ORDER BY po_number', [f.businessId]);
      expect(numbers.map((n) => n.po_number)).toEqual(Array.from({ length: 9 }, (_, i) => `PO-${String(i + 1).padStart(6, '0')}`));
      expect(await count(
        `SELECT count(*) AS n FROM spend_requests r JOIN purchase_orders p ON p.id = r.purchase_order_id AND p.spend_request_id = r.id
          WHERE r.business_id = $1 AND r.status = 'FULFILLED'`, [f.businessId],
      )).toBe(9);
    });
  });
});
