/**
 * Seeded pseudo-random numbers for the demo seed. The generator must give byte-identical output
 * for the same options, so nothing here reads Math.random or the clock.
 *
 * Generator: sfc32 (Chris Doty-Humphrey's "Small Fast Counting" generator, PractRand-clean),
 * seeded through splitmix32 so that nearby seeds give unrelated streams.
 */

/** FNV-1a over a label, so each phase of the seed draws from its own named stream. */
function hashLabel(label: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function splitmix32(state: number): () => number {
  let s = state >>> 0;
  return () => {
    s = (s + 0x9e3779b9) | 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const hex = (w: number, shift: number) => HEX[(w >>> shift) & 0xff] as string;

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** A stream for `(seed, label)`: independent phases stay stable when another phase changes. */
  constructor(seed: number, label = '') {
    const mix = splitmix32((seed ^ hashLabel(label)) >>> 0);
    this.a = mix();
    this.b = mix();
    this.c = mix();
    this.d = mix();
    // Warm up: the first outputs of sfc32 are still correlated with the seed words.
    for (let i = 0; i < 12; i++) this.uint32();
  }

  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform integer in [min, max] (inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('Rng.pick on an empty list');
    return item;
  }

  /** Standard normal draw (Box–Muller; one value per call keeps the stream simple). */
  normal(): number {
    const u = 1 - this.next(); // (0, 1]: log(0) would be -Infinity
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /** Log-normal with the given median and shape (sigma of the underlying normal). */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** Fisher–Yates shuffle into a new array. */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const tmp = out[i] as T;
      out[i] = out[j] as T;
      out[j] = tmp;
    }
    return out;
  }

  /** A random RFC 4122 version-4-shaped UUID, drawn from this stream (so deterministic). */
  uuid(): string {
    const w0 = this.uint32();
    const w1 = (this.uint32() & 0xffff0fff) | 0x00004000; // version nibble = 4
    const w2 = (this.uint32() & 0x3fffffff) | 0x80000000; // variant bits = 10
    const w3 = this.uint32();
    const h = hex;
    return (
      h(w0, 24) + h(w0, 16) + h(w0, 8) + h(w0, 0) + '-' +
      h(w1, 24) + h(w1, 16) + '-' + h(w1, 8) + h(w1, 0) + '-' +
      h(w2, 24) + h(w2, 16) + '-' + h(w2, 8) + h(w2, 0) +
      h(w3, 24) + h(w3, 16) + h(w3, 8) + h(w3, 0)
    );
  }
}

/**
 * Picks from a fixed weighted list in O(log n): build once, draw many times (the transaction loop
 * draws hundreds of thousands of times).
 */
export class WeightedPicker<T> {
  private readonly cumulative: Float64Array;
  private readonly total: number;

  constructor(private readonly items: readonly T[], weights: readonly number[]) {
    if (items.length === 0 || items.length !== weights.length) {
      throw new Error('WeightedPicker needs one positive weight per item');
    }
    this.cumulative = new Float64Array(items.length);
    let sum = 0;
    weights.forEach((w, i) => {
      sum += Math.max(0, w);
      this.cumulative[i] = sum;
    });
    if (sum <= 0) throw new Error('WeightedPicker needs a positive total weight');
    this.total = sum;
  }

  pick(rng: Rng): T {
    const x = rng.next() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.cumulative[mid] as number) > x) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo] as T;
  }
}
