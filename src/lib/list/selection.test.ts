import { describe, expect, it } from 'vitest';
import {
  applyRange,
  emptySelection,
  headerCheckState,
  rangeBounds,
  selectAll,
  toggleRow,
} from './selection.ts';

const ids = (s: { ids: ReadonlySet<string> }) => [...s.ids].sort();

describe('selection', () => {
  it('toggles a row and moves the anchor', () => {
    const one = toggleRow(emptySelection, 3, 'c');
    expect(ids(one)).toEqual(['c']);
    expect(one.anchor).toBe(3);
    const none = toggleRow(one, 3, 'c');
    expect(ids(none)).toEqual([]);
    expect(emptySelection.ids.size).toBe(0); // never mutated
  });

  it.each([
    [null, 4, [4, 4]],
    [2, 5, [2, 5]],
    [7, 3, [3, 7]],
    [5, 5, [5, 5]],
  ] as const)('anchor %s, shift-click %s → range %j', (anchor, index, expected) => {
    expect(rangeBounds({ ids: new Set(), anchor }, index)).toEqual(expected);
  });

  it('a range takes the anchor row state', () => {
    const start = { ids: new Set(['a', 'x']), anchor: 0 };
    expect(ids(applyRange(start, ['a', 'b', 'c'], true))).toEqual(['a', 'b', 'c', 'x']);
    expect(ids(applyRange(start, ['a', 'b', 'c'], false))).toEqual(['x']);
    expect(applyRange(start, ['b'], true).anchor).toBe(0);
  });

  it('selects all matching ids', () => {
    const all = selectAll(['a', 'b', 'a']);
    expect(ids(all)).toEqual(['a', 'b']);
    expect(all.anchor).toBeNull();
  });

  it.each([
    [0, 10, 'none'],
    [3, 10, 'some'],
    [10, 10, 'all'],
    [0, 0, 'none'],
  ] as const)('%s of %s selected → header %s', (selected, total, expected) => {
    expect(headerCheckState(selected, total)).toBe(expected);
  });
});
