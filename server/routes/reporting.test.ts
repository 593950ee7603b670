import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { syncChanges } from '../../schema/api/calls.ts';
import { dashboardSchema } from '../../schema/entities/dashboard.ts';
import { savedReportSchema } from '../../schema/entities/saved-report.ts';
import { reportResultSchema } from '../../schema/reports.ts';
import { MAX_REPORT_ROWS } from '../domain/reporting/report.ts';
import { seedReportRows } from '../domain/reporting/report-fixture.ts';
import { useTestApp } from '../test-app.ts';
import { testDatabases } from '../test-db.ts';
import { makeBusiness, request, signIn, type Fixture } from '../test-fixtures.ts';

/**
 * §7 Reporting through the API (issue 12): report queries are checked (catalogue errors, never a
 * 500), an employee's report holds only their rows; saved reports and dashboards are the caller's
 * own, reach the caller's mirror (and nobody else's), and another user's or business's ids are 404.
 */
const REPORT = '/v1/auth/reporting/generate-report-from-query';
const REPORTS = '/v1/auth/reporting/reports';
const DASHBOARDS = '/v1/auth/reporting/dashboards';
const month = { collection: 'transactions', time_grain: 'month', dimension: 'department', measure: 'sum' } as const;

type Res = { status: number; body: { error_v2?: { error_code: string; message: string } } };
const refusal = (res: Res) => [res.status, res.body.error_v2?.error_code];

