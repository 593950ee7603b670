/**
 * A card charge closes one bill only (issue 30): requests closing different bills with the same
 * charge, and requests closing one bill with it, race through two API processes sharing one
 * PostgreSQL. Exactly one bill ends PAID and linked; every other request is refused naming why
 * (or, for the same bill, answered with the same bill); nothing is posted in the ledger.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkLedger } from '../ledger/check.ts';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { makeVendor, request } from '../test-fixtures.ts';

const BILLS = '/v1/auth/bill-pay';
const RACERS = 8;

describe.skipIf(!(await pgAvailable()))('bills paid by card: races on PostgreSQL', () => {
  it('lets one of several bills racing for one charge win; the rest are refused', async () => {
    await withPgBusiness({ transactions: 0 }, async ({ dbA, appA, appB, f, admin }) => {
      const vendorId = await makeVendor(appA, admin, 'Acme Supply Co.');
      const bill = async () => {
        const res = await request(appA, 'POST', BILLS, {
          token: admin,
          body: { vendor_id: vendorId, invoice_number: randomUUID(), invoice_date: '2026-11-02', due_date: '2026-11-30', currency: 'USD', line_items: [{ description: 'Race', amount: 9_900 }] },
        });
        expect(res.status, res.text).toBe(200);
        await dbA.query(`UPDATE bills SET status = 'APPROVED' WHERE id = $1`, [res.body.id]);
        return res.body.id as string;
      };
      const txn = randomUUID();
      await dbA.query(
        `INSERT INTO transactions (id, business_id, card_id, user_id, merchant_name, amount, currency, occurred_at, state, change_seq)
         VALUES ($1, $2, $3, $4, 'ACME SUPPLY', 9900, 'USD', '2026-11-04T10:00:00Z', 'CLEARED', 1)`,
        [txn, f.businessId, f.cards.admin, f.users.admin],
      );
      const before = await checkLedger(dbA, f.businessId);
      const bills = await Promise.all(Array.from({ length: RACERS }, () => bill()));

      const answers = await Promise.all(bills.map((id, i) =>
        request(i % 2 === 0 ? appA : appB, 'POST', `${BILLS}/${id}/paid-by-card`, { token: admin, body: { transaction_id: txn }, headers: { 'Idempotency-Key': randomUUID() } })));
      const won = answers.filter((r) => r.status === 200);
      expect(won).toHaveLength(1);
      for (const r of answers.filter((x) => x.status !== 200)) {
        expect([r.status, r.body.error_v2?.error_code], r.text).toEqual([422, 'REQUEST_7001']);
        expect(r.body.error_v2.message).toMatch(/already closes/);
      }
      const linked = await dbA.query<{ id: string; status: string }>(
        'SELECT id::text, status FROM bills WHERE business_id = $1 AND paid_by_transaction_id = $2', [f.businessId, txn],
      );
      expect(linked).toEqual([{ id: won[0]!.body.bill.id, status: 'PAID' }]);
      expect(await dbA.query(`SELECT 1 FROM bills WHERE id = ANY($1::uuid[]) AND status = 'APPROVED'`, [bills])).toHaveLength(RACERS - 1);

      // One bill, one charge, many requests on both processes (no key, or the same key): one close, every answer that bill.
      const one = await bill();
      const spare = randomUUID();
      await dbA.query(
        `INSERT INTO transactions (id, business_id, card_id, user_id, merchant_name, amount, currency, occurred_at, state, change_seq)
         VALUES ($1, $2, $3, $4, 'ACME SUPPLY', 9900, 'USD', '2026-11-05T10:00:00Z', 'CLEARED', 1)`,
        [spare, f.businessId, f.cards.admin, f.users.admin],
      );
      const key = randomUUID();
      const same = await Promise.all(Array.from({ length: RACERS }, (_, i) =>
        request(i % 2 === 0 ? appA : appB, 'POST', `${BILLS}/${one}/paid-by-card`, {
          token: admin, body: { transaction_id: spare }, headers: i < RACERS / 2 ? { 'Idempotency-Key': key } : {},
        })));
      for (const r of same) expect([200, 409], r.text).toContain(r.status);
      for (const r of same.filter((x) => x.status === 200)) expect(r.body.bill).toMatchObject({ id: one, status: 'PAID' });
      expect(await dbA.query('SELECT 1 FROM bills WHERE paid_by_transaction_id = $1', [spare])).toHaveLength(1);

      const after = await checkLedger(dbA, f.businessId);
      expect(after.ok).toBe(true);
      expect([after.entries, after.postings]).toEqual([before.entries, before.postings]);
    });
  });
});
