import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { syncChanges } from '../../schema/api/calls.ts';
import { decisionSchema } from '../../schema/api/calls-approvals.ts';
import { spendRequestSchema, type SpendRequest } from '../../schema/entities/spend-request.ts';
import { useTestApp } from '../test-app.ts';
import { testDatabases } from '../test-db.ts';
import { makeBusiness, makeVendor, refusal, request, signIn, type Fixture, type FixtureRole } from '../test-fixtures.ts';

/**
 * Issue 28, spend requests on the server: the status machine (draft, submit, approve → fulfilled,
 * reject, cancel, delete), what approval makes (a virtual card, a physical card, a purchase order,
 * room in a budget), §6 requesting for others, the type flags, bad input, documents, the feed, and
 * another business's ids on every route.
 */
const REQS = '/v1/auth/spend-requests';
const APPROVALS = '/v1/auth/approvals';
const PDF = '%PDF-1.7\nquote\n';

describe.each(await testDatabases())('spend requests on %s', (kind) => {
  const clock = Date.parse('2026-12-01T12:00:00Z');
  const t = useTestApp(kind, { now: () => clock });
  let a: Fixture;
  let b: Fixture;
  const tokens = {} as Record<FixtureRole, string>;
  let bOwner: string;
  let vendor: string;
  let bVendor: string;

  const create = (token: string, over: Record<string, unknown> = {}) => request(t.app, 'POST', REQS, {
    token, body: { type: 'GENERAL_EXPENSE', amount: { amount: 50_000, currency: 'USD' }, description: 'Team offsite', ...over },
  });
  const created = async (token: string, over: Record<string, unknown> = {}): Promise<SpendRequest> => {
    const res = await create(token, over);
    expect(res.status, res.text).toBe(201);
    return spendRequestSchema.parse(res.body);
  };
  const po = (over: Record<string, unknown> = {}) => ({
    type: 'PRODUCT_OR_SERVICE', vendor_id: vendor, amount: { amount: 5 * 2_000 + 1_500, currency: 'USD' }, description: 'Laptops',
    line_items: [{ description: 'Laptop stand', quantity: 5, unit_price: 2_000 }, { description: 'Cable', quantity: 1, unit_price: 1_500 }], ...over,
  });
  const approve = (token: string, approvalId: string) => request(t.app, 'POST', `${APPROVALS}/${approvalId}/approve`, { token });
  const count = async (sql: string, params: unknown[]) => Number((await t.db.query<{ n: number }>(sql, params))[0]!.n);
  const allocation = async (f: Fixture, over: { owner?: string; members?: string[]; archived?: boolean; end_date?: string | null; currency?: string } = {}) => {
    const id = randomUUID();
    const [seq] = await t.db.query<{ s: number }>('UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $1 RETURNING change_seq AS s', [f.businessId]);
    await t.db.query(
      `INSERT INTO spend_allocations (id, business_id, name, owner_id, member_ids, limit_amount, limit_currency, limit_interval, end_date, archived, created_by, change_seq)
       VALUES ($1, $2, 'Offsites', $3, $4::uuid[], 100000, $5, 'MONTHLY', $6, $7, $3, $8)`,
      [id, f.businessId, over.owner ?? f.users.manager, over.members ?? [], over.currency ?? 'USD', over.end_date ?? null, over.archived ?? false, seq!.s],
    );
    return id;
  };

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    b = await makeBusiness(t.db, { transactions: 0 });
    for (const role of ['owner', 'admin', 'bookkeeper', 'manager', 'employee', 'teammate', 'outsider'] as const) tokens[role] = await signIn(t.app, a.email(role));
    bOwner = await signIn(t.app, b.email('owner'));
    vendor = await makeVendor(t.app, tokens.admin, 'Acme Supplies');
    bVendor = await makeVendor(t.app, bOwner, 'Other Supplies');
  });

  it('a general expense goes pending, the manager approves it and a virtual card comes of it, once', async () => {
    const r = await created(tokens.employee, { interval: 'MONTHLY' });
    expect(r).toMatchObject({ status: 'PENDING_APPROVAL', user_id: a.users.employee, requested_by: a.users.employee, interval: 'MONTHLY' });
    expect(r.approval_id).not.toBeNull();
    expect(r.submitted_at).toBe('2026-12-01T12:00:00.000Z');
    // The employee cannot approve their own; the manager's inbox has it.
    expect(refusal(await approve(tokens.employee, r.approval_id!))).toEqual([403, 'FORBIDDEN_7003']);
    const inbox = await request(t.app, 'GET', `${APPROVALS}?status=PENDING&object_ids=${r.id}`, { token: tokens.manager });
    expect(inbox.body.data.map((x: { id: string }) => x.id)).toEqual([r.approval_id]);

    const res = await approve(tokens.manager, r.approval_id!);
    expect(res.status, res.text).toBe(200);
    const decision = decisionSchema.parse(res.body);
    expect(decision.spend_request).toMatchObject({ status: 'FULFILLED', card_id: decision.card!.id, decided_at: '2026-12-01T12:00:00.000Z', fulfilled_at: '2026-12-01T12:00:00.000Z' });
    expect(decision.card).toMatchObject({ user_id: a.users.employee, is_physical: false, status: 'ACTIVE', limit: { amount: 50_000, currency: 'USD', interval: 'MONTHLY' } });
    expect(await count('SELECT count(*) AS n FROM cards WHERE spend_request_id = $1', [r.id])).toBe(1);
    // Issue 29: the requester's "approved" notification takes the one seq after the decision's own rows.
    const high = await count('SELECT change_seq AS n FROM businesses WHERE id = $1', [a.businessId]);
    expect(decision.change_seq).toBe(high - 1);
    expect(await count(`SELECT count(*) AS n FROM notifications WHERE owner_id = $1 AND kind = 'approved' AND change_seq = $2`, [a.users.employee, high])).toBe(1);

    // Decided once: a second approve, a cancel, an edit are refused; still one card.
    expect(refusal(await approve(tokens.admin, r.approval_id!))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await request(t.app, 'POST', `${REQS}/${r.id}/cancel`, { token: tokens.employee }))).toEqual([409, 'PROCUREMENT_7003']);
    expect(refusal(await request(t.app, 'PATCH', `${REQS}/${r.id}`, { token: tokens.employee, body: { description: 'x' } }))).toEqual([409, 'PROCUREMENT_7003']);
    expect(refusal(await request(t.app, 'DELETE', REQS, { token: tokens.employee, body: { spend_request_uuid: r.id } }))).toEqual([409, 'PROCUREMENT_7003']);
    expect(await count('SELECT count(*) AS n FROM cards WHERE spend_request_id = $1', [r.id])).toBe(1);

    // The feed carries the request to the employee's mirror, fulfilled.
    const feed = await request(t.app, 'GET', `${syncChanges.path}?after=${r.change_seq - 1}&limit=500`, { token: tokens.employee });
    const change = feed.body.changes.find((c: { collection: string; id: string }) => c.collection === 'spend_requests' && c.id === r.id);
    expect(change.doc).toMatchObject({ status: 'FULFILLED', card_id: decision.card!.id });
  });

  it('a draft is edited, submitted, canceled with its approval, and deleted; a rejection keeps its reason', async () => {
    const d = await created(tokens.employee, { submit: false, needed_by: '2026-12-24' });
    expect(d).toMatchObject({ status: 'DRAFT', approval_id: null, submitted_at: null });
    const edited = await request(t.app, 'PATCH', `${REQS}/${d.id}`, { token: tokens.employee, body: { amount: { amount: 7_000, currency: 'USD' } } });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.change_seq).toBeGreaterThan(d.change_seq);
    const sent = await request(t.app, 'PATCH', `${REQS}/${d.id}`, { token: tokens.employee, body: { submit: true } });
    expect(sent.body).toMatchObject({ status: 'PENDING_APPROVAL', amount: { amount: 7_000, currency: 'USD' } });
    const canceled = await request(t.app, 'POST', `${REQS}/${d.id}/cancel`, { token: tokens.employee });
    expect(canceled.body).toMatchObject({ status: 'CANCELED', canceled_at: '2026-12-01T12:00:00.000Z' });
    const [approval] = await t.db.query<{ status: string }>('SELECT status FROM approvals WHERE id = $1', [sent.body.approval_id]);
    expect(approval!.status).toBe('CANCELED');
    expect(refusal(await approve(tokens.manager, sent.body.approval_id))).toEqual([422, 'REQUEST_7001']);
    const gone = await request(t.app, 'DELETE', REQS, { token: tokens.employee, body: { spend_request_uuid: d.id } });
    expect(gone.body).toMatchObject({ id: d.id, deleted: true });
    expect(refusal(await request(t.app, 'GET', `${REQS}/${d.id}`, { token: tokens.employee }))).toEqual([404, 'REQUEST_7004']);

    const r = await created(tokens.employee);
    const rejected = await request(t.app, 'POST', `${APPROVALS}/${r.approval_id}/reject`, { token: tokens.manager, body: { reason: 'Over budget' } });
    expect(decisionSchema.parse(rejected.body).spend_request).toMatchObject({ status: 'REJECTED', rejection_reason: 'Over budget', card_id: null });
    expect((await request(t.app, 'DELETE', REQS, { token: tokens.employee, body: { spend_request_uuid: r.id } })).status).toBe(200);
  });

  it('a client id made twice by its caller answers the stored request; someone else\'s id is refused', async () => {
    const id = randomUUID();
    const first = await created(tokens.employee, { id });
    const again = await created(tokens.employee, { id, description: 'Changed' });
    expect(again).toEqual(first);
    expect(await count('SELECT count(*) AS n FROM approvals WHERE object_id = $1', [id])).toBe(1);
    expect(refusal(await create(tokens.teammate, { id }))).toEqual([422, 'REQUEST_7001']);
  });

  it('a physical card request ships a physical card; a product request becomes PO-000001 with its lines', async () => {
    const card = await created(tokens.employee, { type: 'PHYSICAL_CARD', interval: 'YEARLY' });
    const cardDecision = decisionSchema.parse((await approve(tokens.manager, card.approval_id!)).body);
    expect(cardDecision.card).toMatchObject({ is_physical: true, status: 'SHIPPED', limit: { amount: 50_000, interval: 'YEARLY' } });

    const f = await makeBusiness(t.db, { transactions: 0 });
    const employee = await signIn(t.app, f.email('employee'));
    const manager = await signIn(t.app, f.email('manager'));
    const v = await makeVendor(t.app, await signIn(t.app, f.email('admin')), 'Desk Co');
    const r = await created(employee, po({ vendor_id: v, needed_by: '2026-12-01' }));
    expect(r.line_items.map((l) => l.description)).toEqual(['Laptop stand', 'Cable']);
    const res = await approve(manager, r.approval_id!);
    expect(res.status, res.text).toBe(200);
    const d = decisionSchema.parse(res.body);
    expect(d.purchase_order).toMatchObject({
      po_number: 'PO-000001', spend_request_id: r.id, vendor_id: v, currency: 'USD', amount: 11_500, status: 'OPEN', created_by: f.users.employee,
    });
    expect(d.purchase_order!.lines.map((l) => [l.id, l.quantity, l.unit_price, l.received_quantity])).toEqual(
      r.line_items.map((l) => [l.id, l.quantity, l.unit_price, 0]),
    );
    expect(d.spend_request).toMatchObject({ status: 'FULFILLED', purchase_order_id: d.purchase_order!.id, card_id: null });
    const next = await created(employee, po({ vendor_id: v }));
    expect(decisionSchema.parse((await approve(manager, next.approval_id!)).body).purchase_order!.po_number).toBe('PO-000002');
  });

  it('a budget room request adds the amount to the allocation and its person to the members', async () => {
    const hidden = await allocation(a);
    const path = (id: string) => `/v1/auth/spend-allocation/${id}/requests`;
    expect(refusal(await request(t.app, 'PUT', path(hidden), { token: tokens.employee, body: { amount: 20_000, description: 'More' } }))).toEqual([404, 'REQUEST_7004']);
    const open = await allocation(a, { members: [a.users.employee] });
    const res = await request(t.app, 'PUT', path(open), { token: tokens.employee, body: { amount: 20_000, description: 'More' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ type: 'GENERAL_EXPENSE', spend_allocation_id: open, amount: { amount: 20_000, currency: 'USD' }, status: 'PENDING_APPROVAL' });
    // The owner (not a member yet) is added when their own request is approved.
    const owners = await created(tokens.manager, { spend_allocation_id: open, amount: { amount: 5_000, currency: 'USD' } });
    const before = await t.db.query<{ change_seq: number }>('SELECT change_seq FROM spend_allocations WHERE id = $1', [open]);
    const d = decisionSchema.parse((await approve(tokens.manager, res.body.approval_id)).body);
    expect(d.card).toBeUndefined();
    expect(d.spend_request).toMatchObject({ status: 'FULFILLED', card_id: null });
    expect((await approve(tokens.admin, owners.approval_id!)).status).toBe(200);
    const [row] = await t.db.query<{ limit_amount: number; member_ids: string[]; change_seq: number }>(
      'SELECT limit_amount, member_ids::text[] AS member_ids, change_seq FROM spend_allocations WHERE id = $1', [open],
    );
    expect(Number(row!.limit_amount)).toBe(125_000);
    expect(row!.member_ids).toEqual([a.users.employee, a.users.manager]);
    expect(Number(row!.change_seq)).toBeGreaterThan(Number(before[0]!.change_seq));

    // Archived or ended budgets take no requests; another currency is refused by field.
    const archived = await allocation(a, { members: [a.users.employee], archived: true });
    expect(refusal(await request(t.app, 'PUT', path(archived), { token: tokens.employee, body: { amount: 1, description: 'x' } }))).toEqual([422, 'PROCUREMENT_7005']);
    const ended = await allocation(a, { members: [a.users.employee], end_date: '2026-11-30' });
    expect(refusal(await create(tokens.employee, { spend_allocation_id: ended }))).toEqual([422, 'PROCUREMENT_7005']);
    const eur = await allocation(a, { members: [a.users.employee], currency: 'EUR' });
    const wrong = await create(tokens.employee, { spend_allocation_id: eur });
    expect(refusal(wrong)).toEqual([422, 'REQUEST_7001']);
    expect(Object.keys(wrong.body.error_v2.errors)).toEqual(['amount.currency']);
  });

  it('follows the business\'s spend_request chain: a vendor step after the manager, skipped below its amount', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const [admin, employee, manager, owner] = (await Promise.all((['admin', 'employee', 'manager', 'owner'] as const).map((r) => signIn(t.app, f.email(r))))) as [string, string, string, string];
    const v = await makeVendor(t.app, admin, 'Chain Co');
    const policy = await request(t.app, 'PATCH', '/v1/auth/approval_policy/spend_request', {
      token: admin, body: { steps: [
        { condition: null, approvers: { kind: 'manager' } },
        { condition: { vendor_ids: [v], min_amount: { amount: 10_000, currency: 'USD' } }, approvers: { kind: 'user', user_id: f.users.owner } },
      ] },
    });
    expect(policy.status, policy.text).toBe(200);
    const r = await created(employee, po({ vendor_id: v }));
    const first = await approve(manager, r.approval_id!);
    expect(first.status, first.text).toBe(200);
    const waiting = spendRequestSchema.parse((await request(t.app, 'GET', `${REQS}/${r.id}`, { token: employee })).body);
    expect(waiting.status).toBe('PENDING_APPROVAL');
    expect(waiting.approval_id).not.toBe(r.approval_id);
    expect(waiting.change_seq).toBe(first.body.change_seq);
    const done = decisionSchema.parse((await approve(owner, waiting.approval_id!)).body);
    expect(done.spend_request).toMatchObject({ status: 'FULFILLED', approval_id: waiting.approval_id });
    expect(done.purchase_order!.po_number).toBe('PO-000001');
    // Below the step's amount only the manager decides.
    const small = await created(employee, po({ vendor_id: v, amount: { amount: 1_000, currency: 'USD' }, line_items: [{ description: 'Pen', quantity: 1, unit_price: 1_000 }] }));
    expect(decisionSchema.parse((await approve(manager, small.approval_id!)).body).spend_request!.status).toBe('FULFILLED');
  });

  it('§6: for oneself anyone; for others a manager within their team, a bookkeeper for anyone; else 403', async () => {
    const forUser = (role: FixtureRole, target: string) => create(tokens[role], { for_user_id: target });
    const cases: [FixtureRole, FixtureRole, number, string | undefined][] = [
      ['employee', 'teammate', 403, 'PROCUREMENT_7002'],
      ['outsider', 'employee', 403, 'PROCUREMENT_7002'],
      ['admin', 'employee', 403, 'PROCUREMENT_7002'],
      ['manager', 'employee', 201, undefined],
      ['manager', 'teammate', 201, undefined],
      ['manager', 'outsider', 403, 'PROCUREMENT_7002'],
      ['bookkeeper', 'outsider', 201, undefined],
      ['bookkeeper', 'manager', 201, undefined],
    ];
    for (const [who, target, status, code] of cases) {
      const res = await forUser(who, a.users[target]);
      expect([who, target, ...refusal(res)]).toEqual([who, target, status, code]);
      if (status === 201) expect(res.body).toMatchObject({ user_id: a.users[target], requested_by: a.users[who] });
    }
    expect(refusal(await forUser('manager', b.users.employee))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await forUser('employee', b.users.employee))).toEqual([403, 'PROCUREMENT_7002']);

    // Who asked never decides it: the manager asked for the employee, so an admin approves.
    const asked = await created(tokens.manager, { for_user_id: a.users.employee });
    expect(refusal(await approve(tokens.manager, asked.approval_id!))).toEqual([403, 'APPROVAL_7201']);
    const d = decisionSchema.parse((await approve(tokens.admin, asked.approval_id!)).body);
    expect(d.card!.user_id).toBe(a.users.employee);
    // The employee lists it as theirs; the manager lists what they asked for.
    const mine = await request(t.app, 'GET', `${REQS}?page_size=200`, { token: tokens.employee });
    expect(mine.body.data.map((r: SpendRequest) => r.id)).toContain(asked.id);
    const theirs = await request(t.app, 'GET', `${REQS}?page_size=200&status=FULFILLED`, { token: tokens.manager });
    expect(theirs.body.data.map((r: SpendRequest) => r.id)).toContain(asked.id);
    expect(theirs.body.data.every((r: SpendRequest) => r.status === 'FULFILLED')).toBe(true);
  });

  it('each type is switched by its flag (PROCUREMENT_7001)', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const employee = await signIn(t.app, f.email('employee'));
    const flags = (overrides: Record<string, boolean>) => t.db.query(
      `INSERT INTO business_feature_flags (business_id, overrides) VALUES ($1, $2::jsonb)
       ON CONFLICT (business_id) DO UPDATE SET overrides = EXCLUDED.overrides`, [f.businessId, JSON.stringify(overrides)],
    );
    await flags({ general_expenses_spend_requests_enabled: false, physical_card_spend_requests_enabled: false, product_or_service_spend_requests_enabled: false });
    expect(refusal(await create(employee))).toEqual([422, 'PROCUREMENT_7001']);
    expect(refusal(await create(employee, { type: 'PHYSICAL_CARD' }))).toEqual([422, 'PROCUREMENT_7001']);
    expect(refusal(await create(employee, po({ vendor_id: await makeVendor(t.app, await signIn(t.app, f.email('admin')), 'V') })))).toEqual([422, 'PROCUREMENT_7001']);
    await flags({ physical_card_spend_requests_enabled: false });
    const draft = await created(employee, { submit: false });
    await flags({ general_expenses_spend_requests_enabled: false });
    expect(refusal(await request(t.app, 'PATCH', `${REQS}/${draft.id}`, { token: employee, body: { submit: true } }))).toEqual([422, 'PROCUREMENT_7001']);
    expect(await count('SELECT count(*) AS n FROM spend_requests WHERE business_id = $1', [f.businessId])).toBe(1);
  });

  it('refuses bad input by field, and writes nothing', async () => {
    const before = await count('SELECT count(*) AS n FROM spend_requests WHERE business_id = $1', [a.businessId]);
    const field = async (over: Record<string, unknown>) => {
      const res = await create(tokens.employee, over);
      return [res.status, res.body.error_v2?.error_code, Object.keys(res.body.error_v2?.errors ?? {})];
    };
    expect(await field({ amount: { amount: -5, currency: 'USD' } })).toEqual([422, 'REQUEST_7001', ['amount.amount']]);
    expect(await field({ amount: { amount: 10.5, currency: 'USD' } })).toEqual([422, 'REQUEST_7001', ['amount.amount']]);
    expect(await field({ amount: { amount: 0, currency: 'USD' } })).toEqual([422, 'REQUEST_7001', ['amount.amount']]);
    expect(await field({ amount: { amount: 5, currency: 'XXY' } })).toEqual([422, 'REQUEST_7001', ['amount.currency']]);
    expect(await field({ colour: 'red' })).toEqual([422, 'REQUEST_7001', ['colour']]);
    expect(await field(po({ line_items: [{ description: 'x', quantity: 1, unit_price: 1, sku: 'A' }] }))).toEqual([422, 'REQUEST_7001', ['line_items.0.sku']]);
    expect(await field(po({ amount: { amount: 11_499, currency: 'USD' } }))).toEqual([422, 'REQUEST_7001', ['amount']]);
    expect(await field(po({ line_items: [{ description: 'x', quantity: 1.5, unit_price: 1 }] }))).toEqual([422, 'REQUEST_7001', ['line_items.0.quantity']]);
    expect(await field(po({ vendor_id: undefined }))).toEqual([422, 'REQUEST_7001', ['vendor_id']]);
    expect(await field(po({ vendor_id: randomUUID() }))).toEqual([422, 'PROCUREMENT_7004', ['vendor_id']]);
    expect(await field(po({ vendor_id: bVendor }))).toEqual([422, 'PROCUREMENT_7004', ['vendor_id']]);
    expect(await field({ line_items: [{ description: 'x', quantity: 1, unit_price: 50_000 }] })).toEqual([422, 'REQUEST_7001', ['line_items']]);
    expect(await field({ needed_by: '2026-11-29' })).toEqual([422, 'REQUEST_7001', ['needed_by']]);
    expect(await field({ type: 'PHYSICAL_CARD', spend_allocation_id: randomUUID() })).toEqual([422, 'REQUEST_7001', ['spend_allocation_id']]);
    expect(await field({ spend_allocation_id: randomUUID() })).toEqual([404, 'REQUEST_7004', []]);
    const draft = await created(tokens.employee, { submit: false });
    const patched = await request(t.app, 'PATCH', `${REQS}/${draft.id}`, { token: tokens.employee, body: { type: 'PHYSICAL_CARD' } });
    expect(refusal(patched)).toEqual([422, 'REQUEST_7001']);
    expect(await count('SELECT count(*) AS n FROM spend_requests WHERE business_id = $1', [a.businessId])).toBe(before + 1);
  });

  it('documents: uploaded until decided, read by who may read the request, deleted off it', async () => {
    const r = await created(tokens.employee, { submit: false });
    const docs = `${REQS}/${r.id}/documents`;
    const up = await request(t.app, 'POST', docs, { token: tokens.employee, rawBody: PDF, headers: { 'content-type': 'application/pdf' } });
    expect(up.status, up.text).toBe(201);
    const got = await request(t.app, 'GET', `${REQS}/${r.id}`, { token: tokens.manager });
    expect(got.body.document_ids).toEqual([up.body.id]);
    const file = await request(t.app, 'GET', `${docs}/${up.body.id}`, { token: tokens.manager });
    expect([file.status, file.text, file.headers.get('content-type')]).toEqual([200, PDF, 'application/pdf']);
    expect(file.headers.get('content-disposition')).toContain('attachment');
    expect(refusal(await request(t.app, 'GET', `${docs}/${up.body.id}`, { token: tokens.outsider }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'POST', docs, { token: tokens.employee, rawBody: '<html><script>x</script>', headers: { 'content-type': 'application/pdf' } })))
      .toEqual([422, 'UPLOAD_7105']);
    // The manager may read, not change, it.
    expect(refusal(await request(t.app, 'DELETE', `${docs}/${up.body.id}`, { token: tokens.manager }))).toEqual([403, 'FORBIDDEN_7003']);
    const removed = await request(t.app, 'DELETE', `${docs}/${up.body.id}`, { token: tokens.employee });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.document_ids).toEqual([]);
    expect(refusal(await request(t.app, 'GET', `${docs}/${up.body.id}`, { token: tokens.employee }))).toEqual([404, 'REQUEST_7004']);
  });

  it('another business\'s request, budget or document is 404 on every route', async () => {
    const r = await created(tokens.employee);
    const up = await request(t.app, 'POST', `${REQS}/${r.id}/documents`, { token: tokens.employee, rawBody: PDF, headers: { 'content-type': 'application/pdf' } });
    const budget = await allocation(a, { members: [a.users.employee] });
    const pdf = { rawBody: PDF, headers: { 'content-type': 'application/pdf' } };
    const attempts = [
      request(t.app, 'GET', `${REQS}/${r.id}`, { token: bOwner }),
      request(t.app, 'PATCH', `${REQS}/${r.id}`, { token: bOwner, body: { description: 'Mine now' } }),
      request(t.app, 'POST', `${REQS}/${r.id}/cancel`, { token: bOwner }),
      request(t.app, 'DELETE', REQS, { token: bOwner, body: { spend_request_uuid: r.id } }),
      request(t.app, 'POST', `${REQS}/${r.id}/documents`, { token: bOwner, ...pdf }),
      request(t.app, 'GET', `${REQS}/${r.id}/documents/${up.body.id}`, { token: bOwner }),
      request(t.app, 'DELETE', `${REQS}/${r.id}/documents/${up.body.id}`, { token: bOwner }),
      request(t.app, 'PUT', `/v1/auth/spend-allocation/${budget}/requests`, { token: bOwner, body: { amount: 5, description: 'x' } }),
      create(bOwner, { spend_allocation_id: budget }),
      request(t.app, 'POST', `${APPROVALS}/${r.approval_id}/approve`, { token: bOwner }),
    ];
    for (const res of await Promise.all(attempts)) expect(refusal(res)).toEqual([404, 'REQUEST_7004']);
    const list = await request(t.app, 'GET', `${REQS}?user_id=${a.users.employee}`, { token: bOwner });
    expect(list.body.data).toEqual([]);
    expect(refusal(await create(bOwner, po({ vendor_id: vendor })))).toEqual([422, 'PROCUREMENT_7004']);
    const still = spendRequestSchema.parse((await request(t.app, 'GET', `${REQS}/${r.id}`, { token: tokens.employee })).body);
    expect(still).toMatchObject({ status: 'PENDING_APPROVAL', description: 'Team offsite', document_ids: [up.body.id] });
  });
});
