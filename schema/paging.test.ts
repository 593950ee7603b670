import { describe, expect, it } from 'vitest';
import { clampPageIndex, nextPageIndex, pageLabel, stripEmpty } from './paging.ts';

describe('§5/§9 paging rules', () => {
  it.each([
    [0, 0, 50, 0],
    [3, 0, 50, 0],
    [-2, 120, 50, 0],
    [1, 120, 50, 1],
    [2, 120, 50, 2],
    [9, 120, 50, 2],
    [1.7, 120, 50, 1],
    [4, 100, 50, 1],
  ])('clamps index %d (total %d, size %d) to %d', (index, total, size, expected) => {
    expect(clampPageIndex(index, total, size)).toBe(expected);
  });

  it.each([
    [0, 50, 0, '0'],
    [0, 50, 1, '1'],
    [0, 50, 2, '1-2 of 2'],
    [0, 50, 120, '1-50 of 120'],
    [2, 50, 120, '101-120 of 120'],
  ])('labels page %d size %d total %d as %s', (index, size, total, label) => {
    expect(pageLabel(index, size, total)).toBe(label);
  });

  it('formats each number of the label with the given count format', () => {
    const count = (n: number) => new Intl.NumberFormat('en-US').format(n);
    expect(pageLabel(0, 50, 20149, count)).toBe('1-50 of 20,149');
    expect(pageLabel(40, 50, 20149, count)).toBe('2,001-2,050 of 20,149');
  });

  it('strips empty values, keeps empty strings unless asked, joins arrays, ISO dates', () => {
    const d = new Date('2026-01-02T03:04:05.000Z');
    expect(stripEmpty({ a: undefined, b: null, c: '', d: [], e: ['x', 'y'], f: d, g: 0, h: false })).toEqual({
      c: '',
      e: 'x,y',
      f: '2026-01-02T03:04:05.000Z',
      g: '0',
      h: 'false',
    });
    expect(stripEmpty({ c: '' }, { stripEmptyStrings: true })).toEqual({});
  });

  it('resets to the first page when search or page size changes', () => {
    const eq = (a: string, b: string) => a === b;
    expect(nextPageIndex({ search: 'a', pageSize: 50, index: 3 }, { search: 'a', pageSize: 50, index: 4 }, eq)).toBe(4);
    expect(nextPageIndex({ search: 'a', pageSize: 50, index: 3 }, { search: 'b', pageSize: 50, index: 3 }, eq)).toBe(0);
    expect(nextPageIndex({ search: 'a', pageSize: 50, index: 3 }, { search: 'a', pageSize: 100, index: 3 }, eq)).toBe(0);
  });
});
