/**
 * Issue 25: duplicates stop at the server, race-safe. Concurrent creates of one vendor's invoice
 * (spelled differently: the key is normalized) through two API processes sharing one PostgreSQL,
 * none confirmed, end with exactly one bill; the others are refused 422 BILL_PAY_DUPLICATE_INVOICE
 * naming it. Confirmed creates racing alongside all succeed and record the duplicate.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { makeVendor, request } from '../test-fixtures.ts';

const BILLS = '/v1/auth/bill-pay';
const RACERS = 8;

describe.skipIf(!(await pgAvailable()))('duplicate invoice races on PostgreSQL', () => {
  it('lets exactly one unconfirmed create of an invoice through however they race', async () => {
    await withPgBusiness({ transactions: 0 }, async ({ dbA, appA, appB, f, admin }) => {
    const vendorId = await makeVendor(appA, admin, 'Race vendor');
    const spellings = ['INV-0042', 'inv 42', 'INV/042', 'Inv-42'];
    const create = (i: number, confirm: boolean) =>
      request(i % 2 === 0 ? appA : appB, 'POST', BILLS, {
        token: admin,
        headers: { 'Idempotency-Key': randomUUID() },
        body: {
          vendor_id: vendorId, invoice_number: spellings[i % spellings.length], invoice_date: '2026-11-01', due_date: '2026-11-30',
          currency: 'USD', line_items: [{ description: 'Race', amount: 5_000 + i }], submit: i % 3 === 0,
          ...(confirm ? { confirm_duplicate: true } : {}),
        },
      });

    const plain = await Promise.all(Array.from({ length: RACERS }, (_, i) => create(i, false)));
    const made = plain.filter((r) => r.status === 200);
    expect(made).toHaveLength(1);
    for (const r of plain.filter((x) => x.status !== 200)) {
      expect([r.status, r.body.error_v2.error_code]).toEqual([422, 'BILL_PAY_DUPLICATE_INVOICE']);
      expect(r.body.error_v2.message).toContain(`Invoice ${made[0]!.body.invoice_number} from Race vendor`);
    }
    const live = await dbA.query<{ n: number }>('SELECT count(*)::int AS n FROM bills WHERE vendor_id = $1', [vendorId]);
    expect(live[0]!.n).toBe(1);

    // Confirmed ones racing with unconfirmed ones: every confirmed create succeeds, no unconfirmed one does.
    const mixed = await Promise.all(Array.from({ length: RACERS }, (_, i) => create(i, i % 2 === 1)));
    mixed.forEach((r, i) => expect(r.status, r.text).toBe(i % 2 === 1 ? 200 : 422));
    for (const r of mixed.filter((x) => x.status === 200)) {
      expect(r.body.duplicate_of).toMatchObject({ id: made[0]!.body.id, confirmed_by: f.users.admin });
    }
    });
  });
});