describe.each(await testDatabases())('reporting calls on %s', (kind) => {
  const t = useTestApp(kind);
  let a: Fixture;
  let b: Fixture;
  let admin: string;
  let employee: string;
  let bAdmin: string;

  /** Every live row of a reference kind in the caller's mirror (the change feed from zero). */
  async function mirrored(token: string, collection: 'saved_reports' | 'dashboards') {
    const rows = new Map<string, unknown>();
    let after = 0;
    for (;;) {
      const page = syncChanges.response.parse((await request(t.app, 'GET', `/v1/auth/sync/changes?after=${after}&limit=500`, { token })).body);
      for (const c of page.changes) {
        if (c.collection !== collection) continue;
        if (c.deleted) rows.delete(c.id);
        else rows.set(c.id, c.doc);
      }
      after = page.checkpoint;
      if (!page.has_more) return rows;
    }
  }

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    b = await makeBusiness(t.db, { transactions: 0 });
    await seedReportRows(t.db, a, { transactions: 60 });
    admin = await signIn(t.app, a.email('admin'));
    employee = await signIn(t.app, a.email('employee'));
    bAdmin = await signIn(t.app, b.email('admin'));
  });

  it('refuses report queries that do not fit, naming the field, and never answers 500', async () => {
    const cases: [unknown, string][] = [
      [{ ...month, dimension: 'planet' }, 'dimension'],
      [{ ...month, collection: 'cards', dimension: 'merchant' }, 'dimension'],
      [{ ...month, dimension: 'tracking_category' }, 'tracking_category_id'],
      [{ ...month, from: '2026-03-01', to: '2026-02-01' }, 'from'],
      [{ ...month, from: '2026-02-30' }, 'from'],
      [{ ...month, filters: { states: ['LOST'] } }, 'filters.states.0'],
      [{ ...month, filters: { colour: 'red' } }, 'filters.colour'],
      [{ ...month, collection: 'bills', dimension: 'vendor', filters: { vendor_ids: ['nope'] } }, 'filters.vendor_ids.0'],
      [{ ...month, measure: 'median' }, 'measure'],
      [{ ...month, extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const res = await request(t.app, 'POST', REPORT, { token: admin, body });
      expect(refusal(res), JSON.stringify(body)).toEqual([422, 'REQUEST_7001']);
      expect(Object.keys((res.body as { error_v2: { errors?: Record<string, string> } }).error_v2.errors ?? {}), JSON.stringify(body)).toContain(field);
    }
    // Absurd but valid ranges answer (empty or not), never a 500.
    for (const range of [{ from: '0001-01-01', to: '9999-12-31' }, { from: '0000-01-01' }, { to: '1969-12-31' }]) {
      for (const time_grain of ['week', 'span'] as const) {
        const res = await request(t.app, 'POST', REPORT, { token: admin, body: { ...month, ...range, time_grain } });
        expect(res.status === 200 || refusal(res).join() === '422,REQUEST_7001', `${JSON.stringify(range)} ${JSON.stringify(res.body)}`).toBe(true);
      }
    }
    for (const raw of ['null', '[]', '"x"', '{"collection": {"$ne": 1}}', '{"from": 1e400}']) {
      const res = await request(t.app, 'POST', REPORT, { token: admin, rawBody: raw, headers: { 'content-type': 'application/json' } });
      expect(res.status, raw).toBe(422);
    }
  });

  it("answers an employee's report over their own rows only, and another business's owner over theirs", async () => {
    const byUser = await request(t.app, 'POST', REPORT, { token: employee, body: { ...month, dimension: 'user', measure: 'count' } });
    expect(byUser.status, JSON.stringify(byUser.body)).toBe(200);
    const rows = reportResultSchema.parse(byUser.body).rows;
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.key))).toEqual(new Set([a.users.employee]));
    const [own] = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM transactions WHERE user_id = $1 AND state IN ('PENDING', 'CLEARED')`, [a.users.employee]);
    expect(rows.reduce((s, r) => s + r.value, 0)).toBe(own!.n);
    const other = await request(t.app, 'POST', REPORT, { token: bAdmin, body: { ...month, dimension: 'user', measure: 'count' } });
    expect(reportResultSchema.parse(other.body).rows).toEqual([]);
  });

  it('refuses a report of more groups than anyone can read, asking for a narrower range or coarser grain', async () => {
    const big = await makeBusiness(t.db, { transactions: 0 });
    await t.db.query(
      `WITH bump AS (UPDATE businesses SET change_seq = change_seq + $3 WHERE id = $1 RETURNING change_seq)
       INSERT INTO transactions (id, business_id, card_id, user_id, merchant_name, merchant_category, amount, currency, occurred_at, state, change_seq)
       SELECT gen_random_uuid(), $1, $2, u.user_id, 'Merchant ' || i, 'General', 100, 'USD', timestamptz '2026-01-01' + i * interval '1 minute',
              'CLEARED', (SELECT change_seq FROM bump) - $3 + i
         FROM generate_series(1, $3::int) AS i, (SELECT user_id FROM cards WHERE id = $2) u`,
      [big.businessId, big.cards.admin, MAX_REPORT_ROWS + 1],
    );
    const token = await signIn(t.app, big.email('admin'));
    const body = { collection: 'transactions', time_grain: 'day', dimension: 'merchant', measure: 'count', from: '2026-01-01' };
    const res = await request(t.app, 'POST', REPORT, { token, body });
    expect(refusal(res)).toEqual([422, 'REQUEST_7001']);
    expect(res.body.error_v2?.message).toMatch(/narrow the dates or choose a coarser time grain/);
    const fewer = await request(t.app, 'POST', REPORT, { token, body: { ...body, to: '2026-01-05' } });
    expect(fewer.status).toBe(200);
    expect(reportResultSchema.parse(fewer.body).rows.length).toBe(5 * 24 * 60 - 1);
  });

  it('saves, updates and deletes the caller’s reports and dashboards, mirrored to the caller alone', async () => {
    const id = randomUUID();
    const created = await request(t.app, 'POST', REPORTS, {
      token: employee, body: { id, name: '  Travel by month ', query: { ...month, filters: { states: 'CLEARED' } }, chart: 'bar' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(savedReportSchema.strict().parse(created.body)).toMatchObject({ id, name: 'Travel by month', owner_id: a.users.employee, chart: 'bar' });
    const second = await request(t.app, 'POST', REPORTS, { token: employee, body: { name: 'Claims', query: { ...month, collection: 'reimbursements' }, chart: 'table' } });
    expect(second.status).toBe(201);

    const updated = await request(t.app, 'POST', REPORTS, { token: employee, body: { id, name: 'Travel', query: month, chart: 'line' } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, name: 'Travel', chart: 'line', query: month });

    const board = await request(t.app, 'POST', DASHBOARDS, {
      token: employee, body: { name: 'Mine', items: [{ report_id: second.body.id, size: 'full' }, { report_id: id, size: 'half' }] },
    });
    expect(board.status, JSON.stringify(board.body)).toBe(201);
    expect(dashboardSchema.strict().parse(board.body).items.map((i) => i.report_id)).toEqual([second.body.id, id]);

    expect([...(await mirrored(employee, 'saved_reports')).keys()].sort()).toEqual([id, second.body.id].sort());
    expect((await mirrored(employee, 'dashboards')).get(board.body.id)).toMatchObject({ name: 'Mine' });
    // The admin sees every transaction, but not the employee's reports.
    expect((await mirrored(admin, 'saved_reports')).size).toBe(0);
    expect((await mirrored(admin, 'dashboards')).size).toBe(0);

    // Deleting a report takes it off the dashboard, in the mirror too.
    const del = await request(t.app, 'DELETE', REPORTS, { token: employee, body: { ids: [id] } });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(del.body.deleted).toBe(1);
    expect([...(await mirrored(employee, 'saved_reports')).keys()]).toEqual([second.body.id]);
    expect((await mirrored(employee, 'dashboards')).get(board.body.id)).toMatchObject({ items: [{ report_id: second.body.id, size: 'full' }] });
    expect(refusal(await request(t.app, 'POST', REPORTS, { token: employee, body: { id, name: 'Again', query: month, chart: 'bar' } })))
      .toEqual([404, 'REQUEST_7004']);

    const gone = await request(t.app, 'DELETE', DASHBOARDS, { token: employee, body: { ids: [board.body.id] } });
    expect(gone.status).toBe(200);
    expect((await mirrored(employee, 'dashboards')).size).toBe(0);
  });

  it("answers 404 for another user's or business's report or dashboard, and changes nothing", async () => {
    const mine = await request(t.app, 'POST', REPORTS, { token: admin, body: { name: 'Admin only', query: month, chart: 'table' } });
    const board = await request(t.app, 'POST', DASHBOARDS, { token: admin, body: { name: 'Board', items: [{ report_id: mine.body.id, size: 'half' }] } });
    expect([mine.status, board.status]).toEqual([201, 201]);
    for (const token of [employee, bAdmin]) {
      expect(refusal(await request(t.app, 'POST', REPORTS, { token, body: { id: mine.body.id, name: 'Taken', query: month, chart: 'bar' } })))
        .toEqual([404, 'REQUEST_7004']);
      expect(refusal(await request(t.app, 'DELETE', REPORTS, { token, body: { ids: [mine.body.id] } }))).toEqual([404, 'REQUEST_7004']);
      expect(refusal(await request(t.app, 'POST', DASHBOARDS, { token, body: { id: board.body.id, name: 'Taken', items: [] } })))
        .toEqual([404, 'REQUEST_7004']);
      expect(refusal(await request(t.app, 'DELETE', DASHBOARDS, { token, body: { ids: [board.body.id] } }))).toEqual([404, 'REQUEST_7004']);
      // Nobody puts another's report on their own dashboard.
      expect(refusal(await request(t.app, 'POST', DASHBOARDS, { token, body: { name: 'Theirs', items: [{ report_id: mine.body.id, size: 'full' }] } })))
        .toEqual([404, 'REQUEST_7004']);
    }
    const [row] = await t.db.query<{ name: string; deleted: boolean }>('SELECT name, deleted FROM saved_reports WHERE id = $1', [mine.body.id]);
    expect(row).toEqual({ name: 'Admin only', deleted: false });
    const [dash] = await t.db.query<{ name: string; deleted: boolean }>('SELECT name, deleted FROM dashboards WHERE id = $1', [board.body.id]);
    expect(dash).toEqual({ name: 'Board', deleted: false });
    // All or none: one foreign id refuses the whole delete.
    const own = await request(t.app, 'POST', REPORTS, { token: bAdmin, body: { name: 'B', query: month, chart: 'bar' } });
    expect(refusal(await request(t.app, 'DELETE', REPORTS, { token: bAdmin, body: { ids: [own.body.id, mine.body.id] } }))).toEqual([404, 'REQUEST_7004']);
    const [still] = await t.db.query<{ deleted: boolean }>('SELECT deleted FROM saved_reports WHERE id = $1', [own.body.id]);
    expect(still!.deleted).toBe(false);
  });

  it('refuses a saved report whose query does not fit, and a dashboard naming a report twice', async () => {
    const bad = await request(t.app, 'POST', REPORTS, { token: admin, body: { name: 'Bad', query: { ...month, collection: 'cards', dimension: 'vendor' }, chart: 'bar' } });
    expect(refusal(bad)).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await request(t.app, 'POST', REPORTS, { token: admin, body: { name: ' ', query: month, chart: 'bar' } }))).toEqual([422, 'REQUEST_7001']);
    const unknownFilter = await request(t.app, 'POST', REPORTS, { token: admin, body: { name: 'Typo', query: { ...month, filters: { colour: 'red' } }, chart: 'bar' } });
    expect(refusal(unknownFilter)).toEqual([422, 'REQUEST_7001']);
    expect(unknownFilter.body.error_v2?.message).toBe('query.filters.colour is not allowed');
    expect(refusal(await request(t.app, 'POST', REPORTS, { token: admin, body: { name: 'Pie', query: month, chart: 'pie' } }))).toEqual([422, 'REQUEST_7001']);
    const r = await request(t.app, 'POST', REPORTS, { token: admin, body: { name: 'Twice', query: month, chart: 'bar' } });
    const twice = await request(t.app, 'POST', DASHBOARDS, {
      token: admin, body: { name: 'Twice', items: [{ report_id: r.body.id, size: 'half' }, { report_id: r.body.id, size: 'full' }] },
    });
    expect(refusal(twice)).toEqual([422, 'REQUEST_7001']);
    expect(twice.body.error_v2?.message).toMatch(/items\.1\.report_id/);
    expect(refusal(await request(t.app, 'DELETE', REPORTS, { token: admin, body: { ids: [] } }))).toEqual([422, 'REQUEST_7001']);
  });
});
