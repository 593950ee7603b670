import { beforeAll, describe, expect, it } from 'vitest';
import { recurringBillTemplateSchema, type RecurringBillTemplate } from '../../schema/entities/recurring-bill.ts';
import { billSchema } from '../../schema/entities/bill.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn, type Fixture } from '../test-fixtures.ts';
import { generateRecurringBills, startRecurringBillJob } from './recurring-bills.ts';

/**
 * Recurring bill templates (issue 11): the calls, and the job run directly with a fixed "now":
 * one bill per due period through the POST /bill-pay path (drafts or submitted), idempotent,
 * paused and ended templates make nothing, a delete keeps the bills, refusals recorded per period.
 */
const BASE = '/v1/auth/bill-pay/recurring-bills';
const NOW = Date.parse('2026-11-20T12:00:00Z');

describe.each(await testDatabases())('recurring bills on %s', (kind) => {
  const t = useTestApp(kind, { now: () => NOW });
  let a: Fixture;
  let admin: string;
  let vendor: string;
  let foreignVendor: string;

  const body = (over: Record<string, unknown> = {}) => ({
    vendor_id: vendor, currency: 'USD', line_items: [{ description: 'Rent', amount: 250_000 }], interval: 'MONTHLY',
    start_date: '2026-08-31', invoice_number_pattern: 'RENT-{YYYY}-{MM}', days_until_due: 10, ...over,
  });
  const create = async (over: Record<string, unknown> = {}) => {
    const res = await request(t.app, 'POST', BASE, { token: admin, body: body(over) });
    expect(res.status, res.text).toBe(201);
    return recurringBillTemplateSchema.parse(res.body);
  };
  const billsOf = (templateId: string) => t.db.query<{ id: string; period: string; status: string }>(
    `SELECT r.bill_id::text AS id, to_char(r.period_start, 'YYYY-MM-DD') AS period, b.status FROM recurring_bill_runs r
       LEFT JOIN bills b ON b.id = r.bill_id WHERE r.template_id = $1 ORDER BY r.period_start`, [templateId]);
  const generate = (iso: string) => generateRecurringBills(t.db, new Date(iso));
  const mine = (r: Awaited<ReturnType<typeof generate>>, tpl: RecurringBillTemplate) => r.generated.filter((g) => g.template_id === tpl.id);

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    const b = await makeBusiness(t.db, { transactions: 0 });
    admin = await signIn(t.app, a.email('admin'));
    const v = await request(t.app, 'POST', '/v1/auth/vendors', { token: admin, body: { name: 'Landlord' } });
    vendor = v.body.id;
    const fv = await request(t.app, 'POST', '/v1/auth/vendors', { token: await signIn(t.app, b.email('owner')), body: { name: 'Other' } });
    foreignVendor = fv.body.id;
  });

  it('creates a template and answers its schedule; lists it', async () => {
    // Its own invoice numbers: the job bills it too, and two templates of one vendor's numbers would be duplicates (issue 25).
    const tpl = await create({ invoice_number_pattern: 'LIST-{YYYY}-{MM}' });
    expect(tpl).toMatchObject({ status: 'ACTIVE', amount: 250_000, generated_count: 0, last_period_start: null, next_period_start: '2026-11-30' });
    const list = await request(t.app, 'GET', BASE, { token: admin });
    expect(list.status, list.text).toBe(200);
    expect(list.body.data.map((x: RecurringBillTemplate) => x.id)).toContain(tpl.id);
  });

  it('bills each due period once, month ends clamped, through the bill path; a second run makes nothing', async () => {
    const tpl = await create();
    const first = await generate('2026-11-20T12:00:00Z');
    expect(mine(first, tpl).map((g) => g.period_start)).toEqual(['2026-08-31', '2026-09-30', '2026-10-31']);
    const rows = await billsOf(tpl.id);
    expect(rows.map((r) => [r.period, r.status])).toEqual([['2026-08-31', 'DRAFT'], ['2026-09-30', 'DRAFT'], ['2026-10-31', 'DRAFT']]);
    const got = await request(t.app, 'GET', `/v1/auth/bill-pay/${rows[1]!.id}`, { token: admin });
    expect(got.status, got.text).toBe(200);
    const bill = billSchema.parse(got.body);
    expect(bill).toMatchObject({ invoice_number: 'RENT-2026-09', invoice_date: '2026-09-30', due_date: '2026-10-10', amount: 250_000, vendor_id: vendor, created_by: a.users.admin });
    expect(bill.change_seq).toBeGreaterThan(0);
    expect(mine(await generate('2026-11-20T12:00:00Z'), tpl)).toEqual([]);
    expect(await billsOf(tpl.id)).toHaveLength(3);
    const listed = (await request(t.app, 'GET', BASE, { token: admin })).body.data.find((x: RecurringBillTemplate) => x.id === tpl.id);
    expect(listed).toMatchObject({ generated_count: 3, last_period_start: '2026-10-31', next_period_start: '2026-11-30' });
    expect(mine(await generate('2026-11-30T00:00:00Z'), tpl).map((g) => g.period_start)).toEqual(['2026-11-30']);
  });

  it('submits generated bills for approval when asked: PENDING_APPROVAL with a chain', async () => {
    const tpl = await create({ start_date: '2026-11-01', submit_for_approval: true, interval: 'WEEKLY', invoice_number_pattern: 'W-{YYYY}{MM}{DD}' });
    const made = mine(await generate('2026-11-10T08:00:00Z'), tpl);
    expect(made.map((g) => g.period_start)).toEqual(['2026-11-01', '2026-11-08']);
    const rows = await billsOf(tpl.id);
    expect(rows.map((r) => r.status)).toEqual(['PENDING_APPROVAL', 'PENDING_APPROVAL']);
    const chains = await t.db.query(`SELECT 1 FROM approval_instances WHERE object_type = 'bill' AND object_id = ANY($1::uuid[])`, [rows.map((r) => r.id)]);
    expect(chains).toHaveLength(2);
  });

  it('paused templates make nothing; a resume skips the paused stretch', async () => {
    const tpl = await create({ start_date: '2026-12-01', status: 'PAUSED' });
    expect(tpl.next_period_start).toBeNull();
    expect(mine(await generate('2027-02-15T00:00:00Z'), tpl)).toEqual([]);
    const resumed = await request(t.app, 'PATCH', `${BASE}/${tpl.id}`, { token: admin, body: { status: 'ACTIVE' } });
    expect(resumed.status, resumed.text).toBe(200);
    // Resumed on NOW (2026-11-20), before the start: the start still counts.
    expect(resumed.body.next_period_start).toBe('2026-12-01');
    const paused = await request(t.app, 'PATCH', `${BASE}/${tpl.id}`, { token: admin, body: { status: 'PAUSED' } });
    expect(paused.body.status).toBe('PAUSED');
    expect(mine(await generate('2027-01-15T00:00:00Z'), tpl)).toEqual([]);
  });

  it('ended templates make nothing more: occurrence count and end date', async () => {
    const counted = await create({ start_date: '2026-09-15', max_occurrences: 2, invoice_number_pattern: 'CNT-{YYYY}-{MM}' });
    const ended = await create({ start_date: '2026-09-15', end_date: '2026-09-30', invoice_number_pattern: 'END-{YYYY}-{MM}' });
    const run = await generate('2026-11-20T00:00:00Z');
    expect(mine(run, counted).map((g) => g.period_start)).toEqual(['2026-09-15', '2026-10-15']);
    expect(mine(run, ended).map((g) => g.period_start)).toEqual(['2026-09-15']);
    expect(mine(await generate('2027-05-20T00:00:00Z'), counted)).toEqual([]);
    expect(mine(await generate('2027-05-20T00:00:00Z'), ended)).toEqual([]);
  });

  it('runs as main.ts starts it, on the injected clock', async () => {
    const tpl = await create({ start_date: '2027-03-31' });
    const errors: unknown[] = [];
    const job = startRecurringBillJob(t.db, { now: () => Date.parse('2027-05-01T00:00:00Z'), everyMs: 3_600_000, onError: (e) => errors.push(e) });
    try {
      await job.runNow();
      await job.runNow();
    } finally {
      await job.stop();
    }
    expect(errors).toEqual([]);
    expect((await billsOf(tpl.id)).map((r) => r.period)).toEqual(['2027-03-31', '2027-04-30']);
  });

  it('a deleted template keeps the bills it made and makes no more', async () => {
    const tpl = await create({ start_date: '2026-10-01', invoice_number_pattern: 'DEL-{YYYY}-{MM}' });
    await generate('2026-11-20T00:00:00Z');
    const before = await billsOf(tpl.id);
    expect(before).toHaveLength(2);
    const del = await request(t.app, 'DELETE', `${BASE}/${tpl.id}`, { token: admin });
    expect(del.status, del.text).toBe(200);
    expect(del.body.deleted).toBe(true);
    expect(mine(await generate('2027-03-01T00:00:00Z'), tpl)).toEqual([]);
    for (const r of before) expect((await request(t.app, 'GET', `/v1/auth/bill-pay/${r.id}`, { token: admin })).status).toBe(200);
    expect((await request(t.app, 'PATCH', `${BASE}/${tpl.id}`, { token: admin, body: { memo: 'x' } })).status).toBe(404);
  });

  it('makes no second bill of an invoice already on a live bill (issue 25): the period is refused, naming it', async () => {
    const byHand = await request(t.app, 'POST', '/v1/auth/bill-pay', { token: admin, body: {
      vendor_id: vendor, invoice_number: 'HAND-2026-11', invoice_date: '2026-11-01', due_date: '2026-11-30', currency: 'USD',
      line_items: [{ description: 'Rent', amount: 250_000 }],
    } });
    expect(byHand.status, byHand.text).toBe(200);
    const tpl = await create({ start_date: '2026-11-01', invoice_number_pattern: 'HAND-{YYYY}-{MM}' });
    const run = await generate('2026-11-20T00:00:00Z');
    expect(run.failed.filter((f) => f.template_id === tpl.id).map((f) => f.error)).toEqual([
      expect.stringMatching(/^2026-11-01: Invoice HAND-2026-11 from Landlord is already on a bill for \$2,500\.00 \(a draft\)/),
    ]);
    expect(await billsOf(tpl.id)).toEqual([{ id: null, period: '2026-11-01', status: null }]);
  });

  it('records a refused period (vendor deleted) once, with the reason on the template', async () => {
    const v = await request(t.app, 'POST', '/v1/auth/vendors', { token: admin, body: { name: 'Short-lived' } });
    const tpl = await create({ vendor_id: v.body.id, start_date: '2026-11-01' });
    await t.db.query('UPDATE vendors SET deleted = true WHERE id = $1', [v.body.id]);
    const run = await generate('2026-11-20T00:00:00Z');
    expect(run.failed.filter((f) => f.template_id === tpl.id)).toHaveLength(1);
    expect((await generate('2026-11-20T00:00:00Z')).failed.filter((f) => f.template_id === tpl.id)).toEqual([]);
    const listed = (await request(t.app, 'GET', BASE, { token: admin })).body.data.find((x: RecurringBillTemplate) => x.id === tpl.id);
    expect(listed.last_error).toMatch(/vendor was not found/);
  });

  it('refuses bad templates by field, foreign references with 404, and non-managers with 403', async () => {
    const bad = await request(t.app, 'POST', BASE, { token: admin, body: body({ day_of_week: 3 }) });
    expect([bad.status, bad.body.error_v2.error_code]).toEqual([422, 'REQUEST_7001']);
    expect(bad.body.error_v2.errors).toHaveProperty('day_of_week');
    const neg = await request(t.app, 'POST', BASE, { token: admin, body: body({ line_items: [{ description: 'x', amount: -5 }] }) });
    expect(neg.status).toBe(422);
    expect(neg.body.error_v2.errors).toHaveProperty(['line_items.0.amount']);
    const long = await request(t.app, 'POST', BASE, { token: admin, body: body({ invoice_number_pattern: `${'X'.repeat(40)}{YYYY}{MM}{DD}{YYYY}{YYYY}` }) });
    expect(long.status, long.text).toBe(422);
    expect(long.body.error_v2.errors).toHaveProperty('invoice_number_pattern');
    const same = await request(t.app, 'POST', BASE, { token: admin, body: body({ interval: 'WEEKLY' }) });
    expect(same.body.error_v2.errors.invoice_number_pattern).toMatch(/same invoice number/);
    const end = await request(t.app, 'POST', BASE, { token: admin, body: body({ end_date: '2026-01-01' }) });
    expect(end.body.error_v2.errors).toHaveProperty('end_date');
    expect((await request(t.app, 'POST', BASE, { token: admin, body: body({ vendor_id: foreignVendor }) })).status).toBe(404);
    expect((await request(t.app, 'POST', BASE, { token: admin, body: body({ interval: 'DAILY' }) })).status).toBe(422);
    // Calendar edges answer, never fail.
    for (const over of [{ start_date: '0001-01-01' }, { start_date: '9999-12-31', interval: 'WEEKLY', invoice_number_pattern: '{N}' }, { start_date: '2026-02-29' }]) {
      const res = await request(t.app, 'POST', BASE, { token: admin, body: body(over) });
      expect(res.status, res.text).toBeLessThan(500);
    }
    expect((await generate('2026-11-20T00:00:00Z')).generated.length).toBeGreaterThanOrEqual(0);
    const employee = await signIn(t.app, a.email('employee'));
    expect((await request(t.app, 'GET', BASE, { token: employee })).status).toBe(403);
    expect((await request(t.app, 'POST', BASE, { token: employee, body: body() })).status).toBe(403);
  });
});
