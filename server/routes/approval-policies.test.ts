import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  approvalInstanceSchema, policyResponseSchema, simulateApprovalPolicy, type PolicyStepBody,
} from '../../schema/api/calls-approval-policies.ts';
import { DEFAULT_STEP_ID, NO_STEP_APPLIES } from '../../schema/approval-policy.ts';
import { createInstance } from '../domain/approval-policies.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn, useTwoBusinesses, type FixtureRole } from '../test-fixtures.ts';

/**
 * Approval policies and chains (issue 11) through the catalogue: reading the default, editing
 * (versions), add-step, simulation (step by step, with reasons), an instance created from the same
 * policy equals the simulation and is not rewritten by a later edit, reorder of steps not started,
 * the admin gate, validation and references of another business. Fixture reporting line:
 * employee → manager, teammate → employee.
 */
const POLICY = '/v1/auth/approval_policy';
const REORDER = '/v1/auth/approvals_v2/instance/reorder-step';

describe.each(await testDatabases())('approval policies on %s', (kind) => {
  const t = useTestApp(kind);
  const biz = useTwoBusinesses(t, ['owner', 'admin', 'bookkeeper', 'manager', 'employee']);
  const { tokens } = biz;

  const call = (method: string, path: string, body?: unknown, token = tokens.admin) => request(t.app, method, path, { token, body });
  const subject = (over: Record<string, unknown> = {}) => ({ requester_id: biz.a.users.employee, amount: 25_000, currency: 'USD', ...over });
  const simulateNow = async (type: string, over: Record<string, unknown> = {}) => {
    const res = await call('POST', `${POLICY}/request_simulation`, { object_type: type, subject: subject(over) });
    expect(res.status, res.text).toBe(200);
    return simulateApprovalPolicy.response.parse(res.body);
  };

  it('answers the built-in default until an admin edits it: the requester\'s manager', async () => {
    const res = await call('GET', `${POLICY}/vendor-payment`);
    expect(res.status, res.text).toBe(200);
    expect(policyResponseSchema.parse(res.body)).toEqual({
      object_type: 'vendor-payment', version: 0, is_default: true, updated_by: null, updated_at: null,
      steps: [{ id: DEFAULT_STEP_ID, condition: null, approvers: { kind: 'manager' } }],
    });
    const sim = await simulateNow('vendor-payment');
    expect(sim.steps.map((s) => s.resolved_approvers.map((x) => x.user_id))).toEqual([[biz.a.users.manager]]);
  });

  it('replaces the steps as a new version, then add-step inserts one; simulation walks them with reasons', async () => {
    const steps: PolicyStepBody[] = [
      { condition: null, approvers: { kind: 'manager' } },
      { condition: { min_amount: { amount: 100_000, currency: 'USD' } }, approvers: { kind: 'user', user_id: biz.a.users.owner } },
      { condition: { department_ids: [biz.a.departments[0]!] }, approvers: { kind: 'group', user_ids: [biz.a.users.bookkeeper, biz.a.users.employee], mode: 'all' } },
    ];
    const put = await call('PATCH', `${POLICY}/bill`, { steps });
    expect(put.status, put.text).toBe(200);
    const v1 = policyResponseSchema.parse(put.body);
    expect(v1).toMatchObject({ object_type: 'bill', version: 1, is_default: false, updated_by: biz.a.users.admin });
    expect(v1.steps.map((s) => s.approvers)).toEqual(steps.map((s) => s.approvers));

    const added = await call('POST', `${POLICY}/chain/add-step`, { object_type: 'bill', step: { condition: null, approvers: { kind: 'role', role: 'BUSINESS_BOOKKEEPER' } }, position: 0 });
    expect(added.status, added.text).toBe(200);
    const v2 = policyResponseSchema.parse(added.body);
    expect(v2.version).toBe(2);
    expect(v2.steps.slice(1)).toEqual(v1.steps);

    const sim = await simulateNow('bill', { department_id: biz.a.departments[0] });
    expect(sim.version).toBe(2);
    expect(sim.steps.map((s) => [s.applies, s.reason, s.resolved_approvers.map((x) => x.user_id)])).toEqual([
      [true, 'no condition', [biz.a.users.bookkeeper]],
      [true, 'no condition', [biz.a.users.manager]],
      [false, 'amount 25000 is below the threshold 100000', []],
      // The requester is in the group: never their own approver.
      [true, 'condition matches', [biz.a.users.bookkeeper]],
    ]);
    expect(sim.steps[3]!.mode).toBe('all');
    expect(sim.steps[1]!.resolved_approvers[0]!.name).not.toBe('');
  });

  it('an instance is what the simulation said, and a later edit never rewrites it', async () => {
    await call('PATCH', `${POLICY}/spend_request`, {
      steps: [
        { condition: null, approvers: { kind: 'manager' } },
        { condition: { min_amount: { amount: 10_000, currency: 'USD' } }, approvers: { kind: 'group', user_ids: [biz.a.users.owner, biz.a.users.bookkeeper], mode: 'any' } },
      ],
    });
    const sim = await simulateNow('spend_request');
    const instance = await t.db.transaction((tx) =>
      createInstance(tx, biz.a.businessId, 'spend_request', randomUUID(), subject(), new Date().toISOString()));
    const applied = sim.steps.filter((s) => s.applies);
    expect(instance.steps.map((s) => [s.step_id, s.mode, s.approver_ids])).toEqual(applied.map((s) => [s.step_id, s.mode, s.resolved_approvers.map((x) => x.user_id)]));
    expect(instance.steps.map((s) => s.status)).toEqual(['PENDING', 'WAITING']);
    expect(instance.policy_version).toBe(sim.version);

    await call('PATCH', `${POLICY}/spend_request`, { steps: [] });
    const [stored] = await t.db.query<{ steps: unknown; policy_version: number }>('SELECT steps, policy_version FROM approval_instances WHERE id = $1', [instance.id]);
    expect(stored).toEqual({ steps: instance.steps, policy_version: sim.version });
    // No policy step left: the admins review it (never approved silently).
    const none = await simulateNow('spend_request');
    expect(none.steps.map((s) => [s.step_id, s.approvers, s.resolved_approvers.map((x) => x.user_id).sort()]))
      .toEqual([[NO_STEP_APPLIES, null, [biz.a.users.owner, biz.a.users.admin].sort()]]);
  });

  it('reorders a step not started; refuses the open step, unknown ids and another business', async () => {
    await call('PATCH', `${POLICY}/payee`, {
      steps: ['manager', 'owner', 'bookkeeper'].map((r) => ({ condition: null, approvers: r === 'manager' ? { kind: 'manager' } : { kind: 'user', user_id: biz.a.users[r as FixtureRole] } })),
    });
    const instance = await t.db.transaction((tx) => createInstance(tx, biz.a.businessId, 'payee', randomUUID(), subject(), new Date().toISOString()));
    const [open, second, third] = instance.steps.map((s) => s.step_id);
    const res = await call('PATCH', REORDER, { instance_id: instance.id, step_id: third, position: 1 });
    expect(res.status, res.text).toBe(200);
    expect(approvalInstanceSchema.parse(res.body).steps.map((s) => s.step_id)).toEqual([open, third, second]);

    const refused = await call('PATCH', REORDER, { instance_id: instance.id, step_id: open, position: 2 });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.error_v2.error_code).toBe('REQUEST_7001');
    expect((await call('PATCH', REORDER, { instance_id: instance.id, step_id: second, position: 0 })).status).toBe(422);
    expect((await call('PATCH', REORDER, { instance_id: randomUUID(), step_id: second, position: 1 })).status).toBe(404);
    expect((await call('PATCH', REORDER, { instance_id: instance.id, step_id: second, position: 1 }, biz.bOwner)).status).toBe(404);
  });

  it('is for admins only', async () => {
    for (const role of ['bookkeeper', 'manager', 'employee'] as const) {
      const answers = await Promise.all([
        call('GET', `${POLICY}/card`, undefined, tokens[role]),
        call('PATCH', `${POLICY}/card`, { steps: [] }, tokens[role]),
        call('POST', `${POLICY}/chain/add-step`, { object_type: 'card', step: { condition: null, approvers: { kind: 'manager' } } }, tokens[role]),
        call('POST', `${POLICY}/request_simulation`, { object_type: 'card', subject: subject() }, tokens[role]),
        call('PATCH', REORDER, { instance_id: randomUUID(), step_id: randomUUID(), position: 1 }, tokens[role]),
      ]);
      expect(answers.map((r) => r.status), role).toEqual([403, 403, 403, 403, 403]);
    }
    expect((await call('GET', `${POLICY}/card`, undefined, tokens.owner)).status).toBe(200);
  });

  it('answers 422 REQUEST_7001 for malformed input and 404 for ids outside the business', async () => {
    const invalid: [string, string, unknown][] = [
      ['PATCH', `${POLICY}/invoice`, { steps: [] }],
      ['PATCH', `${POLICY}/card`, { steps: [{ condition: null, approvers: { kind: 'group', user_ids: [], mode: 'any' } }] }],
      ['PATCH', `${POLICY}/card`, { steps: [{ condition: null, approvers: { kind: 'role', role: 'KING' } }] }],
      ['PATCH', `${POLICY}/card`, { steps: [{ condition: { min_amount: { amount: 1.5, currency: 'USD' } }, approvers: { kind: 'manager' } }] }],
      ['PATCH', `${POLICY}/card`, { steps: [{ condition: null, approvers: { kind: 'manager' }, extra: 1 }] }],
      ['PATCH', `${POLICY}/card`, { steps: [{ id: DEFAULT_STEP_ID, condition: null, approvers: { kind: 'manager' } }, { id: DEFAULT_STEP_ID, condition: null, approvers: { kind: 'manager' } }] }],
      ['POST', `${POLICY}/request_simulation`, { object_type: 'card', subject: subject({ currency: 'XXQ' }) }],
      ['POST', `${POLICY}/chain/add-step`, { object_type: 'card', step: { condition: null, approvers: { kind: 'manager' } }, position: -1 }],
    ];
    for (const [method, path, body] of invalid) {
      const res = await call(method, path, body);
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}: ${res.text}`).toBe(422);
      expect(res.body.error_v2.error_code).toBe('REQUEST_7001');
    }
    const foreign: [string, string, unknown][] = [
      ['PATCH', `${POLICY}/card`, { steps: [{ condition: null, approvers: { kind: 'user', user_id: biz.b.users.admin } }] }],
      ['PATCH', `${POLICY}/card`, { steps: [{ condition: { department_ids: [biz.b.departments[0]!] }, approvers: { kind: 'manager' } }] }],
      ['POST', `${POLICY}/chain/add-step`, { object_type: 'card', step: { condition: null, approvers: { kind: 'group', user_ids: [biz.a.users.owner, randomUUID()], mode: 'all' } } }],
      ['POST', `${POLICY}/request_simulation`, { object_type: 'card', subject: subject({ requester_id: biz.b.users.employee }) }],
      ['POST', `${POLICY}/request_simulation`, { object_type: 'card', subject: subject({ department_id: biz.b.departments[0] }) }],
    ];
    for (const [method, path, body] of foreign) {
      const res = await call(method, path, body);
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}: ${res.text}`).toBe(404);
    }
    // Nothing of that was stored: the card policy is still the default.
    expect(policyResponseSchema.parse((await call('GET', `${POLICY}/card`)).body).version).toBe(0);
  });

  it('a submitted claim walks its chain: the claim moves only when the last step approves', async () => {
    const c = await makeBusiness(t.db, { transactions: 0 });
    const ct = {} as Record<FixtureRole, string>;
    for (const role of ['owner', 'admin', 'manager', 'employee'] as const) ct[role] = await signIn(t.app, c.email(role));
    const set = await call('PATCH', `${POLICY}/reimbursement`, {
      steps: [
        { condition: null, approvers: { kind: 'manager' } },
        { condition: { min_amount: { amount: 5_000, currency: 'USD' } }, approvers: { kind: 'user', user_id: c.users.owner } },
      ],
    }, ct.admin);
    expect(set.status, set.text).toBe(200);
    const sim = simulateApprovalPolicy.response.parse((await call('POST', `${POLICY}/request_simulation`, {
      object_type: 'reimbursement', subject: { requester_id: c.users.employee, amount: 12_500, currency: 'USD' },
    }, ct.admin)).body);
    const submit = async () => {
      const res = await call('POST', '/v1/auth/reimbursements/out_of_pocket', { merchant: 'Blue Bottle', amount: 12_500, currency: 'USD', transaction_date: '2026-03-01' }, ct.employee);
      expect(res.status, res.text).toBe(200);
      return res.body.id as string;
    };
    const pending = async (claimId: string) => {
      const rows = await t.db.query<{ id: string; approver_id: string | null; step_index: number }>(
        `SELECT id::text, approver_id::text, step_index FROM approvals WHERE object_id = $1 AND status = 'PENDING'`, [claimId],
      );
      return rows[0]!;
    };
    const status = async (claimId: string) => (await t.db.query<{ status: string }>('SELECT status FROM reimbursements WHERE id = $1', [claimId]))[0]!.status;
    const approve = (approvalId: string, role: FixtureRole) => call('POST', `/v1/auth/approvals/${approvalId}/approve`, {}, ct[role]);

    const claimId = await submit();
    const [instance] = await t.db.query<{ steps: { step_id: string; approver_ids: string[] }[]; policy_version: number }>(
      'SELECT steps, policy_version FROM approval_instances WHERE object_id = $1', [claimId],
    );
    // The instance is what the simulation said.
    expect(instance!.steps.map((x) => [x.step_id, x.approver_ids])).toEqual(sim.steps.filter((x) => x.applies).map((x) => [x.step_id, x.resolved_approvers.map((r) => r.user_id)]));
    expect(instance!.policy_version).toBe(sim.version);
    // A later edit does not change the running chain.
    await call('PATCH', `${POLICY}/reimbursement`, { steps: [{ condition: null, approvers: { kind: 'user', user_id: c.users.admin } }] }, ct.admin);

    const first = await pending(claimId);
    expect(first).toMatchObject({ approver_id: c.users.manager, step_index: 0 });
    expect((await approve(first.id, 'manager')).status).toBe(200);
    expect(await status(claimId)).toBe('SUBMITTED');
    const second = await pending(claimId);
    expect(second).toMatchObject({ approver_id: c.users.owner, step_index: 1 });
    // The manager is not this step's approver (and no override on a business's own policy).
    expect((await approve(second.id, 'manager')).status).toBe(403);
    expect((await approve(second.id, 'owner')).status).toBe(200);
    expect(await status(claimId)).toBe('APPROVED');
    const [done] = await t.db.query<{ status: string }>('SELECT status FROM approval_instances WHERE object_id = $1', [claimId]);
    expect(done!.status).toBe('APPROVED');

    // Under the new version: one step, the admin; a rejection rejects claim and chain.
    const other = await submit();
    const only = await pending(other);
    expect(only).toMatchObject({ approver_id: c.users.admin, step_index: 0 });
    const rejected = await call('POST', `/v1/auth/approvals/${only.id}/reject`, { reason: 'No receipt' }, ct.admin);
    expect(rejected.status, rejected.text).toBe(200);
    expect(await status(other)).toBe('REJECTED');
    expect((await t.db.query<{ status: string }>('SELECT status FROM approval_instances WHERE object_id = $1', [other]))[0]!.status).toBe('REJECTED');
  });

  it('a card request is issued only when its chain completes (the card policy)', async () => {
    const d = await makeBusiness(t.db, { transactions: 0 });
    const dt = {} as Record<FixtureRole, string>;
    for (const role of ['owner', 'admin', 'employee'] as const) dt[role] = await signIn(t.app, d.email(role));
    const set = await call('PATCH', `${POLICY}/card`, {
      steps: [{ condition: null, approvers: { kind: 'user', user_id: d.users.admin } }, { condition: null, approvers: { kind: 'user', user_id: d.users.owner } }],
    }, dt.owner);
    expect(set.status, set.text).toBe(200);
    const req = await call('POST', '/v1/auth/cards/requests', { amount: 50_000, currency: 'USD', interval: 'MONTHLY', reason: 'Travel' }, dt.employee);
    expect(req.status, req.text).toBe(200);
    const open = async () => (await t.db.query<{ id: string; step_index: number }>(
      `SELECT id::text, step_index FROM approvals WHERE object_id = $1 AND status = 'PENDING'`, [req.body.id],
    ))[0]!;
    const requestStatus = async () => (await t.db.query<{ status: string; card_id: string | null }>(
      'SELECT status, card_id::text FROM card_requests WHERE id = $1', [req.body.id],
    ))[0]!;
    const first = await open();
    expect(first.step_index).toBe(0);
    expect((await call('POST', `/v1/auth/approvals/${first.id}/approve`, {}, dt.admin)).status).toBe(200);
    expect(await requestStatus()).toEqual({ status: 'PENDING', card_id: null });
    const second = await open();
    expect(second.step_index).toBe(1);
    const last = await call('POST', `/v1/auth/approvals/${second.id}/approve`, {}, dt.owner);
    expect(last.status, last.text).toBe(200);
    expect(await requestStatus()).toMatchObject({ status: 'APPROVED' });
    expect(last.body.card.user_id).toBe(d.users.employee);
  });

  it('keeps each business\'s policies apart', async () => {
    await call('PATCH', `${POLICY}/reimbursement`, { steps: [{ condition: null, approvers: { kind: 'user', user_id: biz.a.users.owner } }] });
    const theirs = policyResponseSchema.parse((await call('GET', `${POLICY}/reimbursement`, undefined, biz.bOwner)).body);
    expect(theirs.version).toBe(0);
  });
});
