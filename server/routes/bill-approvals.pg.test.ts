/**
 * Bill approvals under races (issue 11), through two API processes sharing one PostgreSQL: the
 * approvers of an "any one" step approve at once while a bill manager cancels the bill. Whatever
 * the interleaving, the step is decided once, and the bill, its approvals and its chain agree:
 * APPROVED with exactly one APPROVED approval and an APPROVED chain, or CANCELED with nothing
 * approved after it (a decision that came second is refused, not applied).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { request, signIn } from '../test-fixtures.ts';

const ROUNDS = 4;

describe.skipIf(!(await pgAvailable()))('bill approval races on PostgreSQL', () => {
  it('decides a step once and keeps the bill, its approvals and its chain consistent against a cancel', async () => {
    await withPgBusiness({ transactions: 0 }, async ({ dbA, appA, appB, f, admin }) => {
    const employee = await signIn(appA, f.email('employee'));
    const outsider = await signIn(appB, f.email('outsider'));
    const policy = await request(appA, 'PATCH', '/v1/auth/approval_policy/bill', {
      token: admin, body: { steps: [{ condition: null, approvers: { kind: 'group', user_ids: [f.users.employee, f.users.outsider], mode: 'any' } }] },
    });
    expect(policy.status, policy.text).toBe(200);
    const vendor = await request(appA, 'POST', '/v1/auth/vendors', { token: admin, body: { name: 'Race Co' } });

    for (let round = 0; round < ROUNDS; round++) {
      const bill = await request(appA, 'POST', '/v1/auth/bill-pay', {
        token: admin,
        body: {
          vendor_id: vendor.body.id, invoice_number: randomUUID(), invoice_date: '2026-11-01', due_date: '2026-11-30', currency: 'USD',
          line_items: [{ description: 'Race', amount: 1_000 }], submit: true,
        },
      });
      expect(bill.status, bill.text).toBe(200);
      const [approval] = await dbA.query<{ id: string }>(`SELECT id::text FROM approvals WHERE object_id = $1 AND status = 'PENDING'`, [bill.body.id]);
      const withCancel = round % 2 === 1;
      const answers = await Promise.all([
        request(appA, 'POST', `/v1/auth/approvals/${approval!.id}/approve`, { token: employee }),
        request(appB, 'POST', `/v1/auth/approvals/${approval!.id}/approve`, { token: outsider }),
        ...(withCancel ? [request(appB, 'POST', '/v1/auth/bill-pay/bulk-actions/cancel', { token: admin, body: { bill_ids: [bill.body.id] } })] : []),
      ]);
      for (const r of answers) expect(r.status, r.text).toBeLessThan(500);
      const decided = answers.slice(0, 2).filter((r) => r.status === 200);
      expect(decided.length).toBeLessThanOrEqual(1);

      const [state] = await dbA.query<{ status: string; approved: number; pending: number; chain: string }>(
        `SELECT b.status,
                (SELECT count(*)::int FROM approvals WHERE object_id = b.id AND status = 'APPROVED') AS approved,
                (SELECT count(*)::int FROM approvals WHERE object_id = b.id AND status = 'PENDING') AS pending,
                (SELECT status FROM approval_instances WHERE object_id = b.id) AS chain
           FROM bills b WHERE b.id = $1`,
        [bill.body.id],
      );
      expect(Number(state!.pending)).toBe(0);
      if (!withCancel) {
        expect(decided).toHaveLength(1);
        expect(state).toMatchObject({ status: 'APPROVED', chain: 'APPROVED' });
        expect(Number(state!.approved)).toBe(1);
      } else if (state!.status === 'CANCELED' && decided.length === 0) {
        // The cancel came first: the approval and the chain were canceled with the bill.
        expect(state!.chain).toBe('CANCELED');
        expect(Number(state!.approved)).toBe(0);
      } else {
        // An approval came first (the bill was then canceled from APPROVED, which the machine allows).
        expect(decided).toHaveLength(1);
        expect(state!.chain).toBe('APPROVED');
        expect(Number(state!.approved)).toBe(1);
      }
    }
    });
  });
});
