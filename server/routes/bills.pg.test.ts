/**
 * Bills are paid once (issue 11): concurrent pay-now requests through two API processes sharing
 * one PostgreSQL (each with its own pool), with and without one Idempotency-Key, for the same two
 * approved bills, end with exactly one payment per bill; and the database's own constraints
 * refuse a second live payment even when the code above them is bypassed.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { makeVendor, request } from '../test-fixtures.ts';
import { settleBillPayments } from '../domain/bill-settlement.ts';
import { storeBankAccount } from '../domain/vendors.ts';

const BILLS = '/v1/auth/bill-pay';
const RACERS = 8;

describe.skipIf(!(await pgAvailable()))('bill payment races on PostgreSQL', () => {
  it('pays each bill exactly once however pay-now requests race', async () => {
    await withPgBusiness({ transactions: 0 }, async ({ dbA, appA, appB, f, admin }) => {
    const vendorId = await makeVendor(appA, admin, 'Race vendor');
    await storeBankAccount(dbA, vendorId, { routing_number: '021000021', account_number: '4401927731', account_type: 'CHECKING' });
    const approvedBill = async () => {
      const res = await request(appA, 'POST', BILLS, {
        token: admin,
        body: { vendor_id: vendorId, invoice_number: randomUUID(), invoice_date: '2026-11-01', due_date: '2026-11-30', currency: 'USD', line_items: [{ description: 'Race', amount: 5_000 }] },
      });
      expect(res.status, res.text).toBe(200);
      await dbA.query(`UPDATE bills SET status = 'APPROVED' WHERE id = $1`, [res.body.id]);
      return res.body.id as string;
    };
    const payments = async (ids: string[]) =>
      dbA.query<{ bill_id: string; attempt: number; status: string }>(
        'SELECT bill_id::text, attempt, status FROM bill_payments WHERE bill_id = ANY($1::uuid[]) ORDER BY bill_id', [ids],
      );
    const race = (ids: string[], headers: (i: number) => Record<string, string>) =>
      Promise.all(Array.from({ length: RACERS }, (_, i) =>
        request(i % 2 === 0 ? appA : appB, 'POST', `${BILLS}/bulk-actions/pay-now`, { token: admin, body: { bill_ids: i % 4 < 2 ? ids : [...ids].reverse() }, headers: headers(i) })));

    // No key: every request is answered; each bill is paid by exactly one of them.
    const plain = [await approvedBill(), await approvedBill()];
    const free = await race(plain, () => ({}));
    for (const r of free) expect(r.status, r.text).toBe(200);
    for (const id of plain) {
      const oks = free.flatMap((r) => r.body.results as { id: string; ok: boolean }[]).filter((x) => x.id === id && x.ok);
      expect(oks).toHaveLength(1);
    }
    expect((await payments(plain)).map((p) => [p.attempt, p.status])).toEqual([[1, 'PENDING'], [1, 'PENDING']]);

    // One key: the first answer is replayed (or the rest are told it is in progress); one payment per bill.
    const keyed = [await approvedBill(), await approvedBill()];
    const key = randomUUID();
    const same = await Promise.all(Array.from({ length: RACERS }, (_, i) =>
      request(i % 2 === 0 ? appA : appB, 'POST', `${BILLS}/bulk-actions/pay-now`, { token: admin, body: { bill_ids: keyed }, headers: { 'Idempotency-Key': key } })));
    for (const r of same) expect([200, 409]).toContain(r.status);
    for (const r of same.filter((x) => x.status === 200)) expect(r.body.results.map((x: { ok: boolean }) => x.ok)).toEqual([true, true]);
    expect(await payments(keyed)).toHaveLength(2);

    // Keys per request, both processes: still one each.
    const mixed = [await approvedBill(), await approvedBill()];
    const each = await race(mixed, (i) => ({ 'Idempotency-Key': `mixed-${i}` }));
    for (const r of each) expect(r.status, r.text).toBe(200);
    expect(await payments(mixed)).toHaveLength(2);

    // The constraint holds without the code: a second live attempt for a paid bill is refused.
    const [bill] = plain;
    await expect(dbA.query(
      `INSERT INTO bill_payments (id, business_id, bill_id, attempt, payment_key, amount, currency, status, created_by)
       VALUES ($1, $2, $3, 2, $4, 5000, 'USD', 'SETTLED', $5)`,
      [randomUUID(), f.businessId, bill, `bill-payment:${bill}:2`, f.users.admin],
    )).rejects.toMatchObject({ code: '23505' });
    });
  });

  it('sends and settles each payment exactly once when two settlement jobs race over two processes', async () => {
    await withPgBusiness({ transactions: 0 }, async ({ dbA, dbB, appA, admin }) => {
    const vendor = await request(appA, 'POST', '/v1/auth/vendors', { token: admin, body: { name: 'Settle vendor' } });
    await storeBankAccount(dbA, vendor.body.id, { routing_number: '021000021', account_number: '4401927731', account_type: 'CHECKING' });
    const N = 24;
    const ids: string[] = [];
    for (let i = 0; i < N; i++) {
      const res = await request(appA, 'POST', BILLS, {
        token: admin,
        body: { vendor_id: vendor.body.id, invoice_number: `S-${i}`, invoice_date: '2026-11-01', due_date: '2026-11-30', currency: 'USD', line_items: [{ description: 'Settle', amount: 1_000 + i }] },
      });
      ids.push(res.body.id as string);
    }
    // Scheduled for Wednesday 2026-11-25 (sent that day; two bank days later is Monday 2026-11-30: Thanksgiving is no bank day).
    await dbA.query(`UPDATE bills SET status = 'SCHEDULED', payment_date = '2026-11-25' WHERE id = ANY($1::uuid[])`, [ids]);
    const race = async (at: string) => {
      const runs = await Promise.all([dbA, dbB, dbA, dbB].map((db) => settleBillPayments(db, new Date(at))));
      return runs.reduce((sum, r) => ({ sent: sum.sent + r.sent, failed: sum.failed + r.failed, settled: sum.settled + r.settled }));
    };
    const sent = await race('2026-11-25T15:00:00Z');
    expect(sent).toEqual({ sent: N, failed: 0, settled: 0 });
    const rows = await dbA.query<{ status: string; settles_on: string; n: number }>(
      `SELECT status, to_char(settles_on, 'YYYY-MM-DD') AS settles_on, count(*)::int AS n FROM bill_payments WHERE bill_id = ANY($1::uuid[]) GROUP BY 1, 2`, [ids]);
    expect(rows).toEqual([{ status: 'PENDING', settles_on: '2026-11-30', n: N }]);
    // Friday: not yet; Monday: every payment settles once, every bill PAID once.
    expect(await race('2026-11-27T15:00:00Z')).toEqual({ sent: 0, failed: 0, settled: 0 });
    expect(await dbA.query(`SELECT 1 FROM bills WHERE id = ANY($1::uuid[]) AND status = 'PAID'`, [ids])).toHaveLength(0);
    expect(await race('2026-11-30T15:00:00Z')).toEqual({ sent: 0, failed: 0, settled: N });
    const paid = await dbA.query<{ status: string; attempt: number; n: number }>(
      `SELECT b.status, b.payment_attempt AS attempt, count(*)::int AS n FROM bills b WHERE b.id = ANY($1::uuid[]) GROUP BY 1, 2`, [ids]);
    expect(paid).toEqual([{ status: 'PAID', attempt: 1, n: N }]);
    expect(await dbA.query(`SELECT 1 FROM bill_payments WHERE bill_id = ANY($1::uuid[]) AND status = 'SETTLED'`, [ids])).toHaveLength(N);
    expect(await race('2026-12-01T15:00:00Z')).toEqual({ sent: 0, failed: 0, settled: 0 });
    });
  });
});
