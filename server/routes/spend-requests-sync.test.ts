import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { syncChanges } from '../../schema/api/calls.ts';
import { decisionSchema } from '../../schema/api/calls-approvals.ts';
import type { SpendRequestCreate, SpendRequestPatch } from '../../schema/api/calls-procurement.ts';
import { applySpendRequestCreate, applySpendRequestPatch, newSpendRequest } from '../../schema/commands/spend-request.ts';
import { spendRequestSchema, type SpendRequest } from '../../schema/entities/spend-request.ts';
import type { Change } from '../../schema/sync-feed.ts';
import { useTestApp } from '../test-app.ts';
import { testDatabases } from '../test-db.ts';
import { makeBusiness, makeVendor, refusal, request, signIn, type Fixture, type FixtureRole } from '../test-fixtures.ts';

/**
 * Issue 28, spend requests and the mirror: a step approver outside the `owner` scope (a `user`
 * named in the spend_request policy, not the requester's manager) mirrors the request they
 * decide, keeps it afterwards, and a later step's approver receives it when their step opens (the
 * request is re-stamped); line ids a device derives offline are the ids the server stores, the
 * feed carries and the purchase order takes.
 */
const REQS = '/v1/auth/spend-requests';
const APPROVALS = '/v1/auth/approvals';
const AT = '2026-12-01T12:00:00.000Z';

type Feed = { changes: Change[]; checkpoint: number };

