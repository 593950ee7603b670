/**
 * The two integer tables under the text index (search-index.ts, issue 33):
 * - `Vocabulary`: every distinct token once (a string and its id), with a trigram index over
 *   the tokens, so "which words contain this term" is answered over the vocabulary (thousands
 *   of words) instead of over the rows (a million texts);
 * - `TokenPool`: each slot's token ids, all slots in one Uint32Array (no per-row object).
 */

/**
 * A trigram as a small integer: exact, 10 bits per character, when all three are below U+0400
 * (Latin and Greek); otherwise a hash < 0, which other trigrams may share (candidates are
 * verified with `includes`, so a shared code costs only extra verification).
 */
export function gramCode(s: string, i: number): number {
  const a = s.charCodeAt(i);
  const b = s.charCodeAt(i + 1);
  const c = s.charCodeAt(i + 2);
  if ((a | b | c) < 1024) return (a << 20) | (b << 10) | c;
  const h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b ^ 0x5bd1e995, 0x85ebca77) ^ Math.imul(c ^ 0x27d4eb2f, 0xc2b2ae3d);
  return -1 - ((h ^ (h >>> 15)) & 0x3fffffff);
}

import { queryTerms } from '../schema/transaction-query.ts';
import { grownTo } from './typed-arrays.ts';

const EMPTY: readonly number[] = [];
/** Space-separated chunks whose token ids are kept (merchants, names, codes repeat across rows). */
const CACHED_CHUNKS = 100_000;
/** Terms whose token sets are kept (a user types a handful; the benchmark's 200 fit). */
const CACHED_TERMS = 1_024;

export class Vocabulary {
  private tokens: string[] = [];
  private idOf = new Map<string, number>();
  /** Trigram code → ids of the tokens holding it (ascending, each once). */
  private grams = new Map<number, number[]>();
  /** term → the ids of the tokens containing it, among the first `upTo` tokens. */
  private cache = new Map<string, { ids: number[]; upTo: number }>();
  private chunks = new Map<string, number[]>();

  get size(): number {
    return this.tokens.length;
  }

  clear(): void {
    this.tokens = [];
    this.idOf.clear();
    this.grams.clear();
    this.cache.clear();
    this.chunks.clear();
  }

  /** Issue 33, the engine's snapshot: every token in id order, one string (a token holds no '\n': `queryTerms` splits at it). */
  snapshot(): string {
    return this.tokens.join('\n');
  }

  /** The tokens of `snapshot()`, interned again in the same order (same ids; the trigram index rebuilt over the words). */
  restore(tokens: string, size: number): void {
    this.clear();
    if (size === 0) return;
    const words = tokens.split('\n');
    if (words.length !== size) throw new Error(`vocabulary snapshot: ${words.length} tokens, ${size} expected`);
    for (const word of words) this.intern(word);
  }

  /**
   * The token ids of a text as `queryTerms` splits it, each once. A space separates tokens for
   * `queryTerms` too, so the text is split at spaces first and each chunk's ids are remembered:
   * most chunks (a merchant, a person's name, a GL code) come back on thousands of rows, and
   * the regular-expression split then runs once per distinct chunk instead of once per row.
   */
  textIds(text: string): number[] {
    const out: number[] = [];
    for (const chunk of text.split(' ')) {
      if (chunk === '') continue;
      let ids = this.chunks.get(chunk);
      if (!ids) {
        if (this.chunks.size >= CACHED_CHUNKS) this.chunks.clear();
        ids = this.ids(queryTerms(chunk));
        this.chunks.set(chunk, ids);
      }
      for (const id of ids) if (!out.includes(id)) out.push(id);
    }
    return out;
  }

  /** The ids of these tokens (interning new ones), each once. */
  ids(tokens: readonly string[]): number[] {
    const out: number[] = [];
    for (const token of tokens) {
      let id = this.idOf.get(token);
      if (id === undefined) id = this.intern(token);
      if (!out.includes(id)) out.push(id);
    }
    return out;
  }

  /** Ids of every token that contains `term` (exact: each candidate verified), ascending. */
  containing(term: string): readonly number[] {
    let hit = this.cache.get(term);
    if (!hit) {
      if (this.cache.size >= CACHED_TERMS) this.cache.clear();
      hit = { ids: this.search(term), upTo: this.tokens.length };
      this.cache.set(term, hit);
    }
    // Tokens interned since: checked one by one (a few per feed batch).
    for (; hit.upTo < this.tokens.length; hit.upTo++) if (this.tokens[hit.upTo]!.includes(term)) hit.ids.push(hit.upTo);
    return hit.ids;
  }

  private search(term: string): number[] {
    const tokens = this.tokens;
    if (term.length < 3) {
      const out: number[] = [];
      for (let id = 0; id < tokens.length; id++) if (tokens[id]!.includes(term)) out.push(id);
      return out;
    }
    const lists: (readonly number[])[] = [];
    for (let i = 0; i + 3 <= term.length; i++) lists.push(this.grams.get(gramCode(term, i)) ?? EMPTY);
    lists.sort((a, b) => a.length - b.length);
    let candidates: readonly number[] = lists[0]!;
    // Sorted lists: intersect by merging, the rarest first.
    for (let k = 1; k < lists.length && candidates.length > 0; k++) {
      const other = lists[k]!;
      const next: number[] = [];
      let j = 0;
      for (const id of candidates) {
        while (j < other.length && other[j]! < id) j++;
        if (j < other.length && other[j] === id) next.push(id);
      }
      candidates = next;
    }
    return candidates.filter((id) => tokens[id]!.includes(term));
  }

