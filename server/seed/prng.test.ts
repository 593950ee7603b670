import { describe, expect, it } from 'vitest';
import { Rng, WeightedPicker } from './prng.ts';

const draw = (rng: Rng, n: number) => Array.from({ length: n }, () => rng.uint32());

describe('Rng', () => {
  it('repeats a stream for the same seed and label, and differs otherwise', () => {
    expect(draw(new Rng(1, 'a'), 8)).toEqual(draw(new Rng(1, 'a'), 8));
    expect(draw(new Rng(1, 'a'), 8)).not.toEqual(draw(new Rng(1, 'b'), 8));
    expect(draw(new Rng(1, 'a'), 8)).not.toEqual(draw(new Rng(2, 'a'), 8));
  });

  it('draws floats in [0, 1) and integers within inclusive bounds, hitting both ends', () => {
    const rng = new Rng(42);
    const ints = new Set<number>();
    for (let i = 0; i < 5_000; i++) {
      const x = rng.next();
      expect(x >= 0 && x < 1).toBe(true);
      ints.add(rng.int(3, 7));
    }
    expect([...ints].sort()).toEqual([3, 4, 5, 6, 7]);
  });

  it('makes RFC 4122 version-4 UUIDs', () => {
    const rng = new Rng(9);
    const ids = Array.from({ length: 1_000 }, () => rng.uuid());
    const v4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(ids.filter((id) => !v4.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('has a log-normal whose median is the one asked for', () => {
    const rng = new Rng(5);
    const xs = Array.from({ length: 4_001 }, () => rng.logNormal(40, 0.8)).sort((a, b) => a - b);
    expect(xs[2_000]).toBeGreaterThan(36);
    expect(xs[2_000]).toBeLessThan(44);
  });

  it('shuffles into a permutation without touching the input', () => {
    const input = [1, 2, 3, 4, 5, 6];
    const out = new Rng(3).shuffle(input);
    expect(input).toEqual([1, 2, 3, 4, 5, 6]);
    expect([...out].sort()).toEqual(input);
  });
});

describe('WeightedPicker', () => {
  it('picks in proportion to the weights and never a zero-weight item', () => {
    const picker = new WeightedPicker(['a', 'b', 'c'], [1, 3, 0]);
    const rng = new Rng(11);
    const counts = { a: 0, b: 0, c: 0 };
    for (let i = 0; i < 8_000; i++) counts[picker.pick(rng) as 'a' | 'b' | 'c']++;
    expect(counts.c).toBe(0);
    expect(counts.b / counts.a).toBeGreaterThan(2.6);
    expect(counts.b / counts.a).toBeLessThan(3.4);
  });

  it.each([
    { items: [], weights: [] },
    { items: ['a'], weights: [1, 2] },
    { items: ['a', 'b'], weights: [0, 0] },
  ])('refuses $items / $weights', ({ items, weights }) => {
    expect(() => new WeightedPicker(items, weights)).toThrow();
  });
});
