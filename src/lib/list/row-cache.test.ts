import { describe, expect, it } from 'vitest';
import { RowCache } from './row-cache.ts';

const rows = (page: number, size: number) => Array.from({ length: size }, (_, i) => `r${page * size + i}`);

describe('RowCache', () => {
  it('reports the pages a visible range needs, once', () => {
    const c = new RowCache<string>(10);
    expect(c.missing(5, 25)).toEqual([0, 1, 2]);
    c.markInFlight(0);
    c.markInFlight(1);
    expect(c.missing(5, 25)).toEqual([2]);
    expect(c.missing(-5, -1)).toEqual([]);
    expect(c.missing(7, 3)).toEqual([]);
  });

  it('stores pages and reads rows by index', () => {
    const c = new RowCache<string>(10);
    c.markInFlight(1);
    expect(c.put(1, rows(1, 10), c.gen)).toBe(true);
    expect(c.get(13)).toBe('r13');
    expect(c.get(3)).toBeUndefined();
    expect(c.missing(10, 19)).toEqual([]);
    expect(c.slice(9, 11)).toEqual([undefined, 'r10', 'r11']);
  });

  it('drops answers from an older generation', () => {
    const c = new RowCache<string>(10);
    const old = c.gen;
    c.markInFlight(0);
    c.reset(false);
    expect(c.put(0, rows(0, 10), old)).toBe(false);
    expect(c.get(0)).toBeUndefined();
    expect(c.missing(0, 9)).toEqual([0]);
  });

  it('keeps stale rows visible on a data refresh until refetched', () => {
    const c = new RowCache<string>(10);
    c.put(0, rows(0, 10), c.gen);
    c.reset(true);
    expect(c.get(2)).toBe('r2');
    expect(c.missing(0, 9)).toEqual([0]);
    c.put(0, ['fresh'], c.gen);
    expect(c.get(0)).toBe('fresh');
  });

  it('clears rows on a new query', () => {
    const c = new RowCache<string>(10);
    c.put(0, rows(0, 10), c.gen);
    c.reset(false);
    expect(c.get(2)).toBeUndefined();
  });

  it('lets a failed page be asked again', () => {
    const c = new RowCache<string>(10);
    c.markInFlight(0);
    c.fail(0, c.gen);
    expect(c.missing(0, 0)).toEqual([0]);
  });

  it('evicts the pages farthest from the newest one', () => {
    const c = new RowCache<string>(10, 3);
    for (const p of [0, 1, 2, 3]) c.put(p, rows(p, 10), c.gen);
    expect(c.size).toBe(3);
    expect(c.get(0)).toBeUndefined();
    expect(c.get(35)).toBe('r35');
    c.put(9, rows(9, 10), c.gen);
    expect(c.get(15)).toBeUndefined();
    expect(c.get(25)).toBe('r25');
  });
});
