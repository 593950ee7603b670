/**
 * A vendor credit is never over-applied (issue 11): bills racing for the last of a credit through
 * two API processes on one PostgreSQL (each with its own pool) — creates and edits, with and
 * without Idempotency-Keys — end with at most the credit's amount applied.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { request } from '../test-fixtures.ts';

const BILLS = '/v1/auth/bill-pay';
const RACERS = 8;

describe.skipIf(!(await pgAvailable()))('vendor credit races on PostgreSQL', () => {
  it('lets only one of the bills racing for the last of a credit take it', async () => {
    await withPgBusiness({ transactions: 0 }, async ({ dbA, appA, appB, admin }) => {
    const vendor = (await request(appA, 'POST', '/v1/auth/vendors', { token: admin, body: { name: 'Race credit vendor' } })).body.id;
    const credit = await request(appA, 'POST', `${BILLS}/vendor-credits`, {
      token: admin, body: { vendor_id: vendor, currency: 'USD', amount: 1_000, credit_note_number: 'CN-RACE', credit_date: '2026-11-01' },
    });
    expect(credit.status, credit.text).toBe(201);
    const body = (take: number) => ({
      vendor_id: vendor, invoice_number: randomUUID(), invoice_date: '2026-11-01', due_date: '2026-11-30', currency: 'USD',
      line_items: [{ description: 'Work', amount: 5_000 }, { description: 'Credit', amount: -take, vendor_credit_id: credit.body.id }],
    });
    const applied = async () => Number((await dbA.query<{ n: string }>(
      `SELECT coalesce(-sum(li.amount), 0)::bigint AS n FROM bill_line_items li JOIN bills b ON b.id = li.bill_id
        WHERE li.vendor_credit_id = $1 AND b.status <> 'CANCELED' AND NOT b.deleted`, [credit.body.id]))[0]!.n);

    // Creates: 8 bills each want 600 of 1,000; exactly one gets it.
    const creates = await Promise.all(Array.from({ length: RACERS }, (_, i) =>
      request(i % 2 === 0 ? appA : appB, 'POST', BILLS, { token: admin, body: body(600), headers: { 'Idempotency-Key': `c-${i}` } })));
    expect(creates.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of creates.filter((x) => x.status !== 200)) expect([r.status, r.body.error_v2.error_code]).toEqual([422, 'REQUEST_7001']);
    expect(await applied()).toBe(600);

    // Edits: 8 drafts without credit each try to take the remaining 400.
    const drafts: string[] = [];
    for (let i = 0; i < RACERS; i += 1) {
      const res = await request(appA, 'POST', BILLS, { token: admin, body: { ...body(0), line_items: [{ description: 'Work', amount: 5_000 }] } });
      drafts.push(res.body.id);
    }
    const edits = await Promise.all(drafts.map((id, i) =>
      request(i % 2 === 0 ? appA : appB, 'PATCH', `${BILLS}/${id}`, { token: admin, body: { line_items: body(400).line_items } })));
    expect(edits.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await applied()).toBe(1_000);
    });
  });
});
