import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { searchTransactions } from '../../schema/api/calls.ts';
import { transactionSchema, type Transaction } from '../../schema/entities/transaction.ts';
import { compareTransactions, TRANSACTION_SORTS } from '../../schema/transaction-query.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn, type Fixture, type FixtureRole } from '../test-fixtures.ts';
import type { Hono } from 'hono';

const pageSchema = searchTransactions.response;

async function listAll(app: Hono, token: string, pageSize = 17, query = ''): Promise<Transaction[]> {
  const out: Transaction[] = [];
  let start: string | null = null;
  do {
    const qs: string = `page_size=${pageSize}${start ? `&start=${start}` : ''}${query}`;
    const res = await request(app, 'GET', `/v1/auth/transactions?${qs}`, { token });
    expect(res.status).toBe(200);
    const page = pageSchema.parse(res.body);
    out.push(...(page.data as Transaction[]));
    start = page.page.next;
  } while (start);
  return out;
}

async function searchAll(app: Hono, token: string, body: Record<string, unknown>, pageSize = 13): Promise<Transaction[]> {
  const out: Transaction[] = [];
  let start: string | undefined;
  for (;;) {
    const res = await request(app, 'POST', '/v1/auth/transactions/search', { token, body: { ...body, paging: { page_size: pageSize, start } } });
    expect(res.status).toBe(200);
    const page = pageSchema.parse(res.body);
    out.push(...(page.data as Transaction[]));
    if (!page.page.next) return out;
    start = page.page.next;
  }
}

const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();
const visibleTo = (f: Fixture, roles: FixtureRole[]) => roles.flatMap((r) => f.transactions[r]).sort();

