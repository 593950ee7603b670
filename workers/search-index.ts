import { queryTerms } from '../schema/transaction-query.ts';

/**
 * In-memory text search over transactions, with the server's semantics: the server keeps a
 * lower-cased search text per transaction and matches each query term (from `queryTerms`) as a
 * substring (`search_text LIKE %term%`), all terms AND-ed. Here a row's text is split by the same
 * `queryTerms` into tokens, and a row matches when every term is a substring of one of its tokens.
 * (A term holds no separator, so it cannot span two tokens on the server either.)
 *
 * Why not FlexSearch: its "forward" tokenizer answers prefixes only ("bucks" would not find
 * Starbucks, which the server finds), and its "full" tokenizer, which answers substrings, took
 * 22 s and 418 MB for 100k rows here. A trigram index does: for a term of 3+ characters, the
 * rows holding its rarest trigram are the candidates, each verified with `includes`. Terms of
 * 1-2 characters are verified over every row (a few ms at 100k).
 *
 * The index is built incrementally: new or changed rows are `stale` and matched by direct
 * verification until `indexSome(budget)` (called by the worker in idle slices) adds their
 * trigrams, so results are exact at every moment and queries never wait for the build.
 * Posting lists are append-only; entries left by an old text are weeded out by verification,
 * and the lists are rebuilt when such entries pile up.
 */
const EMPTY: readonly number[] = [];

export class SearchIndex {
  /** slot → its tokens joined by spaces (what terms are verified against). */
  private keys: (string | undefined)[] = [];
  /**
   * slot → a text set but not tokenized yet. Tokenizing is most of the cost of `set`, and a
   * first mirror or a 10,000-row coding sets many rows at once: the split waits until a query
   * verifies the row or an idle slice indexes it (`keyOf`).
   */
  private raw: (string | undefined)[] = [];
  /** slot → the key whose trigrams are in `postings` (may be an older text of the slot). */
  private indexedKeys: (string | undefined)[] = [];
  /** Trigram code (`gramCodes`) → the slots whose key holds it, each at most once. */
  private postings = new Map<number, number[]>();
  private stale = new Set<number>();
  /** Trigrams whose posting list may hold entries of an old text (verification needed). */
  private dirty = new Set<number>();
  private postingCount = 0;
  private liveCount = 0;
  /** Scratch for de-duplicating candidates (a reused slot may be listed twice). */
  private stamps = new Uint32Array(0);
  private stampGen = 0;

  /** Sets a row's text; it is searchable at once (by verification) and indexed in later slices. */
  set(slot: number, text: string): void {
    this.raw[slot] = text;
    this.keys[slot] = undefined;
    this.stale.add(slot);
  }

  remove(slot: number): void {
    this.keys[slot] = undefined;
    this.raw[slot] = undefined;
    this.stale.delete(slot);
    const indexed = this.indexedKeys[slot];
    if (indexed !== undefined) for (const gram of gramSet(indexed)) this.dirty.add(gram);
  }

  clear(): void {
    this.keys = [];
    this.raw = [];
    this.indexedKeys = [];
    this.postings.clear();
    this.stale.clear();
    this.dirty.clear();
    this.postingCount = 0;
    this.liveCount = 0;
  }

  /** How many rows still wait to be indexed. */
  get backlog(): number {
    return this.stale.size;
  }

  /**
   * Indexes up to `budget` stale rows. Returns how many are left. A row indexed for the first
   * time (every row of a first mirror) allocates nothing but new posting lists: its trigram codes
   * go through a reused scratch array, and a trigram repeated in the row is skipped because its
   * list already ends with the row's slot.
   */
  indexSome(budget: number): number {
    let done = 0;
    const postings = this.postings;
    for (const slot of this.stale) {
      if (done++ >= budget) break;
      this.stale.delete(slot);
      const key = this.keyOf(slot);
      if (key === undefined) continue;
      const old = this.indexedKeys[slot];
      if (old === undefined) {
        const n = gramCodes(key);
        let added = 0;
        for (let i = 0; i < n; i++) {
          const gram = scratch[i]!;
          const list = postings.get(gram);
          if (!list) postings.set(gram, [slot]);
          else if (list[list.length - 1] !== slot) list.push(slot);
          else continue;
          added++;
        }
        this.postingCount += added;
        this.liveCount += added;
      } else {
        const had = gramSet(old);
        const grams = gramSet(key);
        for (const gram of grams) {
          if (had.has(gram)) continue;
          const list = postings.get(gram);
          if (list) list.push(slot);
          else postings.set(gram, [slot]);
          this.postingCount++;
        }
        for (const gram of had) if (!grams.has(gram)) this.dirty.add(gram);
        this.liveCount += grams.size - had.size;
      }
      this.indexedKeys[slot] = key;
    }
    if (this.postingCount > 3 * Math.max(this.liveCount, 100_000)) this.rebuild();
    return this.stale.size;
  }

