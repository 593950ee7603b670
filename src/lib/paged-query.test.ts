import { describe, expect, it } from 'vitest';
import { afterAnswer, backAfterRefusal, clampIndex, firstPage, goTo, hasNextPage, isUnprocessable, pageParams, searchKey, withSearch } from './paged-query.ts';

const REFUSED_422 = { error_code: 'REQUEST_7001', message: 'start must be a valid cursor' };
const FORBIDDEN = { error_code: '4005', message: 'This business is inactive.' };

/** Three pages read: cursors for pages 0, 1, 2 and the one after page 2. */
const atThird = () => {
  let p = firstPage('k', 50);
  p = afterAnswer(p, 'c1');
  p = goTo(p, 1);
  p = afterAnswer(p, 'c2');
  p = goTo(p, 2);
  return afterAnswer(p, 'c3');
};

describe('pageParams (§5)', () => {
  it('strips empty values, comma-joins arrays, sends dates as ISO, adds page_size and start', () => {
    const from = new Date(Date.UTC(2026, 10, 1, 8, 30));
    expect(pageParams({ q: '', status: undefined, user_ids: ['a', 'b'], tags: [], none: null, from, n: 0 }, 25, 'cur')).toEqual({
      user_ids: 'a,b', from: '2026-11-01T08:30:00.000Z', n: '0', page_size: '25', start: 'cur',
    });
  });
  it('the first page has no start', () => {
    expect(pageParams({ call: 'transactions.patch' }, 50, undefined)).toEqual({ call: 'transactions.patch', page_size: '50' });
  });
  it('searchKey: the same filters in another order, or with empty values, are the same search', () => {
    expect(searchKey({ a: '1', b: ['x', 'y'], c: '' })).toBe(searchKey({ b: ['x', 'y'], a: '1' }));
    expect(searchKey({ a: '1' })).not.toBe(searchKey({ a: '2' }));
  });
});

describe('position', () => {
  it('a page answer with next makes the next page reachable; null is the last page', () => {
    const p = firstPage('k', 50);
    expect(hasNextPage(p)).toBe(false);
    const q = afterAnswer(p, 'c1');
    expect(q.cursors).toEqual([undefined, 'c1']);
    expect(hasNextPage(q)).toBe(true);
    expect(afterAnswer(q, 'c1')).toBe(q);
    expect(hasNextPage(afterAnswer(q, null))).toBe(false);
  });

  it('clamps the index between 0 and the last known page (§5)', () => {
    const p = atThird();
    expect(p.index).toBe(2);
    expect(goTo(p, 9).index).toBe(3);
    expect(goTo(p, -4).index).toBe(0);
    expect(goTo(p, 1.7).index).toBe(1);
    expect(clampIndex(p, 9, 120)).toBe(2);
    expect(clampIndex(firstPage('k', 50), 3)).toBe(0);
  });

  it('resets to the first page when the search or the page size changes, and not otherwise (§5)', () => {
    const p = atThird();
    expect(withSearch(p, 'k', 50)).toBe(p);
    expect(withSearch(p, 'other', 50)).toEqual({ index: 0, pageSize: 50, cursors: [undefined], search: 'other' });
    expect(withSearch(p, 'k', 100)).toEqual({ index: 0, pageSize: 100, cursors: [undefined], search: 'k' });
  });

  it('re-reading an earlier page that now says "last" drops the cursors after it', () => {
    const p = goTo(atThird(), 1);
    expect(afterAnswer(p, null).cursors).toEqual([undefined, 'c1']);
  });
});

describe('a 422 answer (§8)', () => {
  it('knows a 422 of the catalogue', () => {
    expect(isUnprocessable(REFUSED_422)).toBe(true);
    expect(isUnprocessable(FORBIDDEN)).toBe(false);
    expect(isUnprocessable({ error_code: 'NOPE' })).toBe(false);
  });

  it('past the first page: goes back one page and says so', () => {
    const back = backAfterRefusal(atThird(), REFUSED_422);
    expect(back?.pos.index).toBe(1);
    expect(back?.pos.cursors).toEqual([undefined, 'c1']);
    expect(back?.notice).toBe('That page is no longer available; showing page 2');
  });

  it('at the first page, or another refusal: stays (the list shows the error)', () => {
    expect(backAfterRefusal(firstPage('k', 50), REFUSED_422)).toBeNull();
    expect(backAfterRefusal(atThird(), FORBIDDEN)).toBeNull();
  });
});
