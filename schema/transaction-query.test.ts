import { describe, expect, it } from 'vitest';
import { compareTransactions, matchesTransactionFilter, queryTerms, transactionFilterSchema } from './transaction-query.ts';
import type { Transaction } from './entities/transaction.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const txn = (over: Partial<Transaction> = {}): Transaction => ({
  id: id(1), card_id: id(2), user_id: id(3), merchant_name: 'Delta', merchant_category: 'Airlines',
  amount: 45000, currency: 'USD', occurred_at: '2026-03-01T10:00:00.000Z', state: 'CLEARED', memo: null,
  gl_account_id: null, department_id: id(20), location_id: null, tracking: {}, receipt_ids: [],
  business_id: id(9), change_seq: 1, updated_at: '2026-03-01T10:00:00.000Z', deleted: false, ...over,
});

describe('transaction filter', () => {
  it.each([
    [{}, true],
    [{ user_ids: [id(3)] }, true],
    [{ user_ids: [id(4)] }, false],
    [{ department_ids: [id(20), id(21)] }, true],
    [{ location_ids: [id(50)] }, false],
    [{ amount_min: 45000, amount_max: 45000 }, true],
    [{ amount_min: 45001 }, false],
    [{ from: '2026-03-01', to: '2026-03-01' }, true],
    [{ from: '2026-03-02' }, false],
    [{ to: '2026-02-28' }, false],
    [{ missing_coding: true }, true],
    [{ missing_coding: false }, false],
    [{ missing_receipt: true }, true],
    [{ missing_receipt: false }, false],
    [{ states: ['PENDING'] }, false],
    // Issue 25: one currency's transactions only.
    [{ currency: 'USD' }, true],
    [{ currency: 'EUR' }, false],
    [{ currency: 'USD', states: ['CLEARED'] }, true],
  ])('%j → %s', (filter, expected) => {
    expect(matchesTransactionFilter(txn(), transactionFilterSchema.parse(filter))).toBe(expected);
  });
  it('parses URL-style values', () => {
    expect(transactionFilterSchema.parse({ user_ids: `${id(1)},${id(2)}`, missing_coding: 'true', amount_min: '100' })).toEqual({
      user_ids: [id(1), id(2)], missing_coding: true, amount_min: 100,
    });
  });
  it('takes a currency as an ISO 4217 code only (a URL\'s "usd" or "dollars" is refused, not read as every currency)', () => {
    expect(transactionFilterSchema.parse({ currency: 'EUR' })).toEqual({ currency: 'EUR' });
    expect(transactionFilterSchema.safeParse({ currency: 'usd' }).success).toBe(false);
    expect(transactionFilterSchema.safeParse({ currency: 'dollars' }).success).toBe(false);
  });
  it('splits query terms', () => {
    expect(queryTerms('  Delta  airlines, NYC ')).toEqual(['delta', 'airlines', 'nyc']);
    expect(queryTerms("Trader Joe's")).toEqual(['trader', "joe's"]);
    expect(queryTerms(undefined)).toEqual([]);
  });
  it('sorts newest first with ties broken by id, and by amount', () => {
    const a = txn({ id: id(1), occurred_at: '2026-03-01T10:00:00.000Z', amount: 5 });
    const b = txn({ id: id(2), occurred_at: '2026-03-02T10:00:00.000Z', amount: 1 });
    const c = txn({ id: id(3), occurred_at: '2026-03-02T10:00:00.000Z', amount: 9 });
    expect([a, b, c].sort(compareTransactions('occurred_desc')).map((t) => t.id)).toEqual([id(3), id(2), id(1)]);
    expect([a, b, c].sort(compareTransactions('occurred_asc')).map((t) => t.id)).toEqual([id(1), id(2), id(3)]);
    expect([a, b, c].sort(compareTransactions('amount_desc')).map((t) => t.amount)).toEqual([9, 5, 1]);
  });
});
