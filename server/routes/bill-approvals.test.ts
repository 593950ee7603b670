import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { decisionSchema } from '../../schema/api/calls-approvals.ts';
import { billSchema, type Bill } from '../../schema/entities/bill.ts';
import type { Approval } from '../../schema/entities/approval.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { type Fixture, type FixtureRole, makeBusiness, refusal, request, signIn } from '../test-fixtures.ts';

/**
 * Bills decided through approval chains (issue 11), through the API: a two-step chain whose
 * approvers each approve by POST approvals/:id/approve and the bill becomes APPROVED only after
 * the second; rejection (the reason on the bill); nobody approves a bill they submitted; a named
 * approver who is an ordinary employee sees and decides their step and nothing else; the default
 * policy's "requester's manager"; canceling a pending bill cancels its approval. Fixture reporting
 * line: employee → manager, teammate → employee (only the manager has is_manager); the teammate is
 * made an AP clerk (AP_ACCESS).
 */
const BILLS = '/v1/auth/bill-pay';
const APPROVALS = '/v1/auth/approvals';
const POLICY = '/v1/auth/approval_policy/bill';

describe.each(await testDatabases())('bill approvals on %s', (kind) => {
  const t = useTestApp(kind);
  let a: Fixture;
  const tokens = {} as Record<FixtureRole, string>;
  let vendor: string;

  const submit = async (role: FixtureRole = 'admin', amount = 5_000): Promise<Bill> => {
    const res = await request(t.app, 'POST', BILLS, {
      token: tokens[role],
      body: {
        vendor_id: vendor, invoice_number: `INV-${randomUUID().slice(0, 8)}`, invoice_date: '2026-11-01', due_date: '2026-11-30',
        currency: 'USD', line_items: [{ description: 'Service', amount }], submit: true,
      },
    });
    expect(res.status, res.text).toBe(200);
    return billSchema.parse(res.body);
  };
  const pendingOf = async (billId: string, role: FixtureRole = 'admin'): Promise<Approval[]> => {
    const res = await request(t.app, 'GET', `${APPROVALS}?status=PENDING&object_ids=${billId}`, { token: tokens[role] });
    expect(res.status, res.text).toBe(200);
    return res.body.data as Approval[];
  };
  const approve = (id: string, role: FixtureRole) => request(t.app, 'POST', `${APPROVALS}/${id}/approve`, { token: tokens[role] });
  const reject = (id: string, role: FixtureRole, reason: string) =>
    request(t.app, 'POST', `${APPROVALS}/${id}/reject`, { token: tokens[role], body: { reason } });
  const billOf = async (id: string) => billSchema.parse((await request(t.app, 'GET', `${BILLS}/${id}`, { token: tokens.admin })).body);
  const setPolicy = async (steps: unknown[]) => {
    const res = await request(t.app, 'PATCH', POLICY, { token: tokens.admin, body: { steps } });
    expect(res.status, res.text).toBe(200);
  };

  /** A policy whose steps are each one named person's, in order, and a bill the admin submits under it. */
  const billUnderChain = async (...approvers: FixtureRole[]): Promise<Bill> => {
    await setPolicy(approvers.map((role) => ({ condition: null, approvers: { kind: 'user', user_id: a.users[role] } })));
    return submit('admin');
  };

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    await t.db.query(`UPDATE spend_users SET user_permissions = '["AP_ACCESS"]' WHERE id = $1`, [a.users.teammate]);
    for (const role of ['owner', 'admin', 'bookkeeper', 'manager', 'employee', 'teammate', 'outsider'] as const) {
      tokens[role] = await signIn(t.app, a.email(role));
    }
    const res = await request(t.app, 'POST', '/v1/auth/vendors', { token: tokens.admin, body: { name: 'Chain Co' } });
    expect(res.status, res.text).toBe(201);
    vendor = res.body.id;
  });

  it('the default policy: the AP clerk\'s bill goes to their manager, an ordinary employee, who approves it', async () => {
    await setPolicy([{ condition: null, approvers: { kind: 'manager' } }]);
    const bill = await submit('teammate');
    expect(bill.status).toBe('PENDING_APPROVAL');
    const [approval] = await pendingOf(bill.id, 'employee');
    expect(approval).toMatchObject({ object_type: 'bill', object_id: bill.id, user_id: a.users.teammate, approver_id: a.users.employee });
    // Someone else with no role to review: 403 whatever the id, so nothing is learned.
    expect(refusal(await approve(approval!.id, 'outsider'))).toEqual([403, 'FORBIDDEN_7003']);
    expect(refusal(await approve(randomUUID(), 'outsider'))).toEqual([403, 'FORBIDDEN_7003']);
    expect(await pendingOf(bill.id, 'outsider')).toEqual([]);
    const res = await approve(approval!.id, 'employee');
    expect(res.status, res.text).toBe(200);
    const decided = decisionSchema.parse(res.body);
    expect(decided.approval).toMatchObject({ status: 'APPROVED', decided_by: a.users.employee });
    expect(decided.bill).toMatchObject({ id: bill.id, status: 'APPROVED', approved_by: a.users.employee });
    expect((await billOf(bill.id)).status).toBe('APPROVED');
  });

  it('a two-step chain: the bill is APPROVED only after the second approver; each approver decides only their step', async () => {
    const bill = await billUnderChain('employee', 'outsider');
    const [first] = await pendingOf(bill.id, 'employee');
    expect(first).toBeDefined();
    // The second step's approver may not decide the first step; they do not even see it.
    expect(await pendingOf(bill.id, 'outsider')).toEqual([]);
    expect(refusal(await approve(first!.id, 'outsider'))).toEqual([403, 'FORBIDDEN_7003']);
    // A manager is a reviewer, but neither in this chain nor over the admin: not found.
    expect(refusal(await approve(first!.id, 'manager'))).toEqual([404, 'REQUEST_7004']);

    const one = await approve(first!.id, 'employee');
    expect(one.status, one.text).toBe(200);
    expect(decisionSchema.parse(one.body).bill).toBeUndefined();
    expect((await billOf(bill.id)).status).toBe('PENDING_APPROVAL');
    const [second] = await pendingOf(bill.id, 'outsider');
    expect(second).toBeDefined();
    expect(second!.id).not.toBe(first!.id);
    expect(second!.approver_id).toBe(a.users.outsider);
    // The first approver's step is done: the second step is not theirs.
    expect(refusal(await approve(second!.id, 'employee'))).toEqual([403, 'FORBIDDEN_7003']);
    expect(refusal(await approve(first!.id, 'employee'))).toEqual([422, 'REQUEST_7001']);

    const two = await approve(second!.id, 'outsider');
    expect(two.status, two.text).toBe(200);
    expect(decisionSchema.parse(two.body).bill).toMatchObject({ status: 'APPROVED', approved_by: a.users.outsider });
    expect((await billOf(bill.id)).status).toBe('APPROVED');
    const [instance] = await t.db.query<{ status: string }>(`SELECT status FROM approval_instances WHERE object_id = $1`, [bill.id]);
    expect(instance!.status).toBe('APPROVED');
  });

  it('a bookkeeper decides a step in its approver\'s stead (§6 override), and bulk-approval works for step approvers', async () => {
    const bill = await billUnderChain('employee', 'outsider');
    const [first] = await pendingOf(bill.id, 'bookkeeper');
    expect((await approve(first!.id, 'bookkeeper')).status).toBe(200);
    const [second] = await pendingOf(bill.id, 'outsider');
    const bulk = await request(t.app, 'POST', '/v1/auth/approval_policy/bulk-approval', {
      token: tokens.outsider, body: { approval_ids: [second!.id, first!.id], decision: 'APPROVE' },
    });
    expect(bulk.status, bulk.text).toBe(200);
    expect(bulk.body.results.map((r: { ok: boolean; error_v2?: { error_code: string } }) => r.ok || r.error_v2?.error_code)).toEqual([true, 'FORBIDDEN_7003']);
    expect((await billOf(bill.id)).status).toBe('APPROVED');
    // An employee who approves nothing is refused the bulk call before any lookup.
    const none = await request(t.app, 'POST', '/v1/auth/approval_policy/bulk-approval', {
      token: tokens.employee, body: { approval_ids: [second!.id], decision: 'APPROVE' },
    });
    expect(refusal(none)).toEqual([403, 'FORBIDDEN_7003']);
  });

  it('a rejection rejects the bill with the reason, whichever step it comes at', async () => {
    const bill = await billUnderChain('employee', 'manager');
    const [first] = await pendingOf(bill.id, 'employee');
    expect((await approve(first!.id, 'employee')).status).toBe(200);
    const [second] = await pendingOf(bill.id, 'manager');
    const res = await reject(second!.id, 'manager', 'Wrong cost centre');
    expect(res.status, res.text).toBe(200);
    const decided = decisionSchema.parse(res.body);
    expect(decided.approval).toMatchObject({ status: 'REJECTED', reason: 'Wrong cost centre' });
    expect(decided.bill).toMatchObject({ status: 'REJECTED', rejection_reason: 'Wrong cost centre', approved_by: null });
    expect(await pendingOf(bill.id)).toEqual([]);
  });

  it('a draft is submitted, and a rejected bill resubmitted after its fix, by PATCH with submit: true', async () => {
    await setPolicy([{ condition: null, approvers: { kind: 'user', user_id: a.users.manager } }]);
    const created = await request(t.app, 'POST', BILLS, {
      token: tokens.admin,
      body: {
        vendor_id: vendor, invoice_number: `INV-${randomUUID().slice(0, 8)}`, invoice_date: '2026-11-01', due_date: '2026-11-30',
        currency: 'USD', line_items: [{ description: 'Draft', amount: 1_200 }],
      },
    });
    expect(created.status, created.text).toBe(200);
    const draft = billSchema.parse(created.body);
    expect(draft.status).toBe('DRAFT');
    expect(await pendingOf(draft.id)).toEqual([]);
    // `submit: false` is no submission.
    const kept = await request(t.app, 'PATCH', `${BILLS}/${draft.id}`, { token: tokens.admin, body: { memo: 'later', submit: false } });
    expect(kept.status, kept.text).toBe(200);
    expect(billSchema.parse(kept.body)).toMatchObject({ status: 'DRAFT', memo: 'later', submitted_at: null });

    const sent = await request(t.app, 'PATCH', `${BILLS}/${draft.id}`, { token: tokens.admin, body: { submit: true } });
    expect(sent.status, sent.text).toBe(200);
    expect(billSchema.parse(sent.body)).toMatchObject({ status: 'PENDING_APPROVAL' });
    expect(billSchema.parse(sent.body).submitted_at).not.toBeNull();
    const [first] = await pendingOf(draft.id, 'manager');
    expect(first).toMatchObject({ object_type: 'bill', object_id: draft.id });
    // Submitting again while it waits is refused by name, and opens nothing.
    const twice = await request(t.app, 'PATCH', `${BILLS}/${draft.id}`, { token: tokens.admin, body: { submit: true } });
    expect(twice.status).toBe(422);
    expect(twice.text).toContain('PENDING_APPROVAL');
    expect(await pendingOf(draft.id, 'manager')).toHaveLength(1);

    expect((await reject(first!.id, 'manager', 'Attach the invoice')).status).toBe(200);
    expect(await billOf(draft.id)).toMatchObject({ status: 'REJECTED', rejection_reason: 'Attach the invoice' });
    const fixed = await request(t.app, 'PATCH', `${BILLS}/${draft.id}`, {
      token: tokens.admin, body: { line_items: [{ description: 'Draft', amount: 1_500 }], submit: true },
    });
    expect(fixed.status, fixed.text).toBe(200);
    expect(billSchema.parse(fixed.body)).toMatchObject({ status: 'PENDING_APPROVAL', amount: 1_500, rejection_reason: null });
    const [second] = await pendingOf(draft.id, 'manager');
    expect(second!.id).not.toBe(first!.id);
    expect((await approve(second!.id, 'manager')).status).toBe(200);
    expect(await billOf(draft.id)).toMatchObject({ status: 'APPROVED', approved_by: a.users.manager });
  });

  it('a step opening for a new approver re-stamps the bill, so it reaches that approver\'s mirror from their checkpoint on', async () => {
    const bill = await billUnderChain('manager', 'employee');
    const feed = async (after: number) => {
      const res = await request(t.app, 'GET', `/v1/auth/sync/changes?after=${after}&limit=500`, { token: tokens.employee });
      expect(res.status, res.text).toBe(200);
      return res.body as { checkpoint: number; changes: { collection: string; id: string }[] };
    };
    const before = await feed(0);
    expect(before.changes.filter((c) => c.collection === 'bills').map((c) => c.id)).not.toContain(bill.id);
    const [first] = await pendingOf(bill.id, 'manager');
    expect((await approve(first!.id, 'manager')).status).toBe(200);
    const since = await feed(before.checkpoint);
    expect(since.changes.filter((c) => c.collection === 'bills').map((c) => c.id)).toContain(bill.id);
    expect(since.changes.filter((c) => c.collection === 'approvals').length).toBeGreaterThan(0);
  });

  it('nobody approves a bill they submitted, whatever their role (APPROVAL_7201)', async () => {
    await setPolicy([{ condition: null, approvers: { kind: 'role', role: 'BUSINESS_ADMIN' } }]);
    const bill = await submit('admin');
    const [approval] = await pendingOf(bill.id, 'owner');
    const own = await approve(approval!.id, 'admin');
    expect(refusal(own)).toEqual([403, 'APPROVAL_7201']);
    expect(own.text).toContain('bill you submitted');
    expect((await billOf(bill.id)).status).toBe('PENDING_APPROVAL');
    // The submitter's own list leaves it out.
    expect(await pendingOf(bill.id, 'admin')).toEqual([]);
  });

  it('canceling a bill awaiting approval cancels its open approval and chain', async () => {
    await setPolicy([{ condition: null, approvers: { kind: 'user', user_id: a.users.employee } }]);
    const bill = await submit('admin');
    const [approval] = await pendingOf(bill.id, 'employee');
    const res = await request(t.app, 'POST', `${BILLS}/bulk-actions/cancel`, { token: tokens.admin, body: { bill_ids: [bill.id] } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.results[0]).toMatchObject({ ok: true, bill: { status: 'CANCELED' } });
    expect(await pendingOf(bill.id, 'employee')).toEqual([]);
    const [row] = await t.db.query<{ status: string }>('SELECT status FROM approvals WHERE id = $1', [approval!.id]);
    expect(row!.status).toBe('CANCELED');
    const [instance] = await t.db.query<{ status: string }>(`SELECT status FROM approval_instances WHERE object_id = $1`, [bill.id]);
    expect(instance!.status).toBe('CANCELED');
    const late = await approve(approval!.id, 'employee');
    expect(refusal(late)).toEqual([422, 'REQUEST_7001']);
    expect((await billOf(bill.id)).status).toBe('CANCELED');
  });
});
