/**
 * retry-accounting-sync racing on PostgreSQL (two API processes, one database): retries of the
 * same bill, and a full sync commit, raced together never put the bill in two commits; each loser
 * is told why (ACCOUNTING_7301 already synced, ACCOUNTING_7302 a commit running).
 */
import { describe, expect, it } from 'vitest';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { request, signIn } from '../test-fixtures.ts';

const RETRY = '/v1/auth/bill-pay/bulk-actions/retry-accounting-sync';

describe.skipIf(!(await pgAvailable()))('retry-accounting-sync races on PostgreSQL', () => {
  it('syncs a bill exactly once however retries and a full commit race', async () => {
    await withPgBusiness({ transactions: 0 }, async ({ dbA, appA, appB, f, admin }) => {
    const bookkeeper = await signIn(appB, f.email('bookkeeper'));
    expect((await request(appA, 'POST', '/v1/auth/accounting/providers/csv/connect', { token: admin, body: {} })).status).toBe(200);
    const vendor = (await request(appA, 'POST', '/v1/auth/vendors', { token: admin, body: { name: 'Race Supplies' } })).body.id;
    const bill = await request(appA, 'POST', '/v1/auth/bill-pay', {
      token: admin,
      body: {
        vendor_id: vendor, invoice_number: 'INV-RACE', invoice_date: '2026-11-02', due_date: '2026-11-30', currency: 'USD',
        line_items: [{ description: 'Paper', amount: 6_000, gl_account_id: f.glAccounts.active[0] }],
      },
    });
    const id = bill.body.id as string;
    await dbA.query(`UPDATE bills SET status = 'APPROVED' WHERE id = $1`, [id]);

    const racers = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) =>
        request(i % 2 === 0 ? appA : appB, 'POST', RETRY, { token: i % 2 === 0 ? admin : bookkeeper, body: { bill_ids: [id] } })),
      request(appB, 'POST', '/v1/auth/accounting/providers/csv/sync_commit', { token: bookkeeper, body: {} }),
    ]);
    const retries = racers.slice(0, 6).map((r) => r.body.results[0]);
    const full = racers[6]!;
    const wins = retries.filter((r) => r.ok).length + (full.status === 201 ? 1 : 0);
    expect(wins, racers.map((r) => r.text.slice(0, 120)).join('\n')).toBe(1);
    for (const r of retries.filter((x) => !x.ok)) expect(['ACCOUNTING_7301', 'ACCOUNTING_7302']).toContain(r.error_v2.error_code);
    if (full.status !== 201) expect(['ACCOUNTING_7302', 'ACCOUNTING_7303']).toContain(full.body.error_v2.error_code);
    const items = await dbA.query<{ n: number }>(
      `SELECT count(*) AS n FROM accounting_sync_items WHERE object_type = 'bill' AND object_id = $1`, [id]);
    expect(Number(items[0]!.n)).toBe(1);
    });
  });
});
