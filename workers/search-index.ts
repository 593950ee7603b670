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
  private postings = new Map<string, number[]>();
  private stale = new Set<number>();
  /** Trigrams whose posting list may hold entries of an old text (verification needed). */
  private dirty = new Set<string>();
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
    if (indexed !== undefined) for (const gram of trigrams(indexed)) this.dirty.add(gram);
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

  /** Indexes up to `budget` stale rows. Returns how many are left. */
  indexSome(budget: number): number {
    let done = 0;
    for (const slot of this.stale) {
      if (done++ >= budget) break;
      this.stale.delete(slot);
      const key = this.keyOf(slot);
      if (key === undefined) continue;
      const old = this.indexedKeys[slot];
      const had = old === undefined ? null : trigrams(old);
      const grams = trigrams(key);
      for (const gram of grams) {
        if (had?.has(gram)) continue;
        const list = this.postings.get(gram);
        if (list) list.push(slot);
        else this.postings.set(gram, [slot]);
        this.postingCount++;
      }
      if (had) for (const gram of had) if (!grams.has(gram)) this.dirty.add(gram);
      this.liveCount += grams.size - (had?.size ?? 0);
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
    const grams = new Set<string>();
    for (const t of unique) for (let i = 0; i + 3 <= t.length; i++) grams.add(t.slice(i, i + 3));
    if (grams.size === 0) {
      // Only terms of 1-2 characters: verify every row.
      const size = Math.max(keys.length, this.raw.length);
      for (let slot = 0; slot < size; slot++) verify(slot);
      return;
    }
    const lists = [...grams].map((g) => this.postings.get(g) ?? EMPTY).sort((a, b) => a.length - b.length);
    const stale = this.stale;
    if (lists[0]!.length > 0) {
      const exact = unique.length === 1 && unique[0]!.length === 3 && !this.dirty.has(unique[0]!);
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

function trigrams(key: string): Set<string> {
  const out = new Set<string>();
  for (const token of key.split(' ')) {
    for (let i = 0; i + 3 <= token.length; i++) out.add(token.slice(i, i + 3));
  }
  return out;
}

/** The reference semantics: every term is a substring of some token of the text. */
export function matchesText(text: string, terms: readonly string[]): boolean {
  const tokens = tokenize(text);
  return terms.every((term) => tokens.some((token) => token.includes(term)));
}