  /**
   * Sets `marks[slot] = gen` for every row whose tokens contain every term. Indexed rows come
   * from the posting lists of the terms' trigrams, intersected (typed-array stamps, linear in
   * the lists' lengths); a survivor is verified with `includes` unless the query is one
   * trigram whose list is known clean, in which case the list is the answer. Rows not yet
   * indexed are verified directly.
   */
  mark(terms: readonly string[], marks: Uint32Array, gen: number): void {
    const unique = [...new Set(terms)];
    if (unique.length === 0) return;
    const keys = this.keys;
    const verify = (slot: number) => {
      const key = this.keyOf(slot);
      if (key === undefined) return;
      for (const t of unique) if (!key.includes(t)) return;
      marks[slot] = gen;
    };
    const grams = new Set<number>();
    for (const t of unique) for (let i = 0; i + 3 <= t.length; i++) grams.add(gramCode(t, i));
    if (grams.size === 0) {
      // Only terms of 1-2 characters: verify every row.
      const size = Math.max(keys.length, this.raw.length);
      for (let slot = 0; slot < size; slot++) verify(slot);
      return;
    }
    const lists = [...grams].map((g) => this.postings.get(g) ?? EMPTY).sort((a, b) => a.length - b.length);
    const stale = this.stale;
    if (lists[0]!.length > 0) {
      // One exact trigram code (not a hash, which other trigrams may share) with a clean list.
      const only = unique.length === 1 && unique[0]!.length === 3 ? gramCode(unique[0]!, 0) : -1;
      const exact = only >= 0 && !this.dirty.has(only);
      for (const slot of this.intersect(lists)) {
        if (stale.has(slot)) continue;
        if (!exact) verify(slot);
        else if (keys[slot] !== undefined) marks[slot] = gen;
      }
    }
    for (const slot of stale) verify(slot);
  }

  /** The slot's key, tokenizing a text set since (undefined: no row in the slot). */
  private keyOf(slot: number): string | undefined {
    const text = this.raw[slot];
    if (text === undefined) return this.keys[slot];
    this.raw[slot] = undefined;
    return (this.keys[slot] = tokenize(text).join(' '));
  }

  /** Slots present in every list (each list holds a slot at most once). */
  private intersect(lists: readonly (readonly number[])[]): readonly number[] {
    if (lists.length === 1) return lists[0]!;
    const size = this.keys.length;
    if (this.stamps.length < size) this.stamps = new Uint32Array(Math.max(1024, size * 2));
    if (this.stampGen > 0xffffffff - lists.length - 2) {
      this.stamps.fill(0);
      this.stampGen = 0;
    }
    const base = this.stampGen;
    this.stampGen += lists.length;
    const stamps = this.stamps;
    for (const slot of lists[0]!) stamps[slot] = base + 1;
    for (let i = 1; i < lists.length - 1; i++) {
      const expect = base + i;
      for (const slot of lists[i]!) if (stamps[slot] === expect) stamps[slot] = expect + 1;
    }
    const last = base + lists.length - 1;
    const out: number[] = [];
    for (const slot of lists[lists.length - 1]!) if (stamps[slot] === last) out.push(slot);
    return out;
  }

  /** Posting lists full of entries from old texts: start over (rows are matched by verification meanwhile). */
  private rebuild(): void {
    this.postings.clear();
    this.dirty.clear();
    this.indexedKeys = [];
    this.postingCount = 0;
    this.liveCount = 0;
    this.keys.forEach((key, slot) => {
      if (key !== undefined) this.stale.add(slot);
    });
  }
}

export function tokenize(text: string): string[] {
  return [...new Set(queryTerms(text))];
}

/**
 * A trigram as a small integer (a Map key V8 keeps unboxed, unlike a 3-character string made
 * per occurrence): exact, 10 bits per character, when all three are below U+0400 (Latin and
 * Greek); otherwise a hash < 0, which other trigrams may share (candidates are
 * verified, so a shared code costs only extra verification; `mark` never trusts one as exact).
 */
export function gramCode(s: string, i: number): number {
  const a = s.charCodeAt(i);
  const b = s.charCodeAt(i + 1);
  const c = s.charCodeAt(i + 2);
  if ((a | b | c) < 1024) return (a << 20) | (b << 10) | c;
  const h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b ^ 0x5bd1e995, 0x85ebca77) ^ Math.imul(c ^ 0x27d4eb2f, 0xc2b2ae3d);
  return -1 - ((h ^ (h >>> 15)) & 0x3fffffff);
}

/** Reused by `gramCodes` (the worker indexes one row at a time). */
let scratch = new Int32Array(256);

/** The trigram codes of every space-separated token of `key` into `scratch` (repeats kept); returns how many. */
function gramCodes(key: string): number {
  if (scratch.length < key.length) scratch = new Int32Array(key.length * 2);
  let n = 0;
  let start = 0;
  const len = key.length;
  for (let i = 0; i <= len; i++) {
    if (i < len && key.charCodeAt(i) !== 32) continue;
    for (let j = start; j + 3 <= i; j++) scratch[n++] = gramCode(key, j);
    start = i + 1;
  }
  return n;
}

function gramSet(key: string): Set<number> {
  const n = gramCodes(key);
  const out = new Set<number>();
  for (let i = 0; i < n; i++) out.add(scratch[i]!);
  return out;
}

/** The reference semantics: every term is a substring of some token of the text. */
export function matchesText(text: string, terms: readonly string[]): boolean {
  const tokens = tokenize(text);
  return terms.every((term) => tokens.some((token) => token.includes(term)));
}
