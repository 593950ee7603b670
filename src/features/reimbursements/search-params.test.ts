import { describe, expect, it } from 'vitest';
import { filterFromSearch, parseReimbursementsSearch, queryKey } from './search-params.ts';

const ID = '0b7e3f36-5c1d-4a53-9d55-7a2f6c1e0a11';

describe('parseReimbursementsSearch', () => {
  it.each([
    [{}, {}],
    [{ q: 'uber', status: 'draft', open: ID }, { q: 'uber', status: 'draft', open: ID }],
    [{ status: 'all' }, {}],
    [{ status: 'DRAFT' }, {}],
    [{ status: 'nope', q: 'taxi' }, { q: 'taxi' }],
    [{ open: 'not-a-uuid', status: 'paid' }, { status: 'paid' }],
    [{ q: '', status: '' }, {}],
    [{ q: 42 }, { q: '42' }],
    [{ unknown: 'x', q: 'a' }, { q: 'a' }],
  ])('%j → %j', (raw, expected) => {
    expect(parseReimbursementsSearch(raw)).toEqual(expected);
  });
});

describe('filterFromSearch', () => {
  it.each([
    [{}, {}],
    [{ status: 'rejected' as const }, { statuses: ['REJECTED'] }],
    [{ status: 'all' as const, q: '  hotel ' }, { q: 'hotel' }],
    [{ status: 'draft' as const, q: 'taxi' }, { q: 'taxi', statuses: ['DRAFT'] }],
  ])('%j → %j', (search, filter) => {
    expect(filterFromSearch(search)).toEqual(filter);
  });

  it('gives equal filters equal keys', () => {
    expect(queryKey(filterFromSearch({ status: 'paid', q: 'a' }))).toBe(queryKey({ statuses: ['PAID'], q: 'a' }));
    expect(queryKey(filterFromSearch({ status: 'paid' }))).not.toBe(queryKey(filterFromSearch({})));
  });
});
