import { describe, expect, it } from 'vitest';
import { transactionSchema, type Transaction } from './entities/transaction.ts';
import { missingTiles, overviewTiles, unkeyedCount } from './report-tiles.ts';
import { aggregateReport, type ReportQuery, type ReportRow } from './reports.ts';
import { matchesTransactionFilter, transactionFilterSchema } from './transaction-query.ts';

/**
 * Issue 25, "totals that add up", from feed rows: the Reports overview's five tiles as the page
 * builds them (the worker's filter and aggregation, then `overviewTiles` / `missingTiles`) equal
 * each figure recomputed here by plain loops over the rows, for each currency. The fixture mixes
 * currencies and states so that an all-currency count, or one with declined rows, differs.
 */
const id = (a: number, n: number) => `00000000-0000-4000-8${String(a).padStart(3, '0')}-${String(n).padStart(12, '0')}`;
const CURRENCIES = ['USD', 'EUR', 'GBP'] as const;
const STATES = ['CLEARED', 'PENDING', 'DECLINED', 'CLEARED', 'REVERSED', 'CLEARED', 'PENDING'] as const;

/** Rows as the change feed brings them: a mix of currencies, states, receipts and coding. */
const FEED: Transaction[] = Array.from({ length: 240 }, (_, i) =>
  transactionSchema.parse({
    id: id(1, i + 1), card_id: id(2, 1 + (i % 3)), user_id: id(3, 1 + (i % 4)), merchant_name: `Merchant ${i % 9}`, merchant_category: 'Travel',
    amount: 500 + ((i * 7919) % 90_000) - (i % 17 === 0 ? 20_000 : 0),
    currency: CURRENCIES[i % 5 === 0 ? 1 : i % 7 === 0 ? 2 : 0],
    occurred_at: `2026-${String(1 + (i % 10)).padStart(2, '0')}-${String(1 + (i % 27)).padStart(2, '0')}T10:00:00.000Z`,
    state: STATES[i % STATES.length], memo: null,
    gl_account_id: i % 3 === 0 ? null : id(5, 1 + (i % 2)), department_id: null, location_id: null, tracking: {},
    receipt_ids: i % 4 === 0 ? [] : [id(9, i)],
    business_id: id(8, 1), change_seq: i + 1, updated_at: '2026-11-01T00:00:00.000Z', deleted: false,
  }),
);

const RANGE = { from: '2026-01-01', to: '2026-12-31' };
const NOW = new Date('2026-12-31T12:00:00Z');

/** What the worker answers: the table filter over the mirror's rows, then the shared aggregation. */
function report(q: Omit<ReportQuery, 'collection' | 'from' | 'to'>): ReportRow[] {
  const filter = transactionFilterSchema.parse(q.filters ?? {});
  const matched = FEED.filter((t) => matchesTransactionFilter(t, filter));
  return aggregateReport(matched, { collection: 'transactions', ...RANGE, ...q }, NOW);
}

/** The figures written out by hand: spend is pending and cleared, never declined or reversed. */
function recompute(currency: string) {
  const spend = FEED.filter((t) => (t.state === 'PENDING' || t.state === 'CLEARED') && t.currency === currency);
  const sum = spend.reduce((s, t) => s + t.amount, 0);
  return {
    sum,
    count: spend.length,
    average: spend.length ? Math.round(sum / spend.length) : null,
    missingReceipts: spend.filter((t) => t.receipt_ids.length === 0).length,
    missingCoding: spend.filter((t) => t.gl_account_id === null).length,
  };
}

describe('report tiles recomputed from feed rows, per currency (issue 25)', () => {
  const totals = report({ time_grain: 'span', dimension: 'none', measure: 'sum' });
  const receipts = report({ time_grain: 'span', dimension: 'none', measure: 'sum', filters: { missing_receipt: true } });
  const coding = report({ time_grain: 'span', dimension: 'gl_account', measure: 'sum' });

  it('the fixture can fail: currencies differ, and rows are left out of every tile', () => {
    const all = FEED.filter((t) => t.state === 'PENDING' || t.state === 'CLEARED');
    expect(FEED.length).toBeGreaterThan(all.length);
    for (const c of CURRENCIES) {
      const mine = recompute(c);
      expect(mine.missingReceipts).toBeGreaterThan(0);
      expect(mine.missingCoding).toBeGreaterThan(0);
      // Every currency's count (what the tiles showed before) is not this currency's.
      expect(all.filter((t) => t.receipt_ids.length === 0).length).toBeGreaterThan(mine.missingReceipts);
      expect(all.filter((t) => t.gl_account_id === null).length).toBeGreaterThan(mine.missingCoding);
    }
  });

  it.each(CURRENCIES)('%s: the five tiles are that currency\'s, in the same states', (currency) => {
    const want = recompute(currency);
    const tiles = overviewTiles(totals, currency, 'transactions');
    const missing = missingTiles(receipts, coding, currency, 'transactions');
    expect({ sum: tiles.sum, count: tiles.count, average: tiles.average }).toEqual({ sum: want.sum, count: want.count, average: want.average });
    expect(missing.receipts).toEqual({ label: `Missing receipts · ${currency}`, count: want.missingReceipts });
    expect(missing.coding).toEqual({ label: `Missing coding · ${currency}`, count: want.missingCoding });
    // The caption says which currency and states they count.
    expect(missing.caption).toBe(`Missing receipts and coding count ${currency} transactions only: pending and cleared, excluding declined and reversed.`);
    // The count tile and the to-do tiles cover the same items: none counts more than the count.
    expect(missing.receipts!.count).toBeLessThanOrEqual(tiles.count);
    expect(missing.coding!.count).toBeLessThanOrEqual(tiles.count);
  });

  it('a currency with no rows counts none; no currency counts none; a view without the tiles has none', () => {
    expect(missingTiles(receipts, coding, 'CHF', 'transactions')).toMatchObject({ receipts: { count: 0 }, coding: { count: 0 } });
    expect(unkeyedCount(receipts, null)).toBe(0);
    expect(missingTiles(null, null, 'USD', 'cards')).toEqual({ receipts: null, coding: null, caption: '' });
    expect(missingTiles(null, coding, 'USD', 'reimbursements').caption).toBe(
      'Missing coding counts USD claims only: submitted, approved and paid, excluding drafts, rejected and canceled.',
    );
  });

  it('a count report (currency null) would be every currency\'s: the tiles read sum reports, one row per currency', () => {
    const counted = report({ time_grain: 'span', dimension: 'none', measure: 'count', filters: { missing_receipt: true } });
    expect(counted.every((r) => r.currency === null)).toBe(true);
    expect(unkeyedCount(counted, 'USD')).toBe(0);
    expect(receipts.map((r) => r.currency).sort()).toEqual([...CURRENCIES].sort());
  });
});