describe.each(await testDatabases())('spend requests in the mirror on %s', (kind) => {
  const t = useTestApp(kind, { now: () => Date.parse(AT) });

  /** Every change after `after` as the user's device pulls it (forward pages). */
  async function pull(token: string, after: number): Promise<Feed> {
    const changes: Change[] = [];
    let checkpoint = after;
    for (;;) {
      const res = await request(t.app, 'GET', `${syncChanges.path}?after=${checkpoint}&limit=200`, { token });
      expect(res.status, res.text).toBe(200);
      changes.push(...res.body.changes);
      checkpoint = res.body.checkpoint;
      if (!res.body.has_more) return { changes, checkpoint };
    }
  }
  const requestsIn = (feed: Feed) => feed.changes.filter((c) => c.collection === 'spend_requests').map((c) => spendRequestSchema.parse(c.doc));
  const approvalIdsIn = (feed: Feed) => feed.changes.filter((c) => c.collection === 'approvals').map((c) => c.id);

  /** A business whose spend_request policy is `steps(users)`. */
  async function business(steps: (users: Fixture['users']) => unknown[]): Promise<{ f: Fixture; tokens: Record<FixtureRole, string>; vendor: string }> {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const tokens = {} as Record<FixtureRole, string>;
    for (const role of ['admin', 'manager', 'employee', 'teammate', 'outsider'] as const) tokens[role] = await signIn(t.app, f.email(role));
    const policy = await request(t.app, 'PATCH', '/v1/auth/approval_policy/spend_request', { token: tokens.admin, body: { steps: steps(f.users) } });
    expect(policy.status, policy.text).toBe(200);
    return { f, tokens, vendor: await makeVendor(t.app, tokens.admin, 'Desk Co') };
  }
  const userStep = (userId: string) => ({ condition: null, approvers: { kind: 'user', user_id: userId } });
  const managerStep = { condition: null, approvers: { kind: 'manager' } };
  const approve = (token: string, approvalId: string) => request(t.app, 'POST', `${APPROVALS}/${approvalId}/approve`, { token });
  const create = async (token: string, body: Record<string, unknown>): Promise<SpendRequest> => {
    const res = await request(t.app, 'POST', REQS, { token, body });
    expect(res.status, res.text).toBe(201);
    return spendRequestSchema.parse(res.body);
  };
  const budget = { type: 'GENERAL_EXPENSE', amount: { amount: 30_000, currency: 'USD' }, description: 'Trade show' };

  it('a `user` step approver (not the requester\'s manager) mirrors the request, and keeps it after deciding', async () => {
    // The outsider is no manager and outside the employee's reporting line: only the chain names them.
    const { tokens } = await business((u) => [userStep(u.outsider)]);
    const outsider0 = await pull(tokens.outsider, 0);
    const teammate0 = await pull(tokens.teammate, 0);

    const r = await create(tokens.employee, budget);
    const mirrored = await pull(tokens.outsider, outsider0.checkpoint);
    expect(requestsIn(mirrored).map((x) => [x.id, x.status, x.approval_id])).toEqual([[r.id, 'PENDING_APPROVAL', r.approval_id]]);
    expect(approvalIdsIn(mirrored)).toEqual([r.approval_id]);
    // Someone the chain does not name (and no manager of the employee) mirrors nothing of it.
    expect(requestsIn(await pull(tokens.teammate, teammate0.checkpoint))).toEqual([]);
    // The first mirror (backfill walk) of the approver carries it too.
    const walk = await request(t.app, 'GET', `${syncChanges.path}?backfill=true&limit=500`, { token: tokens.outsider });
    expect(walk.body.changes.filter((c: Change) => c.collection === 'spend_requests').map((c: Change) => c.id)).toEqual([r.id]);

    const decided = await approve(tokens.outsider, r.approval_id!);
    expect(decided.status, decided.text).toBe(200);
    expect(decisionSchema.parse(decided.body).spend_request).toMatchObject({ status: 'FULFILLED' });
    const after = await pull(tokens.outsider, mirrored.checkpoint);
    expect(requestsIn(after).map((x) => [x.id, x.status])).toEqual([[r.id, 'FULFILLED']]);
    // GET answers what the feed mirrors, to the approver and nobody else outside the owner scope.
    expect((await request(t.app, 'GET', `${REQS}/${r.id}`, { token: tokens.outsider })).body).toMatchObject({ id: r.id, status: 'FULFILLED' });
    expect(refusal(await request(t.app, 'GET', `${REQS}/${r.id}`, { token: tokens.teammate }))).toEqual([404, 'REQUEST_7004']);
  });
  it('a later step\'s approver receives the request when their step opens (the request is re-stamped)', async () => {
    const { tokens } = await business((u) => [managerStep, userStep(u.outsider)]);
    const r = await create(tokens.employee, budget);
    // Submitted: only the manager's step is open, so the outsider's mirror has nothing yet.
    const before = await pull(tokens.outsider, 0);
    expect(requestsIn(before).map((x) => x.id)).not.toContain(r.id);

    const first = await approve(tokens.manager, r.approval_id!);
    expect(first.status, first.text).toBe(200);
    // From the outsider's checkpoint (taken before the step opened) the forward pull brings it.
    const opened = await pull(tokens.outsider, before.checkpoint);
    const [shown] = requestsIn(opened);
    expect(shown).toMatchObject({ id: r.id, status: 'PENDING_APPROVAL' });
    expect(shown!.approval_id).not.toBe(r.approval_id);
    expect(approvalIdsIn(opened)).toEqual([shown!.approval_id]);
    expect((await approve(tokens.outsider, shown!.approval_id!)).status).toBe(200);
  });

  it('line ids a device derives offline are the server\'s, the feed\'s and the purchase order\'s', async () => {
    const { f, tokens, vendor } = await business(() => [managerStep]);
    const id = randomUUID();
    const body: SpendRequestCreate = {
      type: 'PRODUCT_OR_SERVICE', vendor_id: vendor, amount: { amount: 3 * 4_000 + 2_500, currency: 'USD' }, description: 'Desks',
      line_items: [{ description: 'Desk', quantity: 3, unit_price: 4_000 }, { description: 'Lamp', quantity: 1, unit_price: 2_500 }],
    };
    // What the worker shows while offline: the command's blank row with its create applied.
    const actor = { user_id: f.users.employee, business_id: f.businessId };
    const offline = applySpendRequestCreate(newSpendRequest(body, { id, actor, at: AT }), body);
    const lineIds = offline.line_items.map((l) => l.id);
    expect(new Set(lineIds).size).toBe(2);

    const stored = await create(tokens.employee, { ...body, id });
    expect(stored.line_items).toEqual(offline.line_items);
    const feed = await pull(tokens.employee, stored.change_seq - 1);
    expect(requestsIn(feed).find((x) => x.id === id)!.line_items.map((l) => l.id)).toEqual(lineIds);
    const decided = decisionSchema.parse((await approve(tokens.manager, stored.approval_id!)).body);
    expect(decided.purchase_order!.lines.map((l) => l.id)).toEqual(lineIds);

    // A draft's lines replaced offline keep the ids the server gives them.
    const draftId = randomUUID();
    const draftBody: SpendRequestCreate = { ...body, submit: false };
    const draft = applySpendRequestCreate(newSpendRequest(draftBody, { id: draftId, actor, at: AT }), draftBody);
    await create(tokens.employee, { ...draftBody, id: draftId });
    const patch: SpendRequestPatch = {
      amount: { amount: 9_000, currency: 'USD' }, line_items: [{ description: 'Chair', quantity: 2, unit_price: 3_000 }, { description: 'Mat', quantity: 3, unit_price: 1_000 }],
    };
    const edited = applySpendRequestPatch(draft, patch);
    const res = await request(t.app, 'PATCH', `${REQS}/${draftId}`, { token: tokens.employee, body: patch });
    expect(res.status, res.text).toBe(200);
    expect(spendRequestSchema.parse(res.body).line_items).toEqual(edited.line_items);
  });

  it('refuses a request id sharing its line-id prefix with another request\'s, by field, and stores nothing', async () => {
    const { f, tokens } = await business(() => [managerStep]);
    const first = await create(tokens.employee, { ...budget, id: randomUUID() });
    const twin = `${first.id.slice(0, 24)}${randomUUID().slice(24)}`;
    const res = await request(t.app, 'POST', REQS, { token: tokens.teammate, body: { ...budget, id: twin } });
    expect(refusal(res)).toEqual([422, 'REQUEST_7001']);
    expect(Object.keys(res.body.error_v2.errors)).toEqual(['id']);
    const rows = await t.db.query('SELECT 1 FROM spend_requests WHERE business_id = $1', [f.businessId]);
    expect(rows).toHaveLength(1);
    // The database refuses it whatever the writer (the unique index of migration 050).
    await expect(t.db.query(
      `INSERT INTO spend_requests (id, business_id, user_id, requested_by, type, status, amount, currency, limit_interval, description,
                                   line_items, document_ids, created_at, updated_at, change_seq)
       SELECT $1, business_id, user_id, requested_by, type, 'DRAFT', amount, currency, limit_interval, description, '[]', '{}', created_at, updated_at, change_seq
         FROM spend_requests WHERE id = $2`, [twin, first.id],
    )).rejects.toThrow(/spend_requests_line_id_prefix/);
  });
});