describe.each(await testDatabases())('transactions on %s', (kind) => {
  const t = useTestApp(kind);

  it('lists newest first with keyset pages that cover every row once, with counts', async () => {
    const f = await makeBusiness(t.db, { transactions: 80 });
    const token = await signIn(t.app, f.email('admin'));
    const rows = await listAll(t.app, token);
    expect(ids(rows)).toEqual([...f.allTransactions].sort());
    expect(rows).toEqual([...rows].sort(compareTransactions('occurred_desc')));
    const counted = await request(t.app, 'GET', '/v1/auth/transactions?page_size=5&include_count=true', { token });
    expect(counted.body.total_count).toBe(80);
    const countOnly = await request(t.app, 'GET', '/v1/auth/transactions?page_size=0', { token });
    expect(countOnly.body).toEqual({ data: [], page: { next: null }, total_count: 80 });
    const filtered = await listAll(t.app, token, 50, `&user_ids=${f.users.employee}&amount_min=2000&from=2026-01-02`);
    expect(filtered.length).toBeGreaterThan(0);
    for (const r of filtered) {
      expect(r.user_id).toBe(f.users.employee);
      expect(r.amount).toBeGreaterThanOrEqual(2000);
      expect(r.occurred_at >= '2026-01-02').toBe(true);
    }
  });

  it.each(TRANSACTION_SORTS)('searches in %s order, paging through every match', async (sort) => {
    const f = await makeBusiness(t.db, { transactions: 60 });
    const token = await signIn(t.app, f.email('admin'));
    const rows = await searchAll(t.app, token, { sort, include_count: true });
    expect(ids(rows)).toEqual([...f.allTransactions].sort());
    expect(rows.map((r) => r.id)).toEqual([...rows].sort(compareTransactions(sort)).map((r) => r.id));
  });

  it('matches every query term (AND) across merchant, memo, cardholder and coding names', async () => {
    const f = await makeBusiness(t.db, { transactions: 60 });
    const token = await signIn(t.app, f.email('admin'));
    const target = f.transactions.employee[0]!;
    const [category] = f.tracking;
    const patched = await request(t.app, 'PATCH', `/v1/auth/transactions/${target}`, {
      token,
      body: { memo: 'Quarterly zeppelin rental', gl_account_id: f.glAccounts.active[1], location_id: f.locations[1], tracking: { [category!.categoryId]: category!.options[1] } },
    });
    expect(patched.status).toBe(200);
    const search = async (q: string) => ids(await searchAll(t.app, token, { filters: { q } }));
    expect(await search('ZEPPELIN')).toEqual([target]);
    expect(await search('zeppelin software berlin apollo employee')).toEqual([target]);
    expect(await search('zeppelin outsider')).toEqual([]);
    expect(await search('6100')).toEqual([target]);
    const uber = await searchAll(t.app, token, { filters: { q: 'uber employee' }, include_count: true });
    expect(uber.length).toBeGreaterThan(0);
    for (const r of uber) expect([r.merchant_name, r.user_id]).toEqual(['Uber', f.users.employee]);
    expect(await search('zeppelin%')).toEqual([target]);
    // A report's click-through filters (issue 12): GL account, and one merchant exactly.
    expect(ids(await searchAll(t.app, token, { filters: { gl_account_ids: [f.glAccounts.active[1]] } }))).toEqual([target]);
    const all = await searchAll(t.app, token, {});
    const ubers = await searchAll(t.app, token, { filters: { merchant: 'Uber' } });
    expect(ids(ubers)).toEqual(ids(all.filter((r) => r.merchant_name === 'Uber')));
    expect(ubers.length).toBeGreaterThan(0);
    expect(await searchAll(t.app, token, { filters: { merchant: 'uber' } })).toEqual([]);
  });

  it.each([
    ['admin', ['manager', 'employee', 'teammate', 'outsider', 'admin']],
    ['bookkeeper', ['manager', 'employee', 'teammate', 'outsider', 'admin']],
    ['auditor', ['manager', 'employee', 'teammate', 'outsider', 'admin']],
    ['manager', ['manager', 'employee', 'teammate']],
    ['employee', ['employee']],
  ] as [FixtureRole, FixtureRole[]][])('shows %s exactly the transactions the role may see', async (role, holders) => {
    const f = await makeBusiness(t.db, { transactions: 50 });
    const token = await signIn(t.app, f.email(role));
    expect(ids(await listAll(t.app, token))).toEqual(visibleTo(f, holders));
    expect(ids(await searchAll(t.app, token, {}))).toEqual(visibleTo(f, holders));
    const hidden = f.transactions.outsider[0]!;
    const get = await request(t.app, 'GET', `/v1/auth/transactions/${hidden}`, { token });
    expect(get.status).toBe(holders.includes('outsider') ? 200 : 404);
  });

  it('patches memo and coding through the shared command, with a new change seq', async () => {
    const f = await makeBusiness(t.db, { transactions: 10 });
    const token = await signIn(t.app, f.email('bookkeeper'));
    const id = f.allTransactions[3]!;
    const [category] = f.tracking;
    const before = transactionSchema.parse((await request(t.app, 'GET', `/v1/auth/transactions/${id}`, { token })).body);
    const res = await request(t.app, 'PATCH', `/v1/auth/transactions/${id}`, {
      token, body: { memo: '', gl_account_id: f.glAccounts.active[0], tracking: { [category!.categoryId]: category!.options[0] } },
    });
    expect(res.status).toBe(200);
    const after = transactionSchema.parse(res.body);
    expect(after).toMatchObject({ memo: null, gl_account_id: f.glAccounts.active[0], department_id: before.department_id, tracking: { [category!.categoryId]: category!.options[0] } });
    expect(after.change_seq).toBeGreaterThan(before.change_seq);
    const cleared = await request(t.app, 'PATCH', `/v1/auth/transactions/${id}`, { token, body: { tracking: { [category!.categoryId]: null } } });
    expect(cleared.body.tracking).toEqual({});
  });

  it.each([
    ['a GL account of another business', (f: Fixture, o: Fixture) => ({ gl_account_id: o.glAccounts.active[0] }), 'gl_account_id'],
    ['an inactive GL account', (f: Fixture) => ({ gl_account_id: f.glAccounts.inactive }), 'gl_account_id'],
    ['a department of another business', (f: Fixture, o: Fixture) => ({ department_id: o.departments[0] }), 'department_id'],
    ['a location of another business', (f: Fixture, o: Fixture) => ({ location_id: o.locations[0] }), 'location_id'],
    ['an option of another category', (f: Fixture, o: Fixture) => ({ tracking: { [f.tracking[0]!.categoryId]: o.tracking[0]!.options[0] } }), 'tracking.'],
    ['an unknown tracking category', (f: Fixture, o: Fixture) => ({ tracking: { [o.tracking[0]!.categoryId]: o.tracking[0]!.options[0] } }), 'tracking.'],
  ])('refuses %s with a clear 422 and changes nothing', async (_name, patch, field) => {
    const f = await makeBusiness(t.db, { transactions: 5 });
    const other = await makeBusiness(t.db, { transactions: 0 });
    const token = await signIn(t.app, f.email('admin'));
    const id = f.allTransactions[0]!;
    const before = (await request(t.app, 'GET', `/v1/auth/transactions/${id}`, { token })).body;
    const res = await request(t.app, 'PATCH', `/v1/auth/transactions/${id}`, { token, body: patch(f, other) });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.error_v2.errors).join()).toContain(field);
    expect((await request(t.app, 'GET', `/v1/auth/transactions/${id}`, { token })).body).toEqual(before);
  });

  it('lets an auditor read but not code (403 FORBIDDEN_7003)', async () => {
    const f = await makeBusiness(t.db, { transactions: 5 });
    const token = await signIn(t.app, f.email('auditor'));
    const res = await request(t.app, 'PATCH', `/v1/auth/transactions/${f.allTransactions[0]}`, { token, body: { memo: 'x' } });
    expect(res).toMatchObject({ status: 403, body: { error_v2: { error_code: 'FORBIDDEN_7003' } } });
    const bulk = await request(t.app, 'PATCH', '/v1/auth/accounting/coding/bulk-update', { token, body: { transaction_ids: [f.allTransactions[0]], patch: { memo: 'x' } } });
    expect(bulk.status).toBe(403);
  });

  it('bulk-codes atomically: every row with its own seq, or none at all', async () => {
    const f = await makeBusiness(t.db, { transactions: 40 });
    const token = await signIn(t.app, f.email('admin'));
    const seqBefore = await businessSeq(f.businessId);
    const patch = { gl_account_id: f.glAccounts.active[1], memo: 'Conference' };
    const res = await request(t.app, 'PATCH', '/v1/auth/accounting/coding/bulk-update', { token, body: { transaction_ids: f.allTransactions, patch } });
    expect(res.body).toEqual({ updated: 40, change_seq: seqBefore + 40 });
    const rows = await listAll(t.app, token, 100);
    expect(rows.every((r) => r.gl_account_id === f.glAccounts.active[1] && r.memo === 'Conference')).toBe(true);
    expect(new Set(rows.map((r) => r.change_seq)).size).toBe(40);

    const other = await makeBusiness(t.db, { transactions: 1 });
    const mixed = [...f.allTransactions.slice(0, 10), other.allTransactions[0]!];
    const refused = await request(t.app, 'PATCH', '/v1/auth/accounting/coding/bulk-update', { token, body: { transaction_ids: mixed, patch: { memo: 'Nope' } } });
    expect(refused.status).toBe(404);
    expect((await listAll(t.app, token, 100)).filter((r) => r.memo === 'Nope')).toEqual([]);
    expect(await businessSeq(f.businessId)).toBe(seqBefore + 40);
  });

  it('keeps the search text that bulk coding computes equal to the SQL function', async () => {
    const f = await makeBusiness(t.db, { transactions: 30 });
    const token = await signIn(t.app, f.email('admin'));
    const [category] = f.tracking;
    const patch = { gl_account_id: f.glAccounts.active[0], location_id: f.locations[0], memo: 'Kickoff', tracking: { [category!.categoryId]: category!.options[1] } };
    const res = await request(t.app, 'PATCH', '/v1/auth/accounting/coding/bulk-update', { token, body: { transaction_ids: f.allTransactions.slice(0, 20), patch } });
    expect(res.status).toBe(200);
    const rows = await t.db.query<{ same: boolean; search_text: string }>(
      `SELECT search_text, search_text = ll_transaction_search_text(merchant_name, memo, user_id, gl_account_id, department_id, location_id, tracking) AS same
         FROM transactions WHERE business_id = $1`,
      [f.businessId],
    );
    expect(rows.filter((r) => !r.same)).toEqual([]);
    expect(rows.filter((r) => r.search_text.includes('kickoff') && r.search_text.includes('apollo 1') && r.search_text.includes('6000 travel'))).toHaveLength(20);
  });

  it('refuses a manager bulk that reaches outside the team, and more than 10,000 ids', async () => {
    const f = await makeBusiness(t.db, { transactions: 20 });
    const token = await signIn(t.app, f.email('manager'));
    const body = { transaction_ids: [f.transactions.employee[0], f.transactions.outsider[0]], patch: { memo: 'x' } };
    expect((await request(t.app, 'PATCH', '/v1/auth/accounting/coding/bulk-update', { token, body })).status).toBe(404);
    const tooMany = Array.from({ length: 10_001 }, () => crypto.randomUUID());
    const res = await request(t.app, 'PATCH', '/v1/auth/accounting/coding/bulk-update', { token, body: { transaction_ids: tooMany, patch: { memo: 'x' } } });
    expect(res.status).toBe(422);
  });

  it('keeps businesses apart: B never sees or changes A', async () => {
    const a = await makeBusiness(t.db, { transactions: 10 });
    const b = await makeBusiness(t.db, { transactions: 10 });
    const tokenB = await signIn(t.app, b.email('admin'));
    const aId = a.allTransactions[0]!;
    expect(ids(await listAll(t.app, tokenB))).toEqual([...b.allTransactions].sort());
    expect(ids(await searchAll(t.app, tokenB, { filters: { q: 'uber' } })).every((id) => b.allTransactions.includes(id))).toBe(true);
    expect((await request(t.app, 'GET', `/v1/auth/transactions/${aId}`, { token: tokenB })).status).toBe(404);
    expect((await request(t.app, 'PATCH', `/v1/auth/transactions/${aId}`, { token: tokenB, body: { memo: 'B was here' } })).status).toBe(404);
    const bulk = await request(t.app, 'PATCH', '/v1/auth/accounting/coding/bulk-update', { token: tokenB, body: { transaction_ids: [aId], patch: { memo: 'B' } } });
    expect(bulk.status).toBe(404);
    const tokenA = await signIn(t.app, a.email('admin'));
    expect((await request(t.app, 'GET', `/v1/auth/transactions/${aId}`, { token: tokenA })).body.memo).not.toMatch(/^B/);
    for (const path of ['/v1/auth/businesses/users', '/v1/auth/businesses/departments', '/v1/auth/cards', '/v1/auth/accounting/gl-accounts']) {
      const res = await request(t.app, 'GET', `${path}?page_size=100`, { token: tokenB });
      expect(res.body.data.every((d: { business_id: string }) => d.business_id === b.businessId)).toBe(true);
    }
  });

  it('pages reference lists with counts, and limits cards to what the caller may see', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const admin = await signIn(t.app, f.email('admin'));
    const first = await request(t.app, 'GET', '/v1/auth/businesses/users?page_size=3&include_count=true', { token: admin });
    expect(first.body.total_count).toBe(8);
    const second = await request(t.app, 'GET', `/v1/auth/businesses/users?page_size=10&start=${first.body.page.next}`, { token: admin });
    expect(ids([...first.body.data, ...second.body.data])).toEqual(Object.values(f.users).sort());
    expect(second.body.page.next).toBeNull();
    const employee = await signIn(t.app, f.email('employee'));
    const cards = await request(t.app, 'GET', '/v1/auth/cards', { token: employee });
    expect(z.array(z.object({ id: z.string() })).parse(cards.body.data).map((c) => c.id)).toEqual([f.cards.employee]);
  });

  async function businessSeq(id: string): Promise<number> {
    const [row] = await t.db.query<{ change_seq: number }>('SELECT change_seq FROM businesses WHERE id = $1', [id]);
    return row!.change_seq;
  }
});
