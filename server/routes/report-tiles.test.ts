import { beforeAll, describe, expect, it } from 'vitest';
import { reportResultSchema, type ReportCollection } from '../../schema/reports.ts';
import { overviewTiles } from '../../schema/report-tiles.ts';
import { seedReportRows } from '../domain/reporting/report-fixture.ts';
import { useTestApp } from '../test-app.ts';
import { testDatabases } from '../test-db.ts';
import { makeBusiness, request, signIn, type Fixture } from '../test-fixtures.ts';

/**
 * Issue 25 item 6, "totals that add up": each tile of the Reports overview (amount, count,
 * average) for each currency, as the page builds it from the report endpoint's rows, equals the
 * same figure recomputed here from the table rows themselves with plain SQL and arithmetic (not
 * the report code, not its status lists): per currency, never every currency's count beside one
 * currency's sum, and amount ÷ count is the average shown.
 */
const PATH = '/v1/auth/reporting/generate-report-from-query';
const FROM = '2020-01-01';
const TO = '2030-12-31';

/** Each collection's table, date, amount and the statuses a total includes, written out here on purpose. */
const RAW: Record<ReportCollection, { sql: string; included: string[] }> = {
  transactions: {
    sql: `SELECT amount::float8 AS amount, currency, state AS status FROM transactions
           WHERE business_id = $1 AND NOT deleted AND occurred_at >= '${FROM}T00:00:00Z' AND occurred_at < '2031-01-01T00:00:00Z'`,
    included: ['PENDING', 'CLEARED'],
  },
  reimbursements: {
    sql: `SELECT amount::float8 AS amount, currency, status FROM reimbursements
           WHERE business_id = $1 AND NOT deleted AND transaction_date BETWEEN '${FROM}' AND '${TO}'`,
    included: ['SUBMITTED', 'APPROVED', 'PAID'],
  },
  bills: {
    sql: `SELECT amount::float8 AS amount, currency, status FROM bills
           WHERE business_id = $1 AND NOT deleted AND invoice_date BETWEEN '${FROM}' AND '${TO}'`,
    included: ['PENDING_APPROVAL', 'APPROVED', 'SCHEDULED', 'PAID', 'RECONCILED', 'PAYMENT_FAILED'],
  },
  cards: {
    sql: `SELECT limit_amount::float8 AS amount, limit_currency AS currency, status FROM cards
           WHERE business_id = $1 AND NOT deleted AND created_at >= '${FROM}T00:00:00Z' AND created_at < '2031-01-01T00:00:00Z'`,
    included: ['REQUESTED', 'SHIPPED', 'ACTIVE', 'LOCKED', 'SUSPENDED'],
  },
};

describe.each(await testDatabases())('report tiles recomputed from the rows, per currency, on %s', (kind) => {
  const t = useTestApp(kind);
  let f: Fixture;

  beforeAll(async () => {
    f = await makeBusiness(t.db, { transactions: 0 });
    await seedReportRows(t.db, f, { transactions: 200 });
  });

  it.each(['transactions', 'reimbursements', 'bills', 'cards'] as const)('%s: amount, count and average of each currency agree with the rows and with each other', async (collection) => {
    const token = await signIn(t.app, f.email('admin'));
    const res = await request(t.app, 'POST', PATH, {
      token, body: { collection, time_grain: 'span', dimension: 'none', measure: 'sum', from: FROM, to: TO },
    });
    expect(res.status, res.text).toBe(200);
    const reportRows = reportResultSchema.parse(res.body).rows;

    const raw = await t.db.query<{ amount: number; currency: string; status: string }>(RAW[collection].sql, [f.businessId]);
    const expected = new Map<string, { sum: number; count: number }>();
    let declinedOrUncounted = 0;
    for (const r of raw) {
      if (!RAW[collection].included.includes(r.status)) {
        declinedOrUncounted++;
        continue;
      }
      const e = expected.get(r.currency) ?? { sum: 0, count: 0 };
      e.sum += Number(r.amount);
      e.count++;
      expected.set(r.currency, e);
    }
    // The fixture has rows left out of every total, and more than one currency: the test can fail.
    expect(declinedOrUncounted).toBeGreaterThan(0);
    expect(expected.size).toBeGreaterThan(1);
    const all = [...expected.values()].reduce((n, e) => n + e.count, 0);

    for (const [currency, e] of expected) {
      const tiles = overviewTiles(reportRows, currency, collection);
      expect(tiles.sum, `${collection} ${currency} amount`).toBe(e.sum);
      expect(tiles.count, `${collection} ${currency} count`).toBe(e.count);
      expect(tiles.average, `${collection} ${currency} average`).toBe(Math.round(e.sum / e.count));
      // The tiles agree with each other: amount ÷ count is the average, to the minor unit.
      expect(Math.abs(tiles.sum! / tiles.count - tiles.average!)).toBeLessThanOrEqual(0.5);
      expect(tiles.countLabel).toContain(currency);
      expect(tiles.amountLabel).toContain(currency);
      // What they leave out is said: the other currencies' items, by number.
      const others = all - e.count;
      if (others > 0) expect(tiles.scope).toContain(`${others.toLocaleString('en-US')} `);
    }
    if (collection === 'transactions') {
      const tiles = overviewTiles(reportRows, 'USD', 'transactions');
      expect(tiles.scope).toContain('pending and cleared, excluding declined and reversed');
    }
    // A currency with no rows: zero of it, nothing averaged, never another currency's count.
    const none = overviewTiles(reportRows, 'CHF', collection);
    expect({ sum: none.sum, count: none.count, average: none.average }).toEqual({ sum: 0, count: 0, average: null });
  });
});
