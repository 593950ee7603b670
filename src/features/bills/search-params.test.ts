import { describe, expect, it } from 'vitest';
import { filterFor, parseBillsSearch, queryKey, STATUS_TABS, tabStatuses } from './search-params.ts';

const ID = '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';

describe('parseBillsSearch', () => {
  it.each([
    [{}, {}],
    [{ q: 'acme', status: 'ready', sort: 'amount_desc', open: ID, new: 'bill' }, { q: 'acme', status: 'ready', sort: 'amount_desc', open: ID, new: 'bill' }],
    // Defaults are never written.
    [{ status: 'all', sort: 'due_date_asc' }, {}],
    // A bad value drops that parameter only.
    [{ status: 'nope', q: 'x' }, { q: 'x' }],
    [{ open: 'not-a-uuid', sort: 'sideways', status: 'paid' }, { status: 'paid' }],
    [{ new: 'vendor', q: '' }, {}],
    [{ q: 123 }, { q: '123' }],
  ])('%j → %j', (raw, expected) => {
    expect(parseBillsSearch(raw)).toEqual(expected);
  });
});

describe('filterFor', () => {
  it('narrows by the tab’s statuses and the trimmed text', () => {
    expect(filterFor('all', undefined)).toEqual({});
    expect(filterFor('all', '  ')).toEqual({});
    expect(filterFor('paid', ' INV-7 ')).toEqual({ q: 'INV-7', statuses: ['PAID', 'RECONCILED'] });
    expect(filterFor('ready', undefined)).toEqual({ statuses: ['APPROVED'] });
    expect(filterFor('failed', undefined)).toEqual({ statuses: ['PAYMENT_FAILED'] });
  });

  it('reaches every status from some tab besides All', () => {
    const reached = new Set(STATUS_TABS.flatMap((t) => [...t.statuses]));
    expect([...reached].sort()).toEqual(
      ['APPROVED', 'CANCELED', 'DRAFT', 'PAID', 'PAYMENT_FAILED', 'PENDING_APPROVAL', 'RECONCILED', 'REJECTED', 'SCHEDULED'],
    );
    expect(tabStatuses('all')).toEqual([]);
  });

  it('gives equal queries equal keys', () => {
    expect(queryKey(filterFor('paid', 'a'), 'due_date_asc')).toBe(queryKey({ statuses: ['PAID', 'RECONCILED'], q: 'a' }, 'due_date_asc'));
    expect(queryKey({}, 'due_date_asc')).not.toBe(queryKey({}, 'amount_desc'));
  });
});
