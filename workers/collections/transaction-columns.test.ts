import { describe, expect, it } from 'vitest';
import type { TransactionFilter } from '../../schema/transaction-query.ts';
import { makeTransactions, seededRandom, testUuid } from '../test-fixtures.ts';
import { dayOf, TransactionColumns } from './transaction-columns.ts';
import { compileTransactionFilter, toEngineRow } from './transactions.ts';

const rand = seededRandom(21);
const rows = makeTransactions(600, 4).map((t, i) => ({
  ...toEngineRow(t),
  card_id: testUuid(7, 1 + (i % 5)),
  currency: ['USD', 'EUR', 'GBP'][i % 3]!,
  receipt_ids: rand() < 0.5 ? [testUuid(9, i)] : [],
  fraud_status: rand() < 0.1 ? ('FLAGGED' as const) : rand() < 0.5 ? null : ('CLEARED_BY_USER' as never),
  state: (['PENDING', 'CLEARED', 'DECLINED', 'REVERSED'] as const)[Math.floor(rand() * 4)]!,
}));

const FILTERS: TransactionFilter[] = [
  {},
  { user_ids: [testUuid(2, 1), testUuid(2, 3)] },
  { user_ids: [testUuid(2, 999)] },
  { card_ids: [testUuid(7, 2)] },
  { department_ids: [testUuid(3, 1)] },
  { location_ids: [testUuid(4, 2)] },
  { gl_account_ids: [testUuid(5, 1), testUuid(5, 3)] },
  { merchant: 'Starbucks' },
  { merchant: 'starbucks' },
  { merchant: 'Nobody' },
  { states: ['DECLINED', 'REVERSED'] },
  { currency: 'EUR' },
  { currency: 'JPY' },
  { amount_min: 0, amount_max: 50_000 },
  { amount_min: 150_000 },
  { from: '2025-01-01' },
  { to: '2025-03-31' },
  { from: '2025-02-10', to: '2025-02-10' },
  { missing_coding: true, missing_receipt: false },
  { missing_coding: false, missing_receipt: true },
  { held: true },
  { held: false, states: ['PENDING'] },
  { q: 'only text' },
];

describe('TransactionColumns (issue 33): the filter over typed columns means what compileTransactionFilter means', () => {
  const columns = new TransactionColumns();
  rows.forEach((row, slot) => columns.set(slot, row));

  it.each(FILTERS.map((f) => [JSON.stringify(f), f] as const))('%s', (_name, filter) => {
    const bySlot = columns.compile(filter);
    const byRow = compileTransactionFilter(filter);
    expect(bySlot === null).toBe(byRow === null);
    const got = rows.flatMap((_, slot) => (!bySlot || bySlot(slot) ? [slot] : []));
    const want = rows.flatMap((row, slot) => (!byRow || byRow(row) ? [slot] : []));
    expect(got).toEqual(want);
  });

  it('follows a row that changes in its slot', () => {
    const row = { ...rows[0]!, gl_account_id: null, merchant_name: 'Brand New Merchant', occurred_at: '2030-05-06T07:08:09.000Z' };
    columns.set(0, row);
    expect(columns.compile({ merchant: 'Brand New Merchant' })!(0)).toBe(true);
    expect(columns.compile({ missing_coding: true, from: '2030-05-06', to: '2030-05-06' })!(0)).toBe(true);
    expect(columns.compile({ to: '2030-05-05' })!(0)).toBe(false);
  });

  it('swaps repeated strings for shared copies without changing a value, and leaves a frozen row alone', () => {
    const a = JSON.parse(JSON.stringify(rows[1])) as (typeof rows)[number];
    const b = JSON.parse(JSON.stringify(rows[1])) as (typeof rows)[number];
    const fresh = new TransactionColumns();
    fresh.set(0, a);
    fresh.set(1, b);
    expect(a).toEqual(rows[1]);
    expect(b).toEqual(rows[1]);
    const frozen = Object.freeze({ ...rows[2]! });
    expect(() => fresh.set(2, frozen)).not.toThrow();
  });

  it('orders days as their strings', () => {
    expect(dayOf('2025-02-10T23:59:59.999Z')).toBe(20250210);
    expect(dayOf('2025-02-10')).toBeLessThan(dayOf('2025-02-11'));
    expect(dayOf('2024-12-31')).toBeLessThan(dayOf('2025-01-01'));
  });
});
