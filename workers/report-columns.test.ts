import { describe, expect, it } from 'vitest';
import type { Transaction } from '../schema/entities/transaction.ts';
import { REPORT_SPECS, TIME_GRAINS, REPORT_MEASURES, aggregateReport, type ReportDimension, type ReportQuery } from '../schema/reports.ts';
import type { TransactionFilter } from '../schema/transaction-query.ts';
import { createTransactionEngine, toEngineRow, type EngineRow } from './collections/transactions.ts';
import { columnReport, reportsOverColumns, transactionReportOverColumns } from './report-columns.ts';
import { makeTransactions, seededRandom, testUuid } from './test-fixtures.ts';
import { FILTERS, reference, textOf } from './testing/engine-reference.ts';

/**
 * Issue 33: a transactions report over the engine's columns is `aggregateReport` over the rows
 * as shown, for every dimension the columns hold × measure × time grain, whatever the filter.
 */
const NOW = new Date('2025-10-01T12:00:00Z');
const DIMENSIONS = REPORT_SPECS.transactions.dimensions.filter((d) => d !== 'tracking_category');
const STATES: Transaction['state'][] = ['PENDING', 'CLEARED', 'DECLINED', 'REVERSED'];
const CURRENCIES = ['USD', 'EUR', 'JPY'];
/** Instants at month, quarter and year ends, some with offsets whose UTC day is the next or previous one. */
const EDGES = [
  '2024-12-31T23:59:59.999Z', '2025-01-01T00:00:00Z', '2024-12-31T20:00:00-05:00', '2025-01-01T02:00:00+03:00',
  '2025-03-31T21:30:00-05:00', '2025-04-01T01:00:00+03:00', '2025-06-30T23:00:00-01:00', '2025-07-01T00:30:00+00:30',
  '2025-09-30T22:00:00-04:00', '2025-02-28T23:30:00-00:45', '2025-09-29', '2025-10-02T00:00:00Z',
];

