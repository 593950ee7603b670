import { describe, expect, it } from 'vitest';
import { transactionSchema, type Transaction } from './entities/transaction.ts';
import { billSchema, type Bill } from './entities/bill.ts';
import {
  aggregateReport, averageOf, bucketStart, compareReportRows, REPORT_EPOCH, REPORT_MEASURES, REPORT_SPECS, reportQuerySchema, TIME_GRAINS, utcDay,
  type ReportDimension, type ReportMeasure, type ReportRow, type TimeGrain,
} from './reports.ts';

const BIZ = '0b0b0b0b-0000-4000-8000-000000000001';
const id = (kind: number, n: number) => `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const DEPT_A = id(3, 1);
const DEPT_B = id(3, 2);
const GL_1 = id(4, 1);
const GL_2 = id(4, 2);
const NOW = new Date('2026-11-27T12:00:00Z');
const mirrored = { business_id: BIZ, change_seq: 1, updated_at: '2026-01-01T00:00:00.000Z', deleted: false };

let n = 0;
function tx(over: Partial<Transaction>): Transaction {
  n += 1;
  return transactionSchema.parse({
    id: id(1, n), card_id: id(7, 1), user_id: id(2, 1), merchant_name: 'Uber', merchant_category: 'Travel',
    amount: 1000, currency: 'USD', occurred_at: '2026-10-05T12:00:00.000Z', state: 'CLEARED', memo: null,
    gl_account_id: null, department_id: null, location_id: null, tracking: {}, ...mirrored, ...over,
  });
}

function bill(over: Partial<Bill> & { lines: { amount: number; gl: string | null; dept: string | null }[] }): Bill {
  n += 1;
  const { lines, ...rest } = over;
  return billSchema.parse({
    id: id(9, n), vendor_id: id(8, 1), invoice_number: `INV-${n}`, invoice_date: '2026-10-10', due_date: '2026-11-10',
    currency: 'USD', amount: lines.reduce((s, l) => s + l.amount, 0), status: 'APPROVED', created_by: id(2, 1),
    created_at: '2026-10-10T00:00:00.000Z',
    line_items: lines.map((l, i) => ({ id: id(10, n * 10 + i), description: `line ${i}`, amount: l.amount, gl_account_id: l.gl, department_id: l.dept })),
    ...mirrored, ...rest,
  });
}

describe('bucketStart', () => {
  it('starts weeks on Monday, quarters on the first month of the quarter, span at from', () => {
    expect(bucketStart('2026-11-27', 'week')).toBe('2026-11-23'); // a Friday → that Monday
    expect(bucketStart('2026-11-23', 'week')).toBe('2026-11-23'); // a Monday stays
    expect(bucketStart('2026-11-29', 'week')).toBe('2026-11-23'); // a Sunday ends the week
    expect(bucketStart('2027-01-01', 'week')).toBe('2026-12-28'); // across a year end
    expect(bucketStart('2026-08-15', 'quarter')).toBe('2026-07-01');
    expect(bucketStart('2026-12-31', 'quarter')).toBe('2026-10-01');
    expect(bucketStart('2026-02-28', 'month')).toBe('2026-02-01');
    expect(bucketStart('2026-02-28', 'year')).toBe('2026-01-01');
    expect(bucketStart('2026-02-28', 'span', '2025-01-01')).toBe('2025-01-01');
  });

  it('takes the UTC day of a date-time with an offset', () => {
    expect(utcDay('2026-10-31T23:30:00-02:00')).toBe('2026-11-01');
    expect(utcDay('2026-10-31T23:30:00.000Z')).toBe('2026-10-31');
    expect(utcDay('2026-10-31')).toBe('2026-10-31');
  });
});

describe('averageOf', () => {
  it('rounds half away from zero, as PostgreSQL round(numeric) does', () => {
    expect(averageOf(5, 2)).toBe(3);
    expect(averageOf(-5, 2)).toBe(-3);
    expect(averageOf(7, 3)).toBe(2);
    expect(averageOf(0, 0)).toBe(0);
  });
});

describe('aggregateReport', () => {
  const rows = [
    tx({ department_id: DEPT_A, amount: 1000, occurred_at: '2026-10-05T12:00:00.000Z' }),
    tx({ department_id: DEPT_A, amount: 500, occurred_at: '2026-10-20T12:00:00.000Z' }),
    tx({ department_id: DEPT_B, amount: 300, occurred_at: '2026-10-21T12:00:00.000Z' }),
    tx({ department_id: null, amount: 200, occurred_at: '2026-11-02T12:00:00.000Z' }),
    tx({ department_id: DEPT_A, amount: 9000, currency: 'EUR', occurred_at: '2026-11-03T12:00:00.000Z' }),
    tx({ department_id: DEPT_A, amount: 7777, state: 'DECLINED', occurred_at: '2026-10-06T12:00:00.000Z' }),
    tx({ department_id: DEPT_A, amount: 6666, state: 'REVERSED', occurred_at: '2026-10-07T12:00:00.000Z' }),
    tx({ department_id: DEPT_B, amount: 40, state: 'PENDING', occurred_at: '2026-10-08T12:00:00.000Z' }),
  ];

  it('sums spend by month and department, one row per currency; declined and reversed never count', () => {
    const out = aggregateReport(rows, { collection: 'transactions', time_grain: 'month', dimension: 'department', measure: 'sum' }, NOW);
    expect(out).toEqual([
      { period: '2026-10-01', key: DEPT_A, currency: 'USD', value: 1500, count: 2 },
      { period: '2026-10-01', key: DEPT_B, currency: 'USD', value: 340, count: 2 },
      { period: '2026-11-01', key: DEPT_A, currency: 'EUR', value: 9000, count: 1 },
      { period: '2026-11-01', key: null, currency: 'USD', value: 200, count: 1 },
    ]);
  });

  it('counts rows per group whatever their currency', () => {
    const out = aggregateReport(rows, { collection: 'transactions', time_grain: 'month', dimension: 'department', measure: 'count' }, NOW);
    expect(out.map((r) => [r.period, r.key, r.currency, r.value])).toEqual([
      ['2026-10-01', DEPT_A, null, 2],
      ['2026-10-01', DEPT_B, null, 2],
      ['2026-11-01', DEPT_A, null, 1],
      ['2026-11-01', null, null, 1],
    ]);
  });

  it('averages in whole minor units; the default span is one bucket from the epoch to today', () => {
    const out = aggregateReport(rows, { collection: 'transactions', time_grain: 'span', dimension: 'none', measure: 'average' }, NOW);
    expect(out).toEqual([
      { period: '1970-01-01', key: null, currency: 'EUR', value: 9000, count: 1 },
      { period: '1970-01-01', key: null, currency: 'USD', value: 408, count: 5 }, // 2040 / 5
    ]);
  });

  it('keeps only rows within from–to (inclusive, UTC days), and nothing after today by default', () => {
    const later = [...rows, tx({ amount: 1, occurred_at: '2026-12-01T00:00:00.000Z' })];
    const out = aggregateReport(later, { collection: 'transactions', time_grain: 'day', dimension: 'none', measure: 'count', from: '2026-10-20', to: '2026-10-21' }, NOW);
    expect(out).toEqual([
      { period: '2026-10-20', key: null, currency: null, value: 1, count: 1 },
      { period: '2026-10-21', key: null, currency: null, value: 1, count: 1 },
    ]);
    const all = aggregateReport(later, { collection: 'transactions', time_grain: 'year', dimension: 'none', measure: 'count' }, NOW);
    expect(all).toEqual([{ period: '2026-01-01', key: null, currency: null, value: 6, count: 6 }]);
  });

  it('splits a bill by its lines under a coding dimension, counting the bill once per group', () => {
    const bills = [
      bill({ lines: [{ amount: 700, gl: GL_1, dept: DEPT_A }, { amount: 300, gl: GL_2, dept: DEPT_A }, { amount: 50, gl: GL_1, dept: null }] }),
      bill({ status: 'DRAFT', lines: [{ amount: 999, gl: GL_1, dept: DEPT_A }] }),
    ];
    const byGl = aggregateReport(bills, { collection: 'bills', time_grain: 'month', dimension: 'gl_account', measure: 'sum' }, NOW);
    expect(byGl).toEqual([
      { period: '2026-10-01', key: GL_1, currency: 'USD', value: 750, count: 1 },
      { period: '2026-10-01', key: GL_2, currency: 'USD', value: 300, count: 1 },
    ]);
    const byVendor = aggregateReport(bills, { collection: 'bills', time_grain: 'month', dimension: 'vendor', measure: 'sum' }, NOW);
    expect(byVendor).toEqual([{ period: '2026-10-01', key: id(8, 1), currency: 'USD', value: 1050, count: 1 }]);
  });
});

describe('reportQuerySchema', () => {
  it('refuses a dimension the collection does not have, a tracking report without its category, and bad filters', () => {
    const bad = reportQuerySchema.safeParse({ collection: 'transactions', time_grain: 'month', dimension: 'vendor', measure: 'sum' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['dimension']);
    const noCategory = reportQuerySchema.safeParse({ collection: 'bills', time_grain: 'month', dimension: 'tracking_category', measure: 'sum' });
    expect(noCategory.error?.issues[0]?.path).toEqual(['tracking_category_id']);
    const badFilter = reportQuerySchema.safeParse({
      collection: 'transactions', time_grain: 'month', dimension: 'none', measure: 'sum', filters: { states: 'NOPE' },
    });
    expect(badFilter.error?.issues[0]?.path[0]).toBe('filters');
    const unknownFilter = reportQuerySchema.safeParse({ collection: 'cards', time_grain: 'month', dimension: 'none', measure: 'count', filters: { vendor_ids: [] } });
    expect(unknownFilter.error?.issues).toMatchObject([{ code: 'unrecognized_keys', keys: ['vendor_ids'], path: ['filters'] }]);
    const reversed = reportQuerySchema.safeParse({ collection: 'cards', time_grain: 'day', dimension: 'status', measure: 'count', from: '2026-02-01', to: '2026-01-01' });
    expect(reversed.error?.issues[0]?.path).toEqual(['from']);
    expect(reportQuerySchema.safeParse({ collection: 'cards', time_grain: 'day', dimension: 'status', measure: 'count', from: '2026-01-01' }).success).toBe(true);
    // Absurd ranges: a date out of bounds, or too many periods for the interval (§9's default from-date is the epoch).
    const ancient = reportQuerySchema.safeParse({ collection: 'cards', time_grain: 'year', dimension: 'none', measure: 'count', from: '0001-01-01' });
    expect(ancient.error?.issues.map((i) => i.path)).toContainEqual(['from']);
    const daily = reportQuerySchema.safeParse({ collection: 'transactions', time_grain: 'day', dimension: 'none', measure: 'sum' });
    expect(daily.error?.issues[0]).toMatchObject({ path: ['time_grain'], message: expect.stringMatching(/choose a shorter range or a longer interval/) });
    expect(reportQuerySchema.safeParse({ collection: 'transactions', time_grain: 'month', dimension: 'none', measure: 'sum' }).success).toBe(true);
  });
});

describe('aggregateReport equals a plain reduce, table-driven over a fixture', () => {
  // A deterministic fixture: 600 transactions over two years, three currencies, every state,
  // null and set coding, tracking on some; and bills split across GL accounts.
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const CATEGORY = id(6, 1);
  const OPTIONS = [id(6, 11), id(6, 12)];
  const txs = Array.from({ length: 600 }, () =>
    tx({
      amount: Math.round((rand() - 0.1) * 50_000),
      currency: pick(['USD', 'USD', 'EUR', 'JPY']),
      state: pick(['PENDING', 'CLEARED', 'CLEARED', 'DECLINED', 'REVERSED'] as const),
      occurred_at: new Date(Date.UTC(2025, 0, 1) + Math.floor(rand() * 700 * 86_400_000)).toISOString(),
      department_id: pick([DEPT_A, DEPT_B, null]),
      gl_account_id: pick([GL_1, GL_2, null]),
      merchant_name: pick(['Uber', 'Lyft', 'Delta']),
      tracking: rand() < 0.5 ? { [CATEGORY]: pick(OPTIONS) } : {},
    }),
  );

  /** The obvious implementation: one string key per group, the row's parts, no shortcuts. */
  function plainReduce(rows: readonly Transaction[], q: { time_grain: TimeGrain; dimension: ReportDimension; measure: ReportMeasure; from?: string; to: string }) {
    const spec = REPORT_SPECS.transactions;
    const groups = new Map<string, ReportRow>();
    for (const t of rows) {
      const day = utcDay(t.occurred_at);
      if (!spec.counts(t) || day < (q.from ?? REPORT_EPOCH) || day > q.to) continue;
      const period = bucketStart(day, q.time_grain, q.from ?? REPORT_EPOCH);
      const key = spec.key(t, q.dimension, CATEGORY);
      const currency = q.measure === 'count' ? null : t.currency;
      const k = JSON.stringify([period, key, currency]);
      const g = groups.get(k) ?? { period, key, currency, value: 0, count: 0 };
      g.value += t.amount;
      g.count += 1;
      groups.set(k, g);
    }
    return [...groups.values()]
      .map((g) => ({ ...g, value: q.measure === 'count' ? g.count : q.measure === 'sum' ? g.value : averageOf(g.value, g.count) }))
      .sort(compareReportRows);
  }

  const cases = TIME_GRAINS.flatMap((time_grain) =>
    REPORT_SPECS.transactions.dimensions.flatMap((dimension) => REPORT_MEASURES.map((measure) => ({ time_grain, dimension, measure }))),
  );
  it.each(cases)('$time_grain × $dimension × $measure', ({ time_grain, dimension, measure }) => {
    const ranges = [{ to: '2026-11-27' }, { from: '2025-03-15', to: '2026-02-10' }];
    for (const range of ranges) {
      const q = { collection: 'transactions' as const, time_grain, dimension, measure, tracking_category_id: CATEGORY, ...range };
      expect(aggregateReport(txs, q, NOW)).toEqual(plainReduce(txs, q));
    }
  });
});
