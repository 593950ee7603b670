import { beforeAll, describe, expect, it } from 'vitest';
import type { MissingItem } from '../../schema/api/calls-expense-policies.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn, type Fixture } from '../test-fixtures.ts';
import { attachReceipt, insertClaim, insertTx, policyBody, rules } from './expense-policies-test-kit.ts';

/**
 * Issue 29: an item a workflow's `require_receipt` marked (workflow_receipt_requirements) misses a
 * receipt in the wizard's list even under the policy's threshold, and with no policy at all; the
 * violation names the workflow; a receipt clears it; items without a receipt step (mileage) never.
 */
const MISSING = '/v1/auth/users/current/missing-items';
const DAY = '2026-11-18';

describe.each(await testDatabases())('missing items a workflow requires a receipt for, on %s', (kind) => {
  const t = useTestApp(kind, { now: () => Date.parse('2026-11-20T12:00:00Z'), devOutbox: true });
  let f: Fixture;
  let admin: string;
  let employee: string;
  let workflowId: string;

  beforeAll(async () => {
    f = await makeBusiness(t.db, { transactions: 0 });
    admin = await signIn(t.app, f.email('admin'));
    employee = await signIn(t.app, f.email('employee'));
    const wf = await request(t.app, 'POST', '/v1/auth/workflows', {
      token: admin, body: { name: 'Receipts for everything', trigger: 'transaction.created', enabled: true, conditions: [], actions: [{ kind: 'require_receipt' }] },
    });
    expect(wf.status, wf.text).toBe(201);
    workflowId = wf.body.id;
  });

  const requireReceipt = (objectType: 'transaction' | 'reimbursement', id: string) =>
    t.db.query('INSERT INTO workflow_receipt_requirements (business_id, object_type, object_id, workflow_id) VALUES ($1, $2, $3, $4)', [f.businessId, objectType, id, workflowId]);
  const list = async () => {
    const res = await request<{ data: MissingItem[]; total_count: number }>(t.app, 'GET', MISSING, { token: employee });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  it('lists a required item with no policy at all, and under the policy\'s threshold; a receipt clears it', async () => {
    const small = await insertTx(t.db, f, 'employee', { amount: 2000, at: `${DAY}T10:00:00Z` });
    const mileage = await insertClaim(t.db, f, 'employee', { amount: 1500, date: DAY, type: 'MILEAGE', memo: 'Client visit' });
    expect((await list()).total_count).toBe(0);
    await requireReceipt('transaction', small);
    await requireReceipt('reimbursement', mileage);
    const none = await list();
    expect(none.total_count).toBe(1);
    expect(none.data).toEqual([expect.objectContaining({
      object_id: small, violations: [{ code: 'missing_receipt', policy_id: workflowId, policy_name: 'Receipts for everything', message: 'The workflow “Receipts for everything” requires a receipt for this item.' }],
    })]);

    // A policy from 75 USD asking for a memo above 10 USD: the 20 USD charge now misses both, the workflow's receipt first.
    const policy = await request(t.app, 'POST', '/v1/auth/expense-policies', {
      token: admin, body: policyBody({ rules: rules({ receipt_required_from: { amount: 7500, currency: 'USD' }, memo_required_above: { amount: 1000, currency: 'USD' } }) }),
    });
    expect(policy.status, policy.text).toBe(201);
    const claim = await insertClaim(t.db, f, 'employee', { amount: 3000, date: DAY, memo: 'Paper' });
    await requireReceipt('reimbursement', claim);
    const both = await list();
    expect(both.total_count).toBe(2);
    expect(both.data.find((i) => i.object_id === small)!.violations.map((v) => [v.code, v.policy_id])).toEqual([
      ['missing_receipt', workflowId], ['missing_memo', policy.body.id],
    ]);
    expect(both.data.find((i) => i.object_id === claim)!.violations.map((v) => v.code)).toEqual(['missing_receipt']);

    // Over the threshold the policy already says so: one missing_receipt, the policy's.
    const big = await insertTx(t.db, f, 'employee', { amount: 9000, at: `${DAY}T11:00:00Z`, memo: 'Dinner' });
    await requireReceipt('transaction', big);
    expect((await list()).data.find((i) => i.object_id === big)!.violations.map((v) => [v.code, v.policy_id])).toEqual([['missing_receipt', policy.body.id]]);

    await attachReceipt(t.db, f, 'employee', big);
    await t.db.query('UPDATE reimbursements SET receipt_ids = ARRAY[gen_random_uuid()] WHERE id = $1', [claim]);
    const after = await list();
    expect(after.data.map((i) => i.object_id)).toEqual([small]);
    expect(after.total_count).toBe(1);
  });
});
