/**
 * Recurring bills are made once per (template, period) however the job races (issue 11): two
 * API processes on one PostgreSQL, each running the job twice at once for the same "now", end
 * with exactly one bill per period, and the runs table's key refuses a second row by itself.
 */
import { describe, expect, it } from 'vitest';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { request } from '../test-fixtures.ts';
import { generateRecurringBills } from './recurring-bills.ts';

describe.skipIf(!(await pgAvailable()))('recurring bill job races on PostgreSQL', () => {
  it('makes one bill per period when four runs on two processes race', async () => {
    await withPgBusiness({ transactions: 0 }, async ({ dbA, dbB, appA, f, admin }) => {
    const vendor = await request(appA, 'POST', '/v1/auth/vendors', { token: admin, body: { name: 'Race landlord' } });
    const ids: string[] = [];
    for (const interval of ['MONTHLY', 'WEEKLY']) {
      const res = await request(appA, 'POST', '/v1/auth/bill-pay/recurring-bills', {
        token: admin,
        body: { vendor_id: vendor.body.id, currency: 'USD', line_items: [{ description: 'Rent', amount: 1_000 }], interval, start_date: '2026-06-30', submit_for_approval: true },
      });
      expect(res.status, res.text).toBe(201);
      ids.push(res.body.id);
    }
    const now = new Date('2026-11-20T12:00:00Z');
    const runs = await Promise.all([dbA, dbB, dbA, dbB].map((db) => generateRecurringBills(db, now)));
    // Monthly: Jun 30 … Oct 31 (5); weekly: the latest 12 Tuesdays up to Nov 17.
    const made = runs.flatMap((r) => r.generated);
    expect(made).toHaveLength(5 + 12);
    expect(runs.flatMap((r) => r.failed)).toEqual([]);
    const perPeriod = await dbA.query<{ template_id: string; n: number }>(
      `SELECT r.template_id::text, count(*)::int AS n FROM recurring_bill_runs r JOIN bills b ON b.id = r.bill_id
        WHERE r.template_id = ANY($1::uuid[]) GROUP BY r.template_id, r.period_start HAVING count(*) > 1`, [ids]);
    expect(perPeriod).toEqual([]);
    const [{ n }] = (await dbA.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM bills WHERE business_id = $1`, [f.businessId])) as [{ n: number }];
    expect(n).toBe(17);
    const chains = await dbA.query(`SELECT 1 FROM approval_instances WHERE business_id = $1 AND object_type = 'bill'`, [f.businessId]);
    expect(chains).toHaveLength(17);
    // The key holds without the code.
    await expect(dbA.query(
      `INSERT INTO recurring_bill_runs (template_id, period_start, business_id, status) VALUES ($1, '2026-06-30', $2, 'GENERATED')`,
      [ids[0], f.businessId],
    )).rejects.toMatchObject({ code: '23505' });
    });
  });
});
