/**
 * Item receipts never over-receive (issue 28): racing receipts for one PO line through two API
 * processes sharing one PostgreSQL are checked one after the other (the business row, then the PO
 * row FOR UPDATE), so exactly what was ordered is received and the rest are refused 7010; the
 * lines' CHECK (received_quantity ≤ quantity) refuses a writer that skipped the lock.
 */
import { describe, expect, it } from 'vitest';
import { request, signIn } from '../test-fixtures.ts';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { insertPurchaseOrder } from './purchase-orders-test-kit.ts';

const RACERS = 8;

describe.skipIf(!(await pgAvailable()))('item receipt races on PostgreSQL', () => {
  it('receives 5 of 5 ordered however many receipts of one race, and the database refuses more', async () => {
    await withPgBusiness({}, async ({ dbA, appA, appB, f, admin }) => {
      const employee = await signIn(appB, f.email('employee'));
      const po = await insertPurchaseOrder(dbA, f, { lines: [{ description: 'Desk', quantity: 5, unit_price: 45_000 }] });
      const results = await Promise.all(Array.from({ length: RACERS }, (_, i) => request(i % 2 ? appB : appA, 'POST', '/v1/auth/item-receipts', {
        token: i % 2 ? employee : admin,
        body: { purchase_order_id: po.id, lines: [{ po_line_id: po.lineIds[0], quantity: 1 }], received_at: new Date().toISOString() },
      })));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses, results.map((r) => r.text).join('\n')).toEqual([...Array(5).fill(201), ...Array(RACERS - 5).fill(409)]);
      for (const r of results.filter((x) => x.status === 409)) expect(r.body.error_v2.error_code).toBe('PROCUREMENT_7010');
      const [line] = await dbA.query<{ received_quantity: number }>('SELECT received_quantity FROM purchase_order_lines WHERE id = $1', [po.lineIds[0]]);
      expect(Number(line!.received_quantity)).toBe(5);
      const [row] = await dbA.query<{ status: string; n: number }>(
        'SELECT p.status, (SELECT count(*) FROM item_receipts ir WHERE ir.purchase_order_id = p.id AND NOT ir.deleted) AS n FROM purchase_orders p WHERE p.id = $1',
        [po.id],
      );
      expect([row!.status, Number(row!.n)]).toEqual(['RECEIVED', 5]);
      await expect(dbA.query('UPDATE purchase_order_lines SET received_quantity = received_quantity + 1 WHERE id = $1', [po.lineIds[0]]))
        .rejects.toThrow(/check constraint/);
    });
  });
});
