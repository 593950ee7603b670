import { describe, expect, it } from 'vitest';
import { key } from '../test-keys.ts';
import { currentRow, keyToAction, moveActive } from './keyboard.ts';

describe('keyToAction', () => {
  it.each([
    [key('j'), { type: 'move', delta: 1, extend: false }],
    [key('ArrowDown'), { type: 'move', delta: 1, extend: false }],
    [key('k'), { type: 'move', delta: -1, extend: false }],
    [key('ArrowUp', { shiftKey: true }), { type: 'move', delta: -1, extend: true }],
    [key('x'), { type: 'toggle' }],
    [key(' '), { type: 'toggle' }],
    [key('Enter'), { type: 'open' }],
    [key('Escape'), { type: 'close' }],
    [key('Escape', { inField: true }), { type: 'close' }],
    [key('/'), { type: 'focusSearch' }],
    [key('Home'), { type: 'edge', to: 'first' }],
    [key('j', { inField: true }), null],
    [key('/', { inField: true }), null],
    [key('k', { metaKey: true }), null],
    [key('q'), null],
    [key('J', { shiftKey: true }), { type: 'move', delta: 1, extend: true }],
    [key('PageDown'), { type: 'move', delta: 20, extend: false }],
    [key('c'), { type: 'code' }],
    [key('c', { inField: true }), null],
  ])('%j → %j', (info, expected) => {
    expect(keyToAction(info)).toEqual(expected);
  });
});

describe('moveActive', () => {
  it.each([
    [-1, 1, 10, 0],
    [-1, -1, 10, 9],
    [0, -1, 10, 0],
    [9, 1, 10, 9],
    [4, 20, 10, 9],
    [4, -20, 10, 0],
    [3, 1, 0, -1],
  ])('from %s by %s in %s → %s', (active, delta, total, expected) => {
    expect(moveActive(active, delta, total)).toBe(expected);
  });
});

describe('currentRow', () => {
  it.each([
    [{ key: 'a', index: 4 }, 'a', 10, 4],
    [{ key: 'a', index: 4 }, 'b', 10, -1],
    [{ key: 'a', index: 9 }, 'a', 3, 2],
    [{ key: 'a', index: 0 }, 'a', 0, -1],
    [{ key: 'a', index: -1 }, 'a', 10, -1],
  ])('%j under %s with %i rows → %i', (state, key, total, expected) => {
    expect(currentRow(state, key, total)).toBe(expected);
  });
});
