import { randomUUID } from 'node:crypto';
import Papa from 'papaparse';
import { beforeAll, describe, expect, it } from 'vitest';
import { asyncJobSchema } from '../../schema/jobs.ts';
import { billSchema, compareBills, type Bill, type BillSort } from '../../schema/entities/bill.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { runAppJobsNow } from '../jobs/work.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { type Fixture, type FixtureRole, makeBusiness, makeVendor, refusal, request, signIn } from '../test-fixtures.ts';

/**
 * Issue 32: the server-side bill query (keyset list and page-index form, with totals), the CSV
 * export job and the vendors' page-index list. Orders are checked against the mirror's own
 * compareBills over every bill of the business; the export's file is read back with papaparse.
 */
const BASE = '/v1/auth/bill-pay';
const SORTS: BillSort[] = ['due_date_asc', 'due_date_desc', 'amount_desc', 'amount_asc', 'created_desc'];

describe.each(await testDatabases())('bill and vendor queries on %s', (kind) => {
  const t = useTestApp(kind);
  let a: Fixture;
  const tokens = {} as Record<FixtureRole, string>;
  let paper: string;
  let ink: string;
  let entity: string;
  let bBill: string;
  const bills: Bill[] = [];

  const call = (role: FixtureRole, path: string, body: unknown) => request(t.app, 'POST', `${BASE}${path}`, { token: tokens[role], body });
  const create = async (token: string, over: Record<string, unknown>) => {
    const res = await request(t.app, 'POST', BASE, {
      token,
      body: { invoice_number: `INV-${randomUUID().slice(0, 8)}`, invoice_date: '2026-10-01', currency: 'USD', ...over },
    });
    expect(res.status, res.text).toBe(200);
    return billSchema.parse(res.body);
  };
  /** Every page of the keyset list, following page.next. */
  const walk = async (body: Record<string, unknown>, pageSize: number) => {
    const ids: string[] = [];
    let start: string | undefined;
    do {
      const res = await call('bookkeeper', '/bill-query-v2/list', { ...body, page_size: pageSize, ...(start ? { start } : {}) });
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(pageSize);
      ids.push(...res.body.data.map((b: Bill) => b.id));
      start = res.body.page.next ?? undefined;
    } while (start);
    return ids;
  };
  const live = async () => (await t.db.query<{ doc: Bill }>(`SELECT id::text FROM bills WHERE business_id = $1 AND NOT deleted`, [a.businessId])).length;

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    const b = await makeBusiness(t.db, { transactions: 0 });
    await t.db.query(`UPDATE spend_users SET user_permissions = '["AP_ACCESS"]' WHERE id = $1`, [a.users.teammate]);
    for (const role of ['owner', 'admin', 'bookkeeper', 'employee', 'teammate'] as const) tokens[role] = await signIn(t.app, a.email(role));
    paper = await makeVendor(t.app, tokens.admin, 'Acme Paper');
    ink = await makeVendor(t.app, tokens.admin, 'Blue Ink Supply');
    entity = randomUUID();
    await t.db.query(`INSERT INTO business_entities (id, business_id, name, country, currency, change_seq) VALUES ($1, $2, 'Acme UK', 'GB', 'GBP', 1)`,
      [entity, a.businessId]);
    // Ties on due date and on amount, two currencies, every status the totals must count or leave out.
    const specs: [string, string, number, string, string][] = [
      [paper, '2026-11-10', 10_000, 'USD', 'APPROVED'], [paper, '2026-11-10', 25_000, 'USD', 'PENDING_APPROVAL'],
      [ink, '2026-11-05', 10_000, 'EUR', 'APPROVED'], [ink, '2026-12-01', 40_000, 'USD', 'PAID'],
      [paper, '2026-11-20', 7_500, 'USD', 'CANCELED'], [ink, '2026-11-10', 10_000, 'USD', 'DRAFT'],
      [paper, '2026-11-01', 99_900, 'EUR', 'SCHEDULED'],
    ];
    for (const [vendor, due, amount, currency, status] of specs) {
      const bill = await create(tokens.admin, { vendor_id: vendor, due_date: due, currency, line_items: [{ description: 'Goods', amount }] });
      await t.db.query('UPDATE bills SET status = $2 WHERE id = $1', [bill.id, status]);
      bills.push({ ...bill, status: status as Bill['status'] });
    }
    await t.db.query('UPDATE bills SET entity_id = $2, memo = $3 WHERE id = $1', [bills[1]!.id, entity, 'Quarterly toner order']);
    const bToken = await signIn(t.app, b.email('admin'));
    bBill = (await create(bToken, { vendor_id: await makeVendor(t.app, bToken, 'Acme Paper'), due_date: '2026-11-10', line_items: [{ description: 'X', amount: 1 }] })).id;
  });

  it('keyset list: every sort walks the business\'s bills in the mirror\'s order, page by page, never another business\'s', async () => {
    const rows = (await t.db.query<{ doc: Bill }>(`SELECT jsonb_build_object('id', id, 'due_date', due_date::text, 'amount', amount,
      'created_at', ll_iso(created_at)) AS doc FROM bills WHERE business_id = $1 AND NOT deleted`, [a.businessId])).map((r) => r.doc);
    expect(rows).toHaveLength(bills.length);
    for (const sort of SORTS) {
      const expected = [...rows].sort(compareBills(sort)).map((b) => b.id);
      expect(await walk({ sort }, 2), sort).toEqual(expected);
    }
    expect(await walk({}, 50)).not.toContain(bBill);
  });

  it('keyset list filters by statuses, vendors, entities and words (vendor name, invoice number, memo, entity name)', async () => {
    const ids = (picked: Bill[]) => picked.map((b) => b.id).sort();
    const of = async (filters: Record<string, unknown>) => (await walk({ filters }, 3)).sort();
    expect(await of({ statuses: ['APPROVED', 'PAID'] })).toEqual(ids(bills.filter((b) => ['APPROVED', 'PAID'].includes(b.status))));
    expect(await of({ vendor_ids: [ink] })).toEqual(ids(bills.filter((b) => b.vendor_id === ink)));
    expect(await of({ vendor_ids: [ink], statuses: ['APPROVED'] })).toEqual([bills[2]!.id]);
    expect(await of({ entity_ids: [entity] })).toEqual([bills[1]!.id]);
    expect(await of({ q: 'blue ink' })).toEqual(ids(bills.filter((b) => b.vendor_id === ink)));
    expect(await of({ q: bills[3]!.invoice_number.toLowerCase() })).toEqual([bills[3]!.id]);
    expect(await of({ q: 'toner' })).toEqual([bills[1]!.id]);
    expect(await of({ q: 'acme uk' })).toEqual([bills[1]!.id]);
    expect(await of({ q: 'nothing like it' })).toEqual([]);
    // Another business's vendor filters to nothing (its bills are not this business's).
    const count = await call('bookkeeper', '/bill-query-v2/list', { filters: {}, page_size: 0 });
    expect(count.body).toEqual({ data: [], page: { next: null }, total_count: await live() });
  });

  it('refuses a cursor that is not this sort\'s, a bad filter and unknown fields (422), and anyone but bill managers (403)', async () => {
    const first = await call('bookkeeper', '/bill-query-v2/list', { sort: 'amount_desc', page_size: 2 });
    const next = first.body.page.next as string;
    expect(refusal(await call('bookkeeper', '/bill-query-v2/list', { sort: 'due_date_asc', start: next }))).toEqual([422, 'REQUEST_7001']);
    const junk = await call('bookkeeper', '/bill-query-v2/list', { start: 'not-a-cursor' });
    expect(refusal(junk)).toEqual([422, 'REQUEST_7001']);
    expect(junk.text).toContain('start must be a valid cursor');
    expect(refusal(await call('bookkeeper', '/bill-query-v2/list', { filters: { statuses: ['LOST'] } }))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await call('bookkeeper', '/bill-query-v2/list', { filters: { owner: 'x' } }))).toEqual([422, 'REQUEST_7001']);
    for (const path of ['/bill-query-v2/list', '/pagination', '/export-as-file']) {
      expect(refusal(await call('employee', path, {})), path).toEqual([403, 'FORBIDDEN_7003']);
    }
    // An AP clerk (AP_ACCESS) and the owner read them; an admin too.
    for (const role of ['teammate', 'owner', 'admin'] as const) expect((await call(role, '/pagination', {})).status).toBe(200);
  });

  it('page-index form: pages in the sort, the index clamped to the last page, totals per currency naming their statuses', async () => {
    const all = await walk({ sort: 'amount_desc' }, 50);
    const p1 = await call('admin', '/pagination', { sort: 'amount_desc', page_index: 1, page_size: 3 });
    expect(p1.status, p1.text).toBe(200);
    expect(p1.body.data.map((b: Bill) => b.id)).toEqual(all.slice(3, 6));
    expect(p1.body.page).toEqual({ index: 1, size: 3, count: 3 });
    expect(p1.body.total_count).toBe(7);
    const clamped = await call('admin', '/pagination', { sort: 'amount_desc', page_index: 99, page_size: 3 });
    expect(clamped.body.page).toEqual({ index: 2, size: 3, count: 3, requested_index: 99 });
    expect(clamped.body.data.map((b: Bill) => b.id)).toEqual(all.slice(6));
    // Without a status filter the totals leave CANCELED out and say so; never USD + EUR added together.
    expect(p1.body.totals.statuses).not.toContain('CANCELED');
    expect(p1.body.totals.statuses).toHaveLength(8);
    expect(p1.body.totals.by_currency).toEqual([
      { currency: 'EUR', amount: 10_000 + 99_900, count: 2 },
      { currency: 'USD', amount: 10_000 + 25_000 + 40_000 + 10_000, count: 4 },
    ]);
    const canceled = await call('admin', '/pagination', { filters: { statuses: ['CANCELED', 'PAID'] } });
    expect(canceled.body.totals).toEqual({ statuses: ['PAID', 'CANCELED'], by_currency: [{ currency: 'USD', amount: 47_500, count: 2 }] });
    const none = await call('admin', '/pagination', { filters: { q: 'no such bill' }, page_index: 4 });
    expect(none.body).toMatchObject({ data: [], page: { index: 0, size: 50, count: 0, requested_index: 4 }, total_count: 0, totals: { by_currency: [] } });
    for (const page_index of [-1, 1.5, '2']) {
      expect(refusal(await call('admin', '/pagination', { page_index })), String(page_index)).toEqual([422, 'REQUEST_7001']);
    }
    expect(refusal(await call('admin', '/pagination', { page_size: 0 }))).toEqual([422, 'REQUEST_7001']);
  });

  it('exports the query as a CSV job that papaparse reads: the filter, the sort, the caller\'s columns', async () => {
    await request(t.app, 'PUT', '/v1/auth/export-settings/bills', { token: tokens.bookkeeper, body: { columns: ['bill_id', 'vendor', 'amount', 'currency', 'status'] } });
    const created = await call('bookkeeper', '/export-as-file', { filters: { vendor_ids: [paper] }, sort: 'amount_asc' });
    expect(created.status, created.text).toBe(202);
    const job = asyncJobSchema.parse(created.body);
    expect(job).toMatchObject({ kind: 'bill_export', state: 'queued', title: 'Bills · CSV' });
    await runAppJobsNow(t.app.deps);
    const done = await request(t.app, 'GET', `/v1/auth/async-jobs/${job.id}`, { token: tokens.bookkeeper });
    expect(done.body).toMatchObject({ state: 'done', progress: 100, file: { content_type: 'text/csv; charset=utf-8' } });
    const file = await t.app.request(`/v1/auth/async-jobs/${job.id}/file`, { headers: { 'RAMP-ID-TOKEN': tokens.bookkeeper } });
    const text = await file.text();
    expect(Number(file.headers.get('content-length'))).toBe(new TextEncoder().encode(text).length);
    const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.meta.fields).toEqual(['Bill ID', 'Vendor', 'Amount', 'Currency', 'Status']);
    const expected = await walk({ filters: { vendor_ids: [paper] }, sort: 'amount_asc' }, 50);
    expect(parsed.data.map((r) => r['Bill ID'])).toEqual(expected);
    expect(parsed.data.every((r) => r.Vendor === 'Acme Paper')).toBe(true);
    expect(parsed.data.map((r) => [r.Amount, r.Currency])).toContainEqual(['999.00', 'EUR']);
  });

  it('the export job fails, with no file, when its requester no longer manages bills when it runs', async () => {
    // Queued while the AP clerk still had AP_ACCESS (as the call queues it), run after it was taken away.
    await t.db.query(`UPDATE spend_users SET user_permissions = '[]' WHERE id = $1`, [a.users.teammate]);
    try {
      const clerk = { id: a.users.teammate, business_id: a.businessId, role: 'BUSINESS_USER', is_manager: false, user_permissions: ['AP_ACCESS'], manager_id: null };
      const queued = await enqueueJob(t.db, clerk, 'bill_export', { query: { filters: {}, sort: 'due_date_asc' }, title: 'Bills · CSV' }, new Date());
      await runAppJobsNow(t.app.deps);
      const job = await request(t.app, 'GET', `/v1/auth/async-jobs/${queued.id}`, { token: tokens.teammate });
      expect(job.body).toMatchObject({ state: 'failed', file: null, error: 'Only administrators, bookkeepers and AP clerks can export bills.' });
    } finally {
      await t.db.query(`UPDATE spend_users SET user_permissions = '["AP_ACCESS"]' WHERE id = $1`, [a.users.teammate]);
    }
  });

  it('vendors by page index: every member, the list\'s words and status, by name, clamped; never another business\'s', async () => {
    const res = await request(t.app, 'POST', '/v1/auth/vendors/pagination', { token: tokens.employee, body: { page_size: 1 } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.map((v: { name: string }) => v.name)).toEqual(['Acme Paper']);
    expect(res.body).toMatchObject({ page: { index: 0, size: 1, count: 2 }, total_count: 2 });
    const last = await request(t.app, 'POST', '/v1/auth/vendors/pagination', { token: tokens.employee, body: { page_size: 1, page_index: 7 } });
    expect(last.body.data.map((v: { name: string }) => v.name)).toEqual(['Blue Ink Supply']);
    expect(last.body.page).toEqual({ index: 1, size: 1, count: 2, requested_index: 7 });
    const ink = await request(t.app, 'POST', '/v1/auth/vendors/pagination', { token: tokens.employee, body: { q: 'INK' } });
    expect(ink.body.data.map((v: { name: string }) => v.name)).toEqual(['Blue Ink Supply']);
    await t.db.query(`UPDATE vendors SET status = 'ARCHIVED' WHERE id = $1`, [paper]);
    try {
      const active = await request(t.app, 'POST', '/v1/auth/vendors/pagination', { token: tokens.employee, body: {} });
      expect(active.body.data.map((v: { name: string }) => v.name)).toEqual(['Blue Ink Supply']);
      const archived = await request(t.app, 'POST', '/v1/auth/vendors/pagination', { token: tokens.employee, body: { status: 'ARCHIVED' } });
      expect(archived.body.data.map((v: { id: string }) => v.id)).toEqual([paper]);
      expect((await request(t.app, 'POST', '/v1/auth/vendors/pagination', { token: tokens.employee, body: { status: 'ALL' } })).body.total_count).toBe(2);
    } finally {
      await t.db.query(`UPDATE vendors SET status = 'ACTIVE' WHERE id = $1`, [paper]);
    }
    const bad = await request(t.app, 'POST', '/v1/auth/vendors/pagination', { token: tokens.employee, body: { page_index: -2 } });
    expect(refusal(bad)).toEqual([422, 'REQUEST_7001']);
  });
});
