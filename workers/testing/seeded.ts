/**
 * Deterministic ids and randomness for tests and benchmarks (a leaf: nothing else is loaded, so
 * bench/engine-scale.ts measures the engine's heap without the test mirror's modules).
 */
export const BUSINESS_ID = '0b0b0b0b-0000-4000-8000-000000000001';

/** A v4-shaped uuid from a number, so ids sort like the numbers they encode. */
export function testUuid(kind: number, n: number): string {
  const hex = n.toString(16).padStart(12, '0');
  return `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${hex}`;
}

export function seededRandom(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x100000000;
  };
}
