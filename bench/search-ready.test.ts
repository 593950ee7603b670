import { describe, expect, it } from 'vitest';
import { searchReadyQuery } from './search-ready.ts';

describe('searchReadyQuery', () => {
  it.each([
    { name: 'the most hits', local: [3, 40, 7], online: [3, 40, 7], q: 'b' },
    { name: 'only among queries that count the same online', local: [3, 40, 7], online: [3, 39, 7], q: 'c' },
    { name: 'the first of equals', local: [5, 5, 1], online: [5, 5, 1], q: 'a' },
  ])('$name', ({ local, online, q }) => expect(searchReadyQuery(['a', 'b', 'c'], local, online)).toBe(q));

  it('refuses when no query counts the same locally and online', () => {
    expect(() => searchReadyQuery(['a'], [1], [2])).toThrow(/counts the same/);
  });
});