  private intern(token: string): number {
    const id = this.tokens.push(token) - 1;
    this.idOf.set(token, id);
    for (let i = 0; i + 3 <= token.length; i++) {
      const code = gramCode(token, i);
      const list = this.grams.get(code);
      if (!list) this.grams.set(code, [id]);
      else if (list[list.length - 1] !== id) list.push(id);
    }
    return id;
  }
}

const NONE = new Uint32Array(0);

/** A TokenPool's state in a snapshot (issue 33): live entries only. */
export interface PoolSnapshot {
  data: Uint32Array<ArrayBuffer>;
  start: Uint32Array<ArrayBuffer>;
  count: Uint16Array<ArrayBuffer>;
}

/** Each slot's token ids, in one Uint32Array: `start[slot]`, `count[slot]`; rewritten when half is garbage. */
export class TokenPool {
  private data = new Uint32Array(1024);
  private used = 0;
  private waste = 0;
  private start = new Uint32Array(1024);
  private count = new Uint16Array(1024);
  private size = 0;

  /** One past the highest slot ever set. */
  get slots(): number {
    return this.size;
  }

  clear(): void {
    this.data = new Uint32Array(1024);
    this.used = 0;
    this.waste = 0;
    this.start = new Uint32Array(1024);
    this.count = new Uint16Array(1024);
    this.size = 0;
  }

  /** The slot's token ids (a view: valid until the next `set`). */
  tokensOf(slot: number): Uint32Array {
    if (slot >= this.size) return NONE;
    const from = this.start[slot]!;
    return this.data.subarray(from, from + this.count[slot]!);
  }

  has(slot: number, token: number): boolean {
    if (slot >= this.size) return false;
    const from = this.start[slot]!;
    const to = from + this.count[slot]!;
    const data = this.data;
    for (let i = from; i < to; i++) if (data[i] === token) return true;
    return false;
  }

  /** Issue 33: the live entries in slot order (no waste), each slot's start and count. */
  snapshot(): PoolSnapshot {
    let live = 0;
    for (let slot = 0; slot < this.size; slot++) live += this.count[slot]!;
    const data = new Uint32Array(live);
    const start = new Uint32Array(this.size);
    let k = 0;
    for (let slot = 0; slot < this.size; slot++) {
      const from = this.start[slot]!;
      const c = this.count[slot]!;
      data.set(this.data.subarray(from, from + c), k);
      start[slot] = k;
      k += c;
    }
    return { data, start, count: this.count.slice(0, this.size) };
  }

  /** Takes a snapshot's arrays as its own (not copied). */
  restore(s: PoolSnapshot): void {
    const size = s.start.length;
    if (s.count.length !== size) throw new Error('token pool snapshot: starts and counts differ in length');
    this.data = s.data.length > 0 ? s.data : new Uint32Array(1024);
    this.used = s.data.length;
    this.waste = 0;
    this.size = size;
    this.start = grownTo(s.start, Math.max(1024, size));
    this.count = grownTo(s.count, Math.max(1024, size));
  }

  set(slot: number, tokens: readonly number[]): void {
    if (slot >= this.start.length) this.growSlots(slot + 1);
    if (slot >= this.size) this.size = slot + 1;
    // A row keeps at most 65,535 distinct tokens (a search text is a few dozen).
    const n = Math.min(tokens.length, 0xffff);
    const old = this.count[slot]!;
    let from = this.start[slot]!;
    if (n > old) {
      if (this.used + n > this.data.length) this.reserve(n);
      this.waste += old;
      from = this.used;
      this.used += n;
    } else this.waste += old - n;
    for (let i = 0; i < n; i++) this.data[from + i] = tokens[i]!;
    this.start[slot] = from;
    this.count[slot] = n;
  }

  /** Room for `n` more: the live entries rewritten in slot order when half the pool is waste, else a bigger array. */
  private reserve(n: number): void {
    const live = this.used - this.waste;
    const size = Math.max(1024, (live + n) * 2);
    const data = this.waste * 2 > this.used ? new Uint32Array(Math.max(size, this.data.length)) : new Uint32Array(Math.max(size, this.data.length * 2));
    let k = 0;
    for (let slot = 0; slot < this.size; slot++) {
      const from = this.start[slot]!;
      const c = this.count[slot]!;
      data.set(this.data.subarray(from, from + c), k);
      this.start[slot] = k;
      k += c;
    }
    this.data = data;
    this.used = k;
    this.waste = 0;
  }

  private growSlots(min: number): void {
    const size = Math.max(min, this.start.length * 2);
    this.start = grownTo(this.start, size);
    this.count = grownTo(this.count, size);
  }
}
