import { describe, expect, it } from 'vitest';
import { parseUrlSearch, stringifyUrlSearch } from './url-search.ts';

describe('url search serialisation', () => {
  it.each([
    [{}, ''],
    [{ q: 'coffee' }, '?q=coffee'],
    [{ q: '' }, ''],
    [{ user_ids: ['a', 'b'] }, '?user_ids=a%2Cb'],
    [{ user_ids: [] }, ''],
    [{ amount_min: 1250, missing_coding: true }, '?amount_min=1250&missing_coding=true'],
    [{ q: undefined, open: null }, ''],
    [{ q: 'a&b=c' }, '?q=a%26b%3Dc'],
  ])('stringifies %j as %s', (input, expected) => {
    expect(stringifyUrlSearch(input)).toBe(expected);
  });

  it('parses every value as a string, with or without the leading ?', () => {
    expect(parseUrlSearch('?q=a%26b%3Dc&amount_min=12')).toEqual({ q: 'a&b=c', amount_min: '12' });
    expect(parseUrlSearch('user_ids=a,b')).toEqual({ user_ids: 'a,b' });
    expect(parseUrlSearch('')).toEqual({});
  });

  it('round-trips', () => {
    const search = { q: 'uber eats', department_ids: ['x', 'y'], page: 3 };
    expect(parseUrlSearch(stringifyUrlSearch(search))).toEqual({
      q: 'uber eats',
      department_ids: 'x,y',
      page: '3',
    });
  });
});