/** Rows in every state, currency and card, with null departments, and occurred_at on the period edges. */
function randomRows(n: number, seed: number): Transaction[] {
  const rand = seededRandom(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  return makeTransactions(n, seed, { users: 2, departments: 3 }).map((t) => ({
    ...t,
    state: pick(STATES),
    currency: pick(CURRENCIES),
    card_id: testUuid(7, 1 + Math.floor(rand() * 4)),
    occurred_at: rand() < 0.3 ? pick(EDGES).replace(/^\d{4}-\d{2}-\d{2}$/, (d) => `${d}T12:00:00Z`) : t.occurred_at,
    department_id: rand() < 0.2 ? null : t.department_id,
  }));
}

/** An engine keeping 20 bodies, over rows then edited locally (as shown: re-coded, declined, moved across a month end) and some removed. */
function setup(seed = 3) {
  const engine = createTransactionEngine<EngineRow>(textOf, { bodies: 20 });
  const rows = new Map(randomRows(700, seed).map((t) => [t.id, toEngineRow(t)]));
  engine.upsertMany([...rows.values()]);
  const rand = seededRandom(seed + 1);
  const edited = [...rows.values()].filter(() => rand() < 0.15).map((r, i) => toEngineRow({
    ...r,
    department_id: i % 3 === 0 ? testUuid(3, 9) : r.department_id,
    state: i % 3 === 1 ? 'DECLINED' : r.state,
    occurred_at: i % 3 === 2 ? '2025-04-30T23:30:00-02:00' : r.occurred_at,
  }));
  engine.upsertMany(edited);
  for (const r of edited) rows.set(r.id, r);
  const removed = [...rows.keys()].filter((_, i) => i % 17 === 0);
  engine.removeMany(removed);
  for (const id of removed) rows.delete(id);
  // New rows take the freed slots.
  const added = randomRows(30, seed + 2).map((t, i) => toEngineRow({ ...t, id: testUuid(9, i + 1) }));
  engine.upsertMany(added);
  for (const r of added) rows.set(r.id, r);
  return { engine, rows: [...rows.values()] };
}

const bodyReport = (rows: EngineRow[], q: ReportQuery) => {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const matched = reference(rows, (q.filters ?? {}) as TransactionFilter, 'occurred_desc').map((id) => byId.get(id)!);
  return aggregateReport(matched, q, NOW);
};

describe('transaction reports over the engine columns (issue 33)', () => {
  it('answers every dimension but a tracking category over the columns', () => {
    expect(DIMENSIONS.every(reportsOverColumns)).toBe(true);
    expect(reportsOverColumns('tracking_category')).toBe(false);
    const { engine } = setup();
    const q: ReportQuery = { collection: 'transactions', time_grain: 'month', dimension: 'tracking_category', tracking_category_id: testUuid(6, 1), measure: 'sum' };
    expect(transactionReportOverColumns(engine, q, NOW)).toBeNull();
    expect(transactionReportOverColumns(engine, { ...q, collection: 'bills', dimension: 'department' }, NOW)).toBeNull();
  });

  const ranges: [string, Pick<ReportQuery, 'from' | 'to'>, readonly ReportDimension[], number][] = [
    ['the default range', {}, DIMENSIONS, 2_000],
    ['a range starting and ending inside quarters', { from: '2025-02-15', to: '2025-07-01' }, DIMENSIONS, 2_000],
    ['a range of centuries (its days in a Map)', { from: '1970-01-01', to: '2199-12-31' }, ['none', 'status'], 200],
  ];
  it.each(ranges)('equals aggregateReport for every dimension × measure × grain, %s', (_name, range, dimensions, least) => {
    const { engine, rows } = setup();
    let groups = 0;
    for (const dimension of dimensions) {
      for (const measure of REPORT_MEASURES) {
        for (const time_grain of TIME_GRAINS) {
          const q: ReportQuery = { collection: 'transactions', dimension, measure, time_grain, ...range };
          const got = transactionReportOverColumns(engine, q, NOW)!;
          const want = bodyReport(rows, q);
          expect(got.rows, `${dimension} × ${measure} × ${time_grain}`).toEqual(want);
          expect(got.scanned).toBe(rows.length);
          groups += want.length;
        }
      }
    }
    // Not vacuous: many groups, several currencies, UTC days moved by their offsets.
    expect(groups).toBeGreaterThan(least);
  });

  it.each(FILTERS)('equals aggregateReport over the rows the filter matches: %s', (_name, filters) => {
    const { engine, rows } = setup(5);
    const dims: ReportDimension[] = ['none', 'department', 'merchant', 'status'];
    for (const [i, dimension] of dims.entries()) {
      const q: ReportQuery = { collection: 'transactions', dimension, measure: REPORT_MEASURES[i % 3]!, time_grain: TIME_GRAINS[i + 1]!, filters };
      const got = transactionReportOverColumns(engine, q, NOW)!;
      expect(got.rows).toEqual(bodyReport(rows, q));
      expect(got.scanned).toBe(reference(rows, filters, 'occurred_desc').length);
    }
  });

  it('buckets by the UTC day: an offset across midnight moves a row into the next month and quarter', () => {
    const engine = createTransactionEngine<EngineRow>(textOf, { bodies: 2 });
    const base = makeTransactions(3, 1);
    const rows = [
      { ...base[0]!, occurred_at: '2025-03-31T21:30:00-05:00' },
      { ...base[1]!, occurred_at: '2025-04-01T01:00:00+03:00' },
      { ...base[2]!, occurred_at: '2025-03-31T10:00:00Z' },
    ].map((t) => toEngineRow({ ...t, state: 'CLEARED', currency: 'USD' }));
    engine.upsertMany(rows);
    const q: ReportQuery = { collection: 'transactions', dimension: 'none', measure: 'count', time_grain: 'quarter' };
    expect(transactionReportOverColumns(engine, q, NOW)!.rows).toEqual([
      { period: '2025-01-01', key: null, currency: null, value: 2, count: 2 },
      { period: '2025-04-01', key: null, currency: null, value: 1, count: 1 },
    ]);
    // The list's date filter still takes the date as written (the row on 03-31 at -05:00 is in March).
    expect(transactionReportOverColumns(engine, { ...q, filters: { to: '2025-03-31' } }, NOW)!.scanned).toBe(2);
  });

  it('gives the same report after a snapshot and a restore (the UTC days are kept)', () => {
    const { engine, rows } = setup(7);
    const restored = createTransactionEngine<EngineRow>(textOf, { bodies: 20 });
    restored.restore(structuredClone(engine.snapshot()));
    for (const dimension of ['none', 'department', 'card'] as const) {
      const q: ReportQuery = { collection: 'transactions', dimension, measure: 'sum', time_grain: 'month' };
      expect(transactionReportOverColumns(restored, q, NOW)!.rows).toEqual(bodyReport(rows, q));
    }
    const old = engine.snapshot() as unknown as { columns: { utcDays?: unknown } };
    delete old.columns.utcDays;
    expect(() => restored.restore(old as never)).toThrow(/UTC days/);
  });

  it('uses a Map of the groups met when the grid would be large (merchant × day, many merchants)', () => {
    const engine = createTransactionEngine<EngineRow>(textOf, { bodies: 20 });
    const rows = randomRows(3_000, 11).map((t, i) => toEngineRow({ ...t, merchant_name: `Shop ${i % 1_500}` }));
    engine.upsertMany(rows);
    const q: ReportQuery = { collection: 'transactions', dimension: 'merchant', measure: 'average', time_grain: 'day' };
    const got = transactionReportOverColumns(engine, q, NOW)!;
    expect(got.rows).toEqual(bodyReport(rows, q));
    expect(got.rows.length).toBeGreaterThan(1_000);
  });

  it('visits the matches in slot order (as from 2^18 matches) with the same answer', () => {
    const { engine, rows } = setup(19);
    const view = (engine.matchingColumns({}).columns as unknown as { view(): Parameters<typeof columnReport>[0] }).view();
    for (const [dimension, measure, time_grain] of [['department', 'sum', 'month'], ['card', 'average', 'week'], ['none', 'count', 'day']] as const) {
      const q: ReportQuery = { collection: 'transactions', dimension, measure, time_grain };
      const { slots } = engine.matchingColumns({});
      expect(columnReport(view, slots, q, NOW, 100)).toEqual(bodyReport(rows, q));
    }
  });

  it('reads the slots it is given: none gives no rows', () => {
    const { engine } = setup();
    const view = (engine.matchingColumns({}).columns as unknown as { view(): Parameters<typeof columnReport>[0] }).view();
    expect(columnReport(view, [], { collection: 'transactions', dimension: 'user', measure: 'sum', time_grain: 'span' }, NOW)).toEqual([]);
  });
});
