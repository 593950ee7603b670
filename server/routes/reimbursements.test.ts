import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { syncChanges } from '../../schema/api/calls.ts';
import { listReimbursements } from '../../schema/api/calls-reimbursements.ts';
import { reimbursementSchema, type Reimbursement, type ReimbursementStatus } from '../../schema/entities/reimbursement.ts';
import type { Change } from '../../schema/sync-feed.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn, type Fixture, type FixtureRole } from '../test-fixtures.ts';

const BASE = '/v1/auth/reimbursements';
const oop = (over: Record<string, unknown> = {}) => ({ merchant: 'Blue Bottle', amount: 1250, currency: 'USD', transaction_date: '2026-03-01', ...over });
const mileage = (over: Record<string, unknown> = {}) => ({ distance_miles: 100, start_location: 'Office', end_location: 'Client', trip_date: '2026-03-01', ...over });
const perDiem = (over: Record<string, unknown> = {}) => ({ location: 'Chicago', start_date: '2026-03-01', end_date: '2026-03-03', ...over });

async function pullReimbursements(app: Hono, token: string): Promise<Change[]> {
  const changes: Change[] = [];
  let after = 0;
  for (;;) {
    const res = await request(app, 'GET', `/v1/auth/sync/changes?after=${after}&limit=500`, { token });
    expect(res.status).toBe(200);
    const page = syncChanges.response.parse(res.body);
    changes.push(...page.changes.filter((c) => c.collection === 'reimbursements'));
    after = page.checkpoint;
    if (!page.has_more) return changes;
  }
}

