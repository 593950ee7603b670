import { beforeAll, describe, expect, it } from 'vitest';
import { syncChanges } from '../../schema/api/calls.ts';
import { ENTITIES, type RowOf } from '../../schema/collections.ts';
import {
  aggregateReport, REPORT_COLLECTIONS, REPORT_MEASURES, REPORT_SPECS, reportResultSchema, TIME_GRAINS,
  type ReportCollection, type ReportQuery,
} from '../../schema/reports.ts';
import { seedReportRows, type ReportFixture } from '../domain/reporting/report-fixture.ts';
import { useTestApp } from '../test-app.ts';
import { testDatabases } from '../test-db.ts';
import { makeBusiness, request, signIn, type Fixture } from '../test-fixtures.ts';

/**
 * Issue 12's agreement: for every collection × time grain × allowed dimension × measure (with
 * and without a range and a table filter), the server's `generate-report-from-query` (SQL) equals
 * schema/reports.ts `aggregateReport` (what the worker runs) over the rows the same caller reads
 * through the change feed, i.e. the caller's mirror, filtered by the collection's own predicate.
 */
const PATH = '/v1/auth/reporting/generate-report-from-query';

type Rows = { [C in ReportCollection]: RowOf<C>[] };

async function mirrorOf(app: Parameters<typeof request>[0], token: string): Promise<Rows> {
  const rows: Rows = { transactions: [], reimbursements: [], bills: [], cards: [] };
  let after = 0;
  for (;;) {
    const res = await request(app, 'GET', `/v1/auth/sync/changes?after=${after}&limit=500`, { token });
    expect(res.status, res.text).toBe(200);
    const page = syncChanges.response.parse(res.body);
    for (const c of page.changes) {
      if (!(REPORT_COLLECTIONS as readonly string[]).includes(c.collection) || c.deleted || !c.doc) continue;
      const name = c.collection as ReportCollection;
      (rows[name] as unknown[]).push(ENTITIES[name].schema.parse(c.doc));
    }
    after = page.checkpoint;
    if (!page.has_more) return rows;
  }
}

/** A table filter per collection that keeps some rows and drops others. */
function filtersFor(c: ReportCollection, f: Fixture, r: ReportFixture): Record<string, unknown> {
  switch (c) {
    case 'transactions':
      return { states: ['CLEARED', 'DECLINED'], department_ids: [f.departments[0], f.departments[1]], gl_account_ids: f.glAccounts.active, missing_receipt: true };
    case 'reimbursements': return { statuses: ['APPROVED', 'PAID', 'DRAFT'] };
    case 'bills': return { vendor_ids: [r.vendors[0]] };
    case 'cards': return { statuses: ['ACTIVE', 'LOCKED', 'TERMINATED'] };
  }
}

describe.each(await testDatabases())('report agreement (server SQL = aggregateReport over the mirror) on %s', (kind) => {
  const t = useTestApp(kind);
  let f: Fixture;
  let seeded: ReportFixture;
  const now = new Date();

  beforeAll(async () => {
    f = await makeBusiness(t.db, { transactions: 0 });
    seeded = await seedReportRows(t.db, f);
    // Another business's rows must never reach these reports.
    const other = await makeBusiness(t.db, { transactions: 0 });
    await seedReportRows(t.db, other, { seed: 99, transactions: 30 });
  });

  async function check(token: string, rows: Rows, q: ReportQuery) {
    const res = await request(t.app, 'POST', PATH, { token, body: q });
    expect(res.status, `${JSON.stringify(q)} ${res.text}`).toBe(200);
    const matches = ENTITIES[q.collection].query.matches as (row: unknown, filter: unknown) => boolean;
    const filter = ENTITIES[q.collection].query.filter.parse(q.filters ?? {});
    const mine = (rows[q.collection] as unknown[]).filter((row) => matches(row, filter));
    const expected = aggregateReport(mine as RowOf<typeof q.collection>[], q, now);
    expect(reportResultSchema.parse(res.body).rows, JSON.stringify(q)).toEqual(expected);
    return expected.length;
  }

  it('agrees for an admin on every collection, grain, dimension and measure, with and without range and filters', async () => {
    const token = await signIn(t.app, f.email('admin'));
    const rows = await mirrorOf(t.app, token);
    expect(rows.transactions.length).toBeGreaterThan(100);
    expect(rows.bills.length).toBe(30);
    let nonEmpty = 0;
    for (const collection of REPORT_COLLECTIONS) {
      for (const dimension of REPORT_SPECS[collection].dimensions) {
        for (const time_grain of TIME_GRAINS) {
          for (const measure of REPORT_MEASURES) {
            const base = {
              collection, dimension, time_grain, measure,
              ...(dimension === 'tracking_category' && { tracking_category_id: f.tracking[0]!.categoryId }),
              // §9's default from-date (the epoch) for every grain but days and weeks, which would
              // make more periods than a report may have (MAX_REPORT_BUCKETS): theirs start in 2024.
              ...((time_grain === 'day' || time_grain === 'week') && { from: '2024-01-01' }),
            } as ReportQuery;
            nonEmpty += Math.sign(await check(token, rows, base));
            await check(token, rows, { ...base, from: '2025-12-30', to: '2026-03-31', filters: filtersFor(collection, f, seeded) });
          }
        }
      }
    }
    // Every default-range report of the matrix had rows (a matrix of empty answers proves nothing).
    const total = REPORT_COLLECTIONS.reduce((n, c) => n + REPORT_SPECS[c].dimensions.length * TIME_GRAINS.length * REPORT_MEASURES.length, 0);
    expect(nonEmpty).toBe(total);
  }, 240_000);

  it('agrees for an employee and a manager, whose reports cover only the rows they may see', async () => {
    for (const role of ['employee', 'manager'] as const) {
      const token = await signIn(t.app, f.email(role));
      const rows = await mirrorOf(t.app, token);
      expect(rows.transactions.every((x) => role === 'manager' || x.user_id === f.users.employee)).toBe(true);
      for (const collection of REPORT_COLLECTIONS) {
        for (const dimension of REPORT_SPECS[collection].dimensions) {
          for (const measure of REPORT_MEASURES) {
            await check(token, rows, {
              collection, dimension, measure, time_grain: 'month',
              ...(dimension === 'tracking_category' && { tracking_category_id: f.tracking[0]!.categoryId }),
            } as ReportQuery);
          }
        }
      }
    }
  }, 120_000);
});
