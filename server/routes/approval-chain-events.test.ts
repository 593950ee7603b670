import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { approvalChainSchema, type ApprovalChain } from '../../schema/api/calls-approval-events.ts';
import type { Approval } from '../../schema/entities/approval.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { type Fixture, type FixtureRole, makeBusiness, makeVendor, refusal, request, signIn } from '../test-fixtures.ts';

/**
 * Issue 32: bulk approval chain events. A bill runs a two-step chain (an "all" group of two, then
 * one person) and is rejected, then resubmitted under a new chain; the events read back are the
 * whole story, in order, with the moments the rows hold. All or none: an approval the caller does
 * not see, another business's or an unknown one is 404 naming it.
 */
const EVENTS = '/v1/auth/approvals_v2/chain-events';
const APPROVALS = '/v1/auth/approvals';

describe.each(await testDatabases())('approval chain events on %s', (kind) => {
  const t = useTestApp(kind);
  let a: Fixture;
  const tokens = {} as Record<FixtureRole, string>;
  let otherAdmin: string;
  let bill: string;
  type Row = Approval & { instance_id: string };
  let step0: Row;
  let step1: Row;
  let again: Row;

  const rows = async (billId: string) =>
    (await t.db.query<Row>(
      `SELECT id::text, status, instance_id::text, ll_iso(created_at) AS created_at, ll_iso(decided_at) AS decided_at
         FROM approvals WHERE object_id = $1 ORDER BY created_at, step_index`, [billId],
    ));
  const events = (role: FixtureRole | string, approval_ids: unknown) =>
    request(t.app, 'POST', EVENTS, { token: role in tokens ? tokens[role as FixtureRole] : role, body: { approval_ids } });
  const decide = async (id: string, role: FixtureRole, reason?: string) => {
    const res = await request(t.app, 'POST', `${APPROVALS}/${id}/${reason ? 'reject' : 'approve'}`, { token: tokens[role], body: reason ? { reason } : {} });
    expect(res.status, res.text).toBe(200);
  };

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    const b = await makeBusiness(t.db, { transactions: 0 });
    for (const role of ['admin', 'bookkeeper', 'employee', 'teammate', 'outsider', 'manager'] as const) tokens[role] = await signIn(t.app, a.email(role));
    otherAdmin = await signIn(t.app, b.email('admin'));
    const vendor = await makeVendor(t.app, tokens.admin, 'Chain Co');
    const policy = await request(t.app, 'PATCH', '/v1/auth/approval_policy/bill', {
      token: tokens.admin,
      body: { steps: [
        { condition: null, approvers: { kind: 'group', user_ids: [a.users.employee, a.users.outsider], mode: 'all' } },
        { condition: null, approvers: { kind: 'user', user_id: a.users.teammate } },
      ] },
    });
    expect(policy.status, policy.text).toBe(200);
    const created = await request(t.app, 'POST', '/v1/auth/bill-pay', {
      token: tokens.admin,
      body: { vendor_id: vendor, invoice_number: 'CH-1', invoice_date: '2026-11-01', due_date: '2026-11-30', currency: 'USD',
        line_items: [{ description: 'Audit', amount: 90_000 }], submit: true },
    });
    expect(created.status, created.text).toBe(200);
    bill = created.body.id;
    const [first] = await rows(bill);
    await decide(first!.id, 'employee');
    await decide(first!.id, 'outsider');
    await decide((await rows(bill))[1]!.id, 'teammate', 'Not in this quarter\'s budget');
    const resent = await request(t.app, 'PATCH', `/v1/auth/bill-pay/${bill}`, { token: tokens.admin, body: { submit: true } });
    expect(resent.status, resent.text).toBe(200);
    const all = await rows(bill);
    expect(all).toHaveLength(3);
    [step0, step1, again] = [all[0]!, all[1]!, all[2]!];
  });

  it('answers every event of each chain asked for, in the order asked: submission, assignments, each approval, the rejection', async () => {
    const res = await events('admin', [step1.id, again.id, step0.id]);
    expect(res.status, res.text).toBe(200);
    const chains = res.body.data.map((c: unknown) => approvalChainSchema.parse(c)) as ApprovalChain[];
    expect(chains.map((c) => c.approval_id)).toEqual([step1.id, again.id, step0.id]);
    const [instance] = await t.db.query<{ created_at: string }>(
      `SELECT ll_iso(created_at) AS created_at FROM approval_instances WHERE id = $1`, [step0.instance_id],
    );
    const first = chains[0]!;
    expect(first).toMatchObject({ object_type: 'bill', object_id: bill, status: 'REJECTED' });
    expect(first.events.map((e) => [e.type, e.step, e.actor_id, e.at])).toEqual([
      ['submitted', null, a.users.admin, instance!.created_at],
      ['assigned', 0, null, step0.created_at],
      // The "all" step's first approver: who, not when (the chain keeps only its last approval's moment).
      ['approved', 0, a.users.employee, null],
      ['approved', 0, a.users.outsider, step0.decided_at],
      ['assigned', 1, null, step1.created_at],
      ['rejected', 1, a.users.teammate, step1.decided_at],
    ]);
    expect([...first.events[1]!.approver_ids].sort()).toEqual([a.users.employee, a.users.outsider].sort());
    expect(first.events[4]!.approver_ids).toEqual([a.users.teammate]);
    expect(first.events[5]!.reason).toBe('Not in this quarter\'s budget');
    // Both steps' approvals belong to the one chain: the same story.
    expect(chains[2]).toEqual({ ...first, approval_id: step0.id });
    // The resubmission is a chain of its own, open at its first step.
    expect(chains[1]!.instance_id).not.toBe(first.instance_id);
    expect(chains[1]).toMatchObject({ status: 'PENDING' });
    expect(chains[1]!.events.map((e) => [e.type, e.step])).toEqual([['submitted', null], ['assigned', 0]]);
  });

  it('a canceled bill\'s open step ends its chain with the cancelation', async () => {
    const canceled = await request(t.app, 'POST', '/v1/auth/bill-pay/bulk-actions/cancel', { token: tokens.admin, body: { bill_ids: [bill] } });
    expect(canceled.status, canceled.text).toBe(200);
    const [row] = await t.db.query<{ updated_at: string }>('SELECT ll_iso(updated_at) AS updated_at FROM approvals WHERE id = $1', [again.id]);
    const res = await events('admin', [again.id]);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data[0].status).toBe('CANCELED');
    expect(res.body.data[0].events.map((e: { type: string; step: number | null; at: string | null }) => [e.type, e.step, e.at])).toEqual([
      ['submitted', null, again.created_at], ['assigned', 0, again.created_at], ['canceled', 0, row!.updated_at],
    ]);
  });

  it('a step approver reads the chains of the steps they see; anything else is 404 naming it, all or none', async () => {
    const mine = await events('employee', [step0.id]);
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.data[0].events).toHaveLength(6);
    // Not an approver of step 1 and no reviewer: the whole call is refused, naming that approval.
    const mixed = await events('employee', [step0.id, step1.id]);
    expect(refusal(mixed)).toEqual([404, 'REQUEST_7004']);
    expect(mixed.text).toContain(step1.id);
    expect(mixed.text).not.toContain('Not in this quarter');
    expect(refusal(await events(otherAdmin, [step0.id]))).toEqual([404, 'REQUEST_7004']);
    const unknown = randomUUID();
    const none = await events('bookkeeper', [step0.id, unknown]);
    expect(refusal(none)).toEqual([404, 'REQUEST_7004']);
    expect(none.text).toContain(unknown);
  });

  it('refuses an empty, repeated or oversized list and unknown fields (422)', async () => {
    expect(refusal(await events('admin', []))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await events('admin', [step0.id, step0.id]))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await events('admin', Array.from({ length: 101 }, () => randomUUID())))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await events('admin', ['not-a-uuid']))).toEqual([422, 'REQUEST_7001']);
    const extra = await request(t.app, 'POST', EVENTS, { token: tokens.admin, body: { approval_ids: [step0.id], include: 'all' } });
    expect(refusal(extra)).toEqual([422, 'REQUEST_7001']);
  });
});
