import { describe, expect, it } from 'vitest';
import { filterFromSearch, hasStructuredFilter, isPhysicalOf, kindValue, parseCardsSearch, queryKey } from './search-params.ts';

const ID = '0b7e3f36-5c1d-4a53-9d55-7a2f6c1e0a11';
const ID2 = '1b7e3f36-5c1d-4a53-9d55-7a2f6c1e0a12';

describe('parseCardsSearch', () => {
  it.each([
    [{}, {}],
    [{ view: 'managed', q: 'travel', open: ID }, { view: 'managed', q: 'travel', open: ID }],
    [{ view: 'mine', sort: 'name_asc' }, {}],
    [{ view: 'everyone', sort: 'limit_desc' }, { sort: 'limit_desc' }],
    [{ statuses: 'ACTIVE,LOCKED' }, { statuses: ['ACTIVE', 'LOCKED'] }],
    [{ statuses: 'ACTIVE,NOPE' }, {}],
    [{ user_ids: `${ID},${ID2}`, department_ids: ID }, { user_ids: [ID, ID2], department_ids: [ID] }],
    [{ is_physical: 'true' }, { is_physical: true }],
    [{ is_physical: false }, { is_physical: false }],
    [{ is_physical: 'maybe' }, {}],
    [{ open: 'not-a-uuid', new: 'issue' }, { new: 'issue' }],
    [{ new: 'steal' }, {}],
    [{ q: '', statuses: '' }, {}],
  ])('%j → %j', (raw, expected) => {
    expect(parseCardsSearch(raw)).toEqual(expected);
  });
});

describe('filterFromSearch', () => {
  it('keeps the filter keys only, trims the text and drops it when blank', () => {
    expect(filterFromSearch({ view: 'managed', q: '  travel ', statuses: ['LOCKED'], open: ID, is_physical: false })).toEqual({
      q: 'travel', statuses: ['LOCKED'], is_physical: false,
    });
    expect(filterFromSearch({ q: '   ' })).toEqual({});
  });

  it('tells a structured filter from a text search', () => {
    expect(hasStructuredFilter({ q: 'x' })).toBe(false);
    expect(hasStructuredFilter({ is_physical: false })).toBe(true);
  });

  it('gives equal queries equal keys whatever the key order, and different sorts different keys', () => {
    expect(queryKey({ q: 'a', statuses: ['ACTIVE'] }, 'name_asc')).toBe(queryKey({ statuses: ['ACTIVE'], q: 'a' }, 'name_asc'));
    expect(queryKey({}, 'name_asc')).not.toBe(queryKey({}, 'limit_desc'));
  });

  it('maps the kind select to is_physical and back', () => {
    expect(isPhysicalOf('physical')).toBe(true);
    expect(isPhysicalOf('virtual')).toBe(false);
    expect(isPhysicalOf('')).toBeUndefined();
    expect(kindValue(true)).toBe('physical');
    expect(kindValue(false)).toBe('virtual');
    expect(kindValue(undefined)).toBe('');
  });
});
