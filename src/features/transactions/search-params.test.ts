import { describe, expect, it } from 'vitest';
import {
  ariaSort,
  filterFromSearch,
  hasStructuredFilter,
  nextSort,
  parseTransactionsSearch,
  queryKey,
} from './search-params.ts';

const A = '2b0f1e4c-1c1d-4a8e-9a43-5f3a7b1c2d3e';
const B = '6c9d7e2a-3b4c-4d5e-8f6a-7b8c9d0e1f2a';

describe('parseTransactionsSearch', () => {
  it.each([
    ['empty', {}, {}],
    ['text search', { q: 'uber' }, { q: 'uber' }],
    ['numeric text search stays a string', { q: 123 }, { q: '123' }],
    ['csv ids', { user_ids: `${A},${B}` }, { user_ids: [A, B] }],
    ['a bad id drops only that parameter', { user_ids: 'nope', q: 'x' }, { q: 'x' }],
    ['amounts coerce', { amount_min: '1250', amount_max: '99' }, { amount_min: 1250, amount_max: 99 }],
    ['fractional minor units are refused', { amount_min: '12.5' }, {}],
    ['dates', { from: '2025-01-01', to: '2025-13-01' }, { from: '2025-01-01' }],
    ['missing coding', { missing_coding: 'true' }, { missing_coding: true }],
    ['one currency (issue 25)', { currency: 'EUR' }, { currency: 'EUR' }],
    ['a currency that is no ISO code drops only that parameter', { currency: 'eur', q: 'x' }, { q: 'x' }],
    ['sort', { sort: 'amount_desc' }, { sort: 'amount_desc' }],
    ['unknown sort dropped', { sort: 'sideways' }, {}],
    ['page', { page: '4' }, { page: 4 }],
    ['negative page dropped', { page: '-1' }, {}],
    ['open drawer', { open: A }, { open: A }],
    ['empty values stripped', { q: '', department_ids: '' }, {}],
    ['unknown keys ignored', { utm: 'x' }, {}],
  ])('%s', (_name, raw, expected) => {
    expect(parseTransactionsSearch(raw)).toEqual(expected);
  });
});

describe('filterFromSearch / queryKey', () => {
  it('keeps only filter keys', () => {
    expect(filterFromSearch({ q: 'a', sort: 'amount_asc', page: 2, open: A, amount_min: 5, currency: 'GBP' })).toEqual({
      q: 'a',
      amount_min: 5,
      currency: 'GBP',
    });
  });
  it('gives equal keys to equal queries in any key order', () => {
    expect(queryKey({ q: 'a', amount_min: 1 }, 'occurred_desc')).toBe(
      queryKey({ amount_min: 1, q: 'a', user_ids: [] }, 'occurred_desc'),
    );
    expect(queryKey({ q: 'a' }, 'occurred_desc')).not.toBe(queryKey({ q: 'a' }, 'occurred_asc'));
    expect(queryKey({ q: 'a' }, 'occurred_desc')).not.toBe(queryKey({ q: 'b' }, 'occurred_desc'));
    expect(queryKey({ currency: 'USD' }, 'occurred_desc')).not.toBe(queryKey({ currency: 'EUR' }, 'occurred_desc'));
  });
  it('tells structured filters from text search', () => {
    expect(hasStructuredFilter({ q: 'x' })).toBe(false);
    expect(hasStructuredFilter({ missing_coding: false })).toBe(true);
    expect(hasStructuredFilter({ currency: 'USD' })).toBe(true);
  });
});

describe('sorting by header', () => {
  it.each([
    ['occurred_desc', 'date', 'occurred_asc'],
    ['occurred_asc', 'date', 'occurred_desc'],
    ['amount_asc', 'date', 'occurred_desc'],
    ['occurred_desc', 'amount', 'amount_desc'],
    ['amount_desc', 'amount', 'amount_asc'],
    ['occurred_desc', 'merchant', 'merchant_asc'],
  ] as const)('%s then click %s → %s', (current, column, expected) => {
    expect(nextSort(current, column)).toBe(expected);
  });
  it.each([
    ['occurred_desc', 'date', 'descending'],
    ['occurred_asc', 'date', 'ascending'],
    ['occurred_asc', 'amount', 'none'],
    ['amount_asc', 'amount', 'ascending'],
    ['merchant_asc', 'merchant', 'ascending'],
    ['merchant_asc', 'date', 'none'],
  ] as const)('%s on %s is %s', (current, column, expected) => {
    expect(ariaSort(current, column)).toBe(expected);
  });
});