describe.each(await testDatabases())('reimbursements on %s', (kind) => {
  const t = useTestApp(kind);
  let a: Fixture;
  let b: Fixture;
  const tokens = {} as Record<FixtureRole, string>;
  let bOwner: string;

  const count = async (businessId: string) =>
    Number((await t.db.query<{ n: number }>('SELECT count(*) AS n FROM reimbursements WHERE business_id = $1', [businessId]))[0]!.n);
  const create = async (path: string, body: unknown, role: FixtureRole = 'employee') => {
    const res = await request<Reimbursement>(t.app, 'POST', `${BASE}/${path}`, { token: tokens[role], body });
    expect(res.status, res.text).toBe(200);
    return reimbursementSchema.parse(res.body);
  };
  // A shortcut past review: the claim's open approval (if any) is closed with it.
  const setStatus = async (id: string, status: ReimbursementStatus) => {
    await t.db.query(`UPDATE approvals SET status = 'CANCELED' WHERE object_id = $1 AND status = 'PENDING'`, [id]);
    await t.db.query('UPDATE reimbursements SET status = $2, rejection_reason = $3 WHERE id = $1', [id, status, status === 'REJECTED' ? 'No receipt' : null]);
  };

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    b = await makeBusiness(t.db, { transactions: 0 });
    for (const role of ['employee', 'manager', 'teammate', 'outsider', 'admin', 'auditor'] as const) tokens[role] = await signIn(t.app, a.email(role));
    bOwner = await signIn(t.app, b.email('owner'));
  });

  it('creates an out-of-pocket claim, submitted by default, in the entity shape', async () => {
    const r = await create('out_of_pocket', oop({ memo: 'Client coffee', gl_account_id: a.glAccounts.active[0], department_id: a.departments[1] }));
    expect(r).toMatchObject({
      type: 'OUT_OF_POCKET', status: 'SUBMITTED', user_id: a.users.employee, business_id: a.businessId, amount: 1250, currency: 'USD',
      transaction_date: '2026-03-01', merchant: 'Blue Bottle', memo: 'Client coffee', distance_miles: null, start_date: null, deleted: false,
    });
    expect(r.submitted_at).not.toBeNull();
    const got = await request(t.app, 'GET', `${BASE}/${r.id}`, { token: tokens.employee });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(r);
  });

  it('computes mileage at the IRS rate of the trip year: 72.5 ¢ in 2026, 70 ¢ in 2025', async () => {
    expect((await create('mileage', mileage())).amount).toBe(7250);
    expect((await create('mileage', mileage({ trip_date: '2025-07-01' }))).amount).toBe(7000);
    const r = await create('mileage', mileage({ distance_miles: 12.3 }));
    expect(r).toMatchObject({ type: 'MILEAGE', amount: 892, currency: 'USD', distance_miles: 12.3, transaction_date: '2026-03-01', trip_date: '2026-03-01' });
  });

  it('computes per diem with 75 % first and last days: 3 days 170 USD, 1 day 51 USD', async () => {
    expect(await create('per-diem', perDiem())).toMatchObject({ type: 'PER_DIEM', amount: 17000, currency: 'USD', transaction_date: '2026-03-01' });
    expect((await create('per-diem', perDiem({ end_date: '2026-03-01' }))).amount).toBe(5100);
  });

  it('refuses bad input with 422 naming the field, and writes nothing', async () => {
    const cases: [string, unknown, string][] = [
      ['out_of_pocket', oop({ amount: -100 }), 'amount'],
      ['out_of_pocket', oop({ amount: 0 }), 'amount'],
      ['out_of_pocket', oop({ amount: 12.5 }), 'amount'],
      ['out_of_pocket', oop({ currency: 'XYZ' }), 'currency'],
      ['out_of_pocket', oop({ currency: 'usd' }), 'currency'],
      ['out_of_pocket', oop({ transaction_date: '2099-01-01' }), 'transaction_date'],
      ['out_of_pocket', oop({ gl_account_id: b.glAccounts.active[0] }), 'gl_account_id'],
      ['per-diem', perDiem({ start_date: '2026-03-05', end_date: '2026-03-01' }), 'end_date'],
      ['mileage', mileage({ distance_miles: 0 }), 'distance_miles'],
      ['mileage', mileage({ distance_miles: 2001 }), 'distance_miles'],
      ['mileage', mileage({ trip_date: '2024-05-01' }), 'trip_date'],
      ['mileage', mileage({ trip_date: '2099-01-01' }), 'trip_date'],
    ];
    const before = await count(a.businessId);
    for (const [path, body, field] of cases) {
      const res = await request(t.app, 'POST', `${BASE}/${path}`, { token: tokens.employee, body });
      expect(res.status, `${path} ${JSON.stringify(body)}: ${res.text}`).toBe(422);
      expect(res.body.error_v2.errors, `${path} ${JSON.stringify(body)}`).toHaveProperty(field);
    }
    expect(await count(a.businessId)).toBe(before);
  });

  it('walks the status machine: edit a draft, submit, refuse what the current status forbids, resubmit after rejection', async () => {
    const draft = await create('out_of_pocket', oop({ submit: false }));
    expect(draft).toMatchObject({ status: 'DRAFT', submitted_at: null });
    const path = `${BASE}/${draft.id}`;
    const edited = await request(t.app, 'PATCH', path, { token: tokens.employee, body: { amount: 2000, memo: 'Lunch' } });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({ amount: 2000, memo: 'Lunch', status: 'DRAFT' });
    expect(edited.body.change_seq).toBeGreaterThan(draft.change_seq);
    // A field of another claim type is refused.
    const foreign = await request(t.app, 'PATCH', path, { token: tokens.employee, body: { distance_miles: 5 } });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error_v2.errors).toHaveProperty('distance_miles');

    const submitted = await request(t.app, 'PATCH', `${path}/submit`, { token: tokens.employee });
    expect(submitted.status, submitted.text).toBe(200);
    expect(submitted.body).toMatchObject({ status: 'SUBMITTED' });
    expect(submitted.body.submitted_at).not.toBeNull();

    for (const [method, suffix, body] of [['PATCH', '/submit', undefined], ['PATCH', '', { memo: 'x' }], ['DELETE', '', undefined]] as const) {
      const res = await request(t.app, method, `${path}${suffix}`, { token: tokens.employee, body });
      expect(res.status, `${method} ${suffix}`).toBe(422);
      expect(res.body.error_v2.message).toContain('SUBMITTED');
    }

    await setStatus(draft.id, 'REJECTED');
    const fixed = await request(t.app, 'PATCH', path, { token: tokens.employee, body: { memo: 'With receipt' } });
    expect(fixed.body).toMatchObject({ status: 'REJECTED', memo: 'With receipt', rejection_reason: 'No receipt' });
    const resubmitted = await request(t.app, 'PATCH', `${path}/submit`, { token: tokens.employee });
    expect(resubmitted.body).toMatchObject({ status: 'SUBMITTED', rejection_reason: null });

    for (const status of ['APPROVED', 'PAID', 'CANCELED'] as const) {
      await setStatus(draft.id, status);
      for (const [method, suffix, body] of [['PATCH', '/submit', undefined], ['PATCH', '', { memo: 'x' }], ['DELETE', '', undefined]] as const) {
        const res = await request(t.app, method, `${path}${suffix}`, { token: tokens.employee, body });
        expect(res.status, `${status}: ${method} ${suffix}`).toBe(422);
        expect(res.body.error_v2.message).toContain(status);
      }
    }
  });

  it('refuses changing what a sync commit exported of a claim (409 ACCOUNTING_7301, nothing changed) until it is marked not synced', async () => {
    const message = 'This reimbursement was exported to your accounting system on 2026-03-04. Mark it as not synced to change its amount, date or coding.';
    const synced = async (status: ReimbursementStatus) => {
      const claim = await create('out_of_pocket', oop({ gl_account_id: a.glAccounts.active[0] }));
      await setStatus(claim.id, status);
      await t.db.query(`UPDATE reimbursements SET accounting_synced_at = '2026-03-04T08:00:00Z' WHERE id = $1`, [claim.id]);
      return claim.id;
    };
    const read = async (id: string) => reimbursementSchema.parse((await request(t.app, 'GET', `${BASE}/${id}`, { token: tokens.admin })).body);
    // An approved claim (what a commit takes) is refused in the lock's words, before its status's.
    const approved = await synced('APPROVED');
    const refused = await request(t.app, 'PATCH', `${BASE}/${approved}`, { token: tokens.employee, body: { gl_account_id: a.glAccounts.active[1] } });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.error_v2).toEqual({ error_code: 'ACCOUNTING_7301', message });

    // A claim its status lets edit (rejected here) shows the lock alone: coding and amount refused, memo and receipts not.
    const id = await synced('REJECTED');
    const before = await read(id);
    for (const patch of [{ amount: 999 }, { gl_account_id: a.glAccounts.active[1] }, { department_id: a.departments[0] },
      { transaction_date: '2026-02-27' }, { merchant: 'Other' }, { memo: 'and the amount', amount: 999 }]) {
      const res = await request(t.app, 'PATCH', `${BASE}/${id}`, { token: tokens.employee, body: patch });
      expect(res.status, `${JSON.stringify(patch)}: ${res.text}`).toBe(409);
      expect(res.body.error_v2).toEqual({ error_code: 'ACCOUNTING_7301', message });
    }
    const bulk = await request(t.app, 'POST', `${BASE}/bulk-update`, { token: tokens.employee, body: { reimbursement_ids: [id], patch: { gl_account_id: a.glAccounts.active[1] } } });
    expect(bulk.status, bulk.text).toBe(200);
    expect(bulk.body.results).toEqual([{ id, ok: false, error_v2: { error_code: 'ACCOUNTING_7301', message } }]);
    expect(await read(id)).toEqual(before);
    const memo = await request(t.app, 'PATCH', `${BASE}/${id}`, { token: tokens.employee, body: { memo: 'Team dinner' } });
    expect(memo.status, memo.text).toBe(200);
    expect(memo.body).toMatchObject({ memo: 'Team dinner', amount: before.amount, accounting_synced_at: '2026-03-04T08:00:00.000Z' });

    const unsync = await request(t.app, 'POST', '/v1/auth/accounting/mark-not-synced', { token: tokens.admin, body: { items: [{ type: 'reimbursement', id }] } });
    expect(unsync.status, unsync.text).toBe(200);
    const recoded = await request(t.app, 'PATCH', `${BASE}/${id}`, { token: tokens.employee, body: { amount: 999, gl_account_id: a.glAccounts.active[1] } });
    expect(recoded.status, recoded.text).toBe(200);
    expect(recoded.body).toMatchObject({ amount: 999, gl_account_id: a.glAccounts.active[1], accounting_synced_at: null });
  });

  it('deletes drafts only, as a tombstone the feed carries', async () => {
    const draft = await create('per-diem', perDiem({ submit: false }));
    const del = await request(t.app, 'DELETE', `${BASE}/${draft.id}`, { token: tokens.employee });
    expect(del.status, del.text).toBe(200);
    expect(del.body).toMatchObject({ id: draft.id, deleted: true });
    expect((await request(t.app, 'GET', `${BASE}/${draft.id}`, { token: tokens.employee })).status).toBe(404);
    const tomb = (await pullReimbursements(t.app, tokens.employee)).filter((c) => c.id === draft.id).at(-1);
    expect(tomb).toMatchObject({ deleted: true, seq: del.body.change_seq });
  });

  it('repeats a create sent with the same client id as the same claim (offline outbox)', async () => {
    const id = randomUUID();
    const first = await create('out_of_pocket', oop({ id }));
    const again = await create('out_of_pocket', oop({ id }));
    expect(again).toEqual(first);
    expect(Number((await t.db.query<{ n: number }>('SELECT count(*) AS n FROM reimbursements WHERE id = $1', [id]))[0]!.n)).toBe(1);
    // Someone else (or another type) with that id is refused.
    const other = await request(t.app, 'POST', `${BASE}/out_of_pocket`, { token: tokens.teammate, body: oop({ id }) });
    expect(other.status).toBe(422);
    expect(other.body.error_v2.errors).toHaveProperty('id');
  });

  it('shows claims by the owner rule: own, a manager their reports, business-wide roles all; others 404', async () => {
    const r = await create('out_of_pocket', oop());
    const status = async (role: FixtureRole) => (await request(t.app, 'GET', `${BASE}/${r.id}`, { token: tokens[role] })).status;
    expect(await status('employee')).toBe(200);
    expect(await status('manager')).toBe(200);
    expect(await status('admin')).toBe(200);
    expect(await status('auditor')).toBe(200);
    expect(await status('teammate')).toBe(404);
    expect(await status('outsider')).toBe(404);
    // A manager may see a report's claim but not edit or submit it.
    const edit = await request(t.app, 'PATCH', `${BASE}/${r.id}/submit`, { token: tokens.manager });
    expect(edit.status).toBe(403);
    // Another business: 404 on every call, nothing changes.
    const before = await t.db.query('SELECT * FROM reimbursements WHERE id = $1', [r.id]);
    for (const [method, suffix, body] of [['GET', '', undefined], ['PATCH', '', { memo: 'x' }], ['PATCH', '/submit', undefined], ['DELETE', '', undefined]] as const) {
      const res = await request(t.app, method, `${BASE}/${r.id}${suffix}`, { token: bOwner, body });
      expect(res.status, `${method} ${suffix}`).toBe(404);
    }
    expect(await t.db.query('SELECT * FROM reimbursements WHERE id = $1', [r.id])).toEqual(before);
  });

  it('lists visible claims newest first with §7 paging and filters', async () => {
    const mine = await create('out_of_pocket', oop({ merchant: 'Zebra Paging Cafe', transaction_date: '2026-01-15' }), 'outsider');
    await create('mileage', mileage({ trip_date: '2026-02-01' }), 'outsider');
    await create('per-diem', perDiem({ submit: false }), 'outsider');
    const all: Reimbursement[] = [];
    let start: string | null = null;
    do {
      const qs: string = `page_size=2&include_count=true${start ? `&start=${start}` : ''}`;
      const res = await request(t.app, 'GET', `${BASE}?${qs}`, { token: tokens.outsider });
      expect(res.status, res.text).toBe(200);
      const page = listReimbursements.response.parse(res.body);
      expect(page.total_count).toBe(3);
      all.push(...page.data);
      start = page.page.next;
    } while (start);
    expect(all.map((r) => r.transaction_date)).toEqual(['2026-03-01', '2026-02-01', '2026-01-15']);
    const drafts = await request(t.app, 'GET', `${BASE}?statuses=DRAFT&types=PER_DIEM`, { token: tokens.outsider });
    expect(drafts.body.data.map((r: Reimbursement) => r.type)).toEqual(['PER_DIEM']);
    const text = await request(t.app, 'GET', `${BASE}?q=zebra`, { token: tokens.outsider });
    expect(text.body.data.map((r: Reimbursement) => r.id)).toEqual([mine.id]);
    // The employee sees none of the outsider's.
    const other = await request(t.app, 'GET', `${BASE}?user_ids=${a.users.outsider}`, { token: tokens.employee });
    expect(other.body.data).toEqual([]);
  });

  it("searches a mileage claim's start and end locations and a per-diem claim's location", async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const token = await signIn(t.app, f.email('employee'));
    const post = async (path: string, body: unknown) => (await request(t.app, 'POST', `${BASE}/${path}`, { token, body })).body.id as string;
    const trip = await post('mileage', mileage({ start_location: 'Brooklyn office', end_location: 'Newark airport' }));
    const stay = await post('per-diem', perDiem({ location: 'San Francisco' }));
    await post('out_of_pocket', oop());
    const ids = async (q: string) => (await request(t.app, 'GET', `${BASE}?q=${encodeURIComponent(q)}`, { token })).body.data.map((r: Reimbursement) => r.id);
    expect(await ids('brooklyn')).toEqual([trip]);
    expect(await ids('newark')).toEqual([trip]);
    expect(await ids('francisco')).toEqual([stay]);
    expect(await ids('san newark')).toEqual([]);
  });

  it('carries claims in the change feed to exactly the users who may see them', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const tk = {} as Record<FixtureRole, string>;
    for (const role of ['employee', 'manager', 'outsider', 'teammate', 'admin'] as const) tk[role] = await signIn(t.app, f.email(role));
    const res = await request(t.app, 'POST', `${BASE}/mileage`, { token: tk.employee, body: mileage() });
    expect(res.status).toBe(200);
    const id = res.body.id as string;
    const ids = async (role: FixtureRole) => (await pullReimbursements(t.app, tk[role])).map((c) => c.id);
    expect(await ids('employee')).toEqual([id]);
    expect(await ids('manager')).toEqual([id]);
    expect(await ids('admin')).toEqual([id]);
    expect(await ids('outsider')).toEqual([]);
    expect(await ids('teammate')).toEqual([]);
    const change = (await pullReimbursements(t.app, tk.manager))[0]!;
    expect(reimbursementSchema.strict().parse(change.doc)).toMatchObject({ id, amount: 7250, status: 'SUBMITTED' });
    expect(change.seq).toBe(res.body.change_seq);
  });
});
