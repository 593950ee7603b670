import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { simulateApprovalPolicy } from '../../schema/api/calls-approval-policies.ts';
import { storeBankAccount } from '../domain/vendors.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn, type Fixture, type FixtureRole } from '../test-fixtures.ts';

/**
 * Issue 29: `POST /approval_policy/request_simulation` equals what a real request then gets, for
 * the two policy types whose requests are not claims or requests (approval-policies.test.ts covers
 * reimbursement and spend_request the same way): a vendor payment (pay-now of an approved bill
 * while a vendor-payment policy is saved) and a payee (a new vendor while a payee policy is saved).
 * The policies use every kind of step the chain resolves: a vendor condition, an amount threshold
 * (met and not), a role (which never names the requester, the admin), a group and the manager.
 */
const POLICY = '/v1/auth/approval_policy';
const ROLES = ['owner', 'admin', 'bookkeeper', 'manager', 'employee'] as const;

type Instance = { steps: { step_id: string; mode: string; approver_ids: string[] }[]; policy_version: number };

describe.each(await testDatabases())('simulation equals the real chain for vendor-payment and payee, on %s', (kind) => {
  const t = useTestApp(kind);
  let f: Fixture;
  const tokens = {} as Record<FixtureRole, string>;
  let vendorId: string;

  const call = (method: string, path: string, body?: unknown) => request(t.app, method, path, { token: tokens.admin, body });
  const simulate = async (objectType: 'vendor-payment' | 'payee', subject: Record<string, unknown>) => {
    const res = await call('POST', `${POLICY}/request_simulation`, { object_type: objectType, subject: { requester_id: f.users.admin, currency: 'USD', ...subject } });
    expect(res.status, res.text).toBe(200);
    return simulateApprovalPolicy.response.parse(res.body);
  };
  const instanceOf = async (objectId: string): Promise<Instance> => {
    const [row] = await t.db.query<Instance>(`SELECT steps, policy_version FROM approval_instances WHERE object_id = $1 AND status = 'PENDING'`, [objectId]);
    expect(row, `a running chain for ${objectId}`).toBeTruthy();
    return row!;
  };
  /** The instance's steps as the simulation names them: applied steps, their mode and resolved approvers. */
  const expectSameChain = (instance: Instance, sim: Awaited<ReturnType<typeof simulate>>) => {
    const applied = sim.steps.filter((s) => s.applies);
    expect(instance.steps.map((s) => [s.step_id, s.mode, s.approver_ids])).toEqual(applied.map((s) => [s.step_id, s.mode, s.resolved_approvers.map((x) => x.user_id)]));
    expect(instance.policy_version).toBe(sim.version);
  };
  const steps = (vendor: string) => [
    { condition: { vendor_ids: [vendor] }, approvers: { kind: 'user', user_id: f.users.bookkeeper } },
    { condition: { min_amount: { amount: 10_000, currency: 'USD' } }, approvers: { kind: 'group', user_ids: [f.users.owner, f.users.manager], mode: 'all' } },
    { condition: null, approvers: { kind: 'role', role: 'BUSINESS_ADMIN' } },
    { condition: null, approvers: { kind: 'manager' } },
  ];
  const approvedBill = async (amount: number): Promise<string> => {
    const res = await call('POST', '/v1/auth/bill-pay', {
      vendor_id: vendorId, invoice_number: `INV-${randomUUID().slice(0, 8)}`, invoice_date: '2026-11-01', due_date: '2026-11-30', currency: 'USD',
      line_items: [{ description: 'Service', amount }],
    });
    expect(res.status, res.text).toBe(200);
    await t.db.query(`UPDATE bills SET status = 'APPROVED' WHERE id = $1`, [res.body.id]);
    return res.body.id as string;
  };

  beforeAll(async () => {
    f = await makeBusiness(t.db, { transactions: 0 });
    for (const role of ROLES) tokens[role] = await signIn(t.app, f.email(role));
    const v = await call('POST', '/v1/auth/vendors', { name: 'Acme Supplies' });
    expect(v.status, v.text).toBe(201);
    vendorId = v.body.id;
    await storeBankAccount(t.db, vendorId, { routing_number: '021000021', account_number: '4401927731', account_type: 'CHECKING' });
  });

  it('vendor-payment: pay-now of a bill gets the chain the simulation showed, above and below the amount threshold', async () => {
    const set = await call('PATCH', `${POLICY}/vendor-payment`, { steps: steps(vendorId) });
    expect(set.status, set.text).toBe(200);
    for (const amount of [12_500, 4_000]) {
      const sim = await simulate('vendor-payment', { amount, vendor_id: vendorId });
      // Sanity: the amount step applies only above the threshold; the role step never names the requester.
      expect(sim.steps.filter((s) => s.applies)).toHaveLength(amount >= 10_000 ? 4 : 3);
      for (const s of sim.steps) expect(s.resolved_approvers.map((x) => x.user_id)).not.toContain(f.users.admin);
      const billId = await approvedBill(amount);
      const asked = await call('POST', '/v1/auth/bill-pay/bulk-actions/pay-now', { bill_ids: [billId] });
      expect(asked.body.results[0], asked.text).toMatchObject({ ok: true, bill: { payment_approval: { status: 'PENDING' } } });
      expectSameChain(await instanceOf(billId), sim);
    }
  });

  it('payee: a new vendor gets the chain the simulation showed for it (no amount, its vendor id)', async () => {
    const set = await call('PATCH', `${POLICY}/payee`, { steps: steps(vendorId) });
    expect(set.status, set.text).toBe(200);
    // A bank account on the vendor the first step names: every step but the amount's applies.
    const simAcme = await simulate('payee', { amount: 0, vendor_id: vendorId });
    expect(simAcme.steps.filter((s) => s.applies)).toHaveLength(3);
    const account = await request(t.app, 'POST', '/v1/auth/users/current/step-up', { token: tokens.admin, body: { password: 'fixture-password-1' } });
    expect(account.status, account.text).toBe(200);
    const bank = await request(t.app, 'POST', `/v1/auth/vendors/${vendorId}/bank-account`, {
      token: account.body.id_token, body: { routing_number: '021000021', account_number: '000123456789', account_type: 'CHECKING' },
    });
    expect(bank.status, bank.text).toBe(200);
    expectSameChain(await instanceOf(vendorId), simAcme);
    // A new vendor: the vendor step does not apply to it (its id is not named), as the simulation says for a vendor the policy does not name.
    const created = await call('POST', '/v1/auth/vendors', { name: `New ${randomUUID().slice(0, 6)}` });
    expect(created.status, created.text).toBe(201);
    const simNew = await simulate('payee', { amount: 0, vendor_id: created.body.id });
    expect(simNew.steps.filter((s) => s.applies)).toHaveLength(2);
    expectSameChain(await instanceOf(created.body.id), simNew);
  });
});
