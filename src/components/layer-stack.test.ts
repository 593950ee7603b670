import { describe, expect, it } from 'vitest';
import { hasModalLayer, isTopLayer, popLayer, pushLayer } from './layer-stack.ts';

describe('layer stack', () => {
  it('makes the newest layer the top one', () => {
    const stack = pushLayer(pushLayer([], 1), 2);
    expect(isTopLayer(stack, 2)).toBe(true);
    expect(isTopLayer(stack, 1)).toBe(false);
  });

  it('gives the top back to the layer underneath when the top one closes', () => {
    expect(isTopLayer(popLayer([1, 2], 2), 1)).toBe(true);
  });

  it('closing a layer underneath leaves the top one on top', () => {
    expect(popLayer([1, 2, 3], 2)).toEqual([1, 3]);
    expect(isTopLayer(popLayer([1, 2, 3], 2), 3)).toBe(true);
  });

  it('re-pushing a layer moves it to the top instead of listing it twice', () => {
    expect(pushLayer([1, 2], 1)).toEqual([2, 1]);
  });

  it('has no top layer when empty', () => {
    expect(isTopLayer([], 1)).toBe(false);
  });

  it('knows whether a modal layer is open anywhere in the stack', () => {
    expect(hasModalLayer([1, 2], new Set([1]))).toBe(true);
    expect(hasModalLayer([2, 3], new Set([1]))).toBe(false);
    expect(hasModalLayer([], new Set([1]))).toBe(false);
  });
});
