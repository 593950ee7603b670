import { randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { receiptSchema } from '../../schema/api/calls-receipts.ts';
import { reimbursementSchema, type Reimbursement } from '../../schema/entities/reimbursement.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn, type Fixture, type FixtureRole } from '../test-fixtures.ts';

/** Receipts on reimbursement claims (issue 9): create/patch/draft with `receipt_ids`, and who reads them. */
const BASE = '/v1/auth/reimbursements';
const oop = (over: Record<string, unknown> = {}) => ({ merchant: 'Blue Bottle', amount: 1250, currency: 'USD', transaction_date: '2026-03-01', ...over });
const jpeg = () => Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, ...randomBytes(200)]);

describe.each(await testDatabases())('reimbursement receipts on %s', (kind) => {
  const t = useTestApp(kind);
  let a: Fixture;
  let b: Fixture;
  const tokens = {} as Record<FixtureRole | 'other', string>;

  const upload = async (role: FixtureRole | 'other' = 'employee') => {
    const res = await t.app.request('/v1/auth/receipts', {
      method: 'POST', headers: { 'RAMP-ID-TOKEN': tokens[role], 'content-type': 'image/jpeg' }, body: jpeg(),
    });
    expect(res.status).toBe(201);
    return receiptSchema.parse(await res.json()).id;
  };
  const create = async (body: unknown, role: FixtureRole = 'employee') =>
    request<Reimbursement & { error_v2?: { error_code: string } }>(t.app, 'POST', `${BASE}/out_of_pocket`, { token: tokens[role], body });
  const count = async () => Number((await t.db.query<{ n: number }>('SELECT count(*) AS n FROM reimbursements WHERE business_id = $1', [a.businessId]))[0]!.n);

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    b = await makeBusiness(t.db, { transactions: 0 });
    for (const role of ['owner', 'employee', 'manager', 'teammate', 'outsider', 'admin', 'auditor', 'bookkeeper'] as const) {
      tokens[role] = await signIn(t.app, a.email(role));
    }
    tokens.other = await signIn(t.app, b.email('owner'));
  });

  it('creates a claim with its receipts (deduplicated, in order); the doc and the list carry receipt_ids', async () => {
    const [r1, r2] = [await upload(), await upload()];
    const res = await create(oop({ receipt_ids: [r2, r1, r2], submit: false }));
    expect(res.status, res.text).toBe(200);
    const claim = reimbursementSchema.parse(res.body);
    expect(claim.receipt_ids).toEqual([r2, r1]);
    const got = await request(t.app, 'GET', `${BASE}/${claim.id}`, { token: tokens.employee });
    expect(got.body.receipt_ids).toEqual([r2, r1]);
    // A claim without receipts has none.
    expect((await create(oop())).body.receipt_ids).toEqual([]);
  });

  it('refuses unknown, deleted, invisible or another business\'s receipts with 404, writing nothing', async () => {
    const mine = await upload();
    const deleted = await upload();
    expect((await request(t.app, 'DELETE', `/v1/auth/receipts/${deleted}`, { token: tokens.employee })).status).toBe(200);
    for (const bad of [randomUUID(), deleted, await upload('outsider'), await upload('other')]) {
      const before = await count();
      const res = await create(oop({ receipt_ids: [mine, bad] }));
      expect(res.status, res.text).toBe(404);
      expect(res.body.error_v2).toMatchObject({ error_code: 'REQUEST_7004' });
      expect(await count()).toBe(before);
    }
    const tooMany = await create(oop({ receipt_ids: Array.from({ length: 21 }, () => randomUUID()) }));
    expect(tooMany.status).toBe(422);
  });

  it('PATCH replaces the set while the claim is editable; a bad id leaves it unchanged', async () => {
    const [r1, r2] = [await upload(), await upload()];
    const claim = (await create(oop({ receipt_ids: [r1], submit: false }))).body;
    const patched = await request(t.app, 'PATCH', `${BASE}/${claim.id}`, { token: tokens.employee, body: { receipt_ids: [r2] } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.receipt_ids).toEqual([r2]);
    expect(patched.body.change_seq).toBeGreaterThan(claim.change_seq);
    const bad = await request(t.app, 'PATCH', `${BASE}/${claim.id}`, { token: tokens.employee, body: { receipt_ids: [r1, randomUUID()] } });
    expect(bad.status).toBe(404);
    const cleared = await request(t.app, 'PATCH', `${BASE}/${claim.id}`, { token: tokens.employee, body: { receipt_ids: [] } });
    expect(cleared.body.receipt_ids).toEqual([]);
    // The draft save takes them too; leaving them out keeps them.
    const saved = await request(t.app, 'PUT', `${BASE}/${claim.id}/draft`, { token: tokens.employee, body: { type: 'OUT_OF_POCKET', ...oop({ receipt_ids: [r1, r2] }) } });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.receipt_ids).toEqual([r1, r2]);
    const again = await request(t.app, 'PUT', `${BASE}/${claim.id}/draft`, { token: tokens.employee, body: { type: 'OUT_OF_POCKET', ...oop() } });
    expect(again.body.receipt_ids).toEqual([r1, r2]);
    // Submitted: no longer editable.
    expect((await request(t.app, 'PATCH', `${BASE}/${claim.id}/submit`, { token: tokens.employee })).status).toBe(200);
    const late = await request(t.app, 'PATCH', `${BASE}/${claim.id}`, { token: tokens.employee, body: { receipt_ids: [] } });
    expect(late.status).toBe(422);
  });

  it('deleting a receipt takes it off its claims with a new change seq', async () => {
    const r = await upload();
    const claim = (await create(oop({ receipt_ids: [r] }))).body;
    expect((await request(t.app, 'DELETE', `/v1/auth/receipts/${r}`, { token: tokens.employee })).status).toBe(200);
    const got = await request(t.app, 'GET', `${BASE}/${claim.id}`, { token: tokens.employee });
    expect(got.body.receipt_ids).toEqual([]);
    expect(got.body.change_seq).toBeGreaterThan(claim.change_seq);
  });

  it('a receipt on a claim is read by the claimant, their manager (the approver) and business-wide roles', async () => {
    // Uploaded by someone the manager cannot see; on the employee's claim (set directly: the
    // employee could not attach it), so only the claim lets the manager read it.
    const r = await upload('outsider');
    const claim = (await create(oop())).body;
    const read = async (role: FixtureRole | 'other') => (await request(t.app, 'GET', `/v1/auth/receipts/${r}`, { token: tokens[role] })).status;
    expect(await read('manager')).toBe(404);
    await t.db.query('UPDATE reimbursements SET receipt_ids = ARRAY[$2::uuid] WHERE id = $1', [claim.id, r]);
    const expected: Record<FixtureRole | 'other', number> = {
      outsider: 200, employee: 200, manager: 200, admin: 200, auditor: 200, bookkeeper: 200, owner: 200, teammate: 404, other: 404,
    };
    for (const role of Object.keys(expected) as (FixtureRole | 'other')[]) {
      for (const path of [`/v1/auth/receipts/${r}`, `/v1/auth/receipts/${r}/metadata`]) {
        const res = await request(t.app, 'GET', path, { token: tokens[role] });
        expect(res.status, `${role} ${path}`).toBe(expected[role]);
      }
    }
    // A deleted claim no longer opens it.
    await t.db.query('UPDATE reimbursements SET deleted = true WHERE id = $1', [claim.id]);
    expect(await read('manager')).toBe(404);
  });
});
