import { describe, expect, it } from 'vitest';
import { rovingTarget, typeAheadTarget } from './roving.ts';

describe('rovingTarget (menu: vertical)', () => {
  it.each([
    ['ArrowDown', 0, 1],
    ['ArrowDown', 2, 0], // wraps to the first
    ['ArrowUp', 0, 2], // wraps to the last
    ['ArrowUp', 2, 1],
    ['Home', 2, 0],
    ['End', 0, 2],
    ['ArrowDown', -1, 0], // nothing focused yet: the first
    ['ArrowUp', -1, 2], // ...or the last
  ])('%s from %i goes to %i of 3', (key, from, to) => {
    expect(rovingTarget(key, from, 3)).toBe(to);
  });

  it('ignores keys that do not move, and the other axis', () => {
    expect(rovingTarget('Enter', 0, 3)).toBeNull();
    expect(rovingTarget('ArrowRight', 0, 3)).toBeNull();
  });

  it('has nowhere to go in an empty menu', () => {
    expect(rovingTarget('ArrowDown', -1, 0)).toBeNull();
  });
});

describe('rovingTarget (tabs: horizontal)', () => {
  it('moves with left and right, and wraps', () => {
    expect(rovingTarget('ArrowRight', 1, 3, 'horizontal')).toBe(2);
    expect(rovingTarget('ArrowRight', 2, 3, 'horizontal')).toBe(0);
    expect(rovingTarget('ArrowLeft', 0, 3, 'horizontal')).toBe(2);
    expect(rovingTarget('ArrowDown', 0, 3, 'horizontal')).toBeNull();
  });
});

describe('typeAheadTarget', () => {
  const labels = ['Sign out', 'Settings', 'Sign out of all devices', 'Acme'];

  it('goes to the next item starting with the letter, after the current one', () => {
    expect(typeAheadTarget('s', 0, labels)).toBe(1);
    expect(typeAheadTarget('S', 1, labels)).toBe(2);
  });

  it('wraps around to the start', () => {
    expect(typeAheadTarget('s', 2, labels)).toBe(0);
    expect(typeAheadTarget('a', 3, labels)).toBe(3);
  });

  it('ignores letters no item starts with, space and named keys', () => {
    expect(typeAheadTarget('z', 0, labels)).toBeNull();
    expect(typeAheadTarget(' ', 0, labels)).toBeNull();
    expect(typeAheadTarget('Enter', 0, labels)).toBeNull();
  });
});
