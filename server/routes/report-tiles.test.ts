import { beforeAll, describe, expect, it } from 'vitest';
import { reportResultSchema, type ReportCollection } from '../../schema/reports.ts';
import { missingTiles, overviewTiles } from '../../schema/report-tiles.ts';
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
    // One receipt on every third transaction: "Missing receipts" then counts some rows and not others.
    const receipt = crypto.randomUUID();
    await t.db.query(
      `INSERT INTO receipts (id, business_id, user_id, content_type, size, sha256, bytes) VALUES ($1, $2, $3, 'image/png', 1, $4, '\\x00')`,
      [receipt, f.businessId, f.users.admin, 'a'.repeat(64)],
    );
    await t.db.query(
      `INSERT INTO transaction_receipts (transaction_id, receipt_id, business_id, attached_by)
         SELECT id, $2, business_id, $3 FROM (SELECT id, business_id, row_number() OVER (ORDER BY id) AS n FROM transactions WHERE business_id = $1) x WHERE n % 3 = 0`,
      [f.businessId, receipt, f.users.admin],
    );
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

  it('transactions: "Missing receipts" and "Missing coding" count the selected currency only, in the states the other tiles count', async () => {
    const token = await signIn(t.app, f.email('admin'));
    const ask = async (body: Record<string, unknown>) => {
      const res = await request(t.app, 'POST', PATH, { token, body: { collection: 'transactions', time_grain: 'span', measure: 'sum', from: FROM, to: TO, ...body } });
      expect(res.status, res.text).toBe(200);
      return reportResultSchema.parse(res.body).rows;
    };
    // The page's two reports: the ungrouped one filtered to missing receipts, and the GL account grouping.
    const receipts = await ask({ dimension: 'none', filters: { missing_receipt: true } });
    const coding = await ask({ dimension: 'gl_account' });

    const raw = await t.db.query<{ currency: string; state: string; gl: string | null; receipts: number }>(
      `SELECT t.currency, t.state, t.gl_account_id::text AS gl,
              (SELECT count(*)::int FROM transaction_receipts tr JOIN receipts rc ON rc.id = tr.receipt_id WHERE tr.transaction_id = t.id AND NOT rc.deleted) AS receipts
         FROM transactions t WHERE t.business_id = $1 AND NOT t.deleted AND t.occurred_at >= '${FROM}T00:00:00Z' AND t.occurred_at < '2031-01-01T00:00:00Z'`,
      [f.businessId],
    );
    const spend = raw.filter((r) => RAW.transactions.included.includes(r.state));
    const currencies = [...new Set(spend.map((r) => r.currency))];
    expect(currencies.length).toBeGreaterThan(1);
    const allNoReceipt = spend.filter((r) => r.receipts === 0).length;
    const allUncoded = spend.filter((r) => r.gl === null).length;
    for (const currency of currencies) {
      const mine = spend.filter((r) => r.currency === currency);
      const noReceipt = mine.filter((r) => r.receipts === 0).length;
      const uncoded = mine.filter((r) => r.gl === null).length;
      const tiles = missingTiles(receipts, coding, currency, 'transactions');
      expect(tiles.receipts, `${currency} missing receipts`).toEqual({ label: `Missing receipts · ${currency}`, count: noReceipt });
      expect(tiles.coding, `${currency} missing coding`).toEqual({ label: `Missing coding · ${currency}`, count: uncoded });
      // Every currency's figure (what the tiles once showed) is another number: the test can fail.
      expect(allNoReceipt).toBeGreaterThan(noReceipt);
      expect(allUncoded).toBeGreaterThanOrEqual(uncoded);
      expect(tiles.caption).toContain(`${currency} transactions only: pending and cleared, excluding declined and reversed`);
      // The Currency filter (the server's SQL, as the list's click-through asks) narrows to the same rows.
      const narrowed = await ask({ dimension: 'none', filters: { missing_receipt: true, currency } });
      expect(narrowed.map((r) => [r.currency, r.count])).toEqual(noReceipt > 0 ? [[currency, noReceipt]] : []);
    }
    // The fixture has rows with and without a receipt, and uncoded ones.
    expect(allNoReceipt).toBeGreaterThan(0);
    expect(allNoReceipt).toBeLessThan(spend.length);
    expect(allUncoded).toBeGreaterThan(0);
  });
});

