import { queryTerms } from '../schema/transaction-query.ts';
import { TokenPool, Vocabulary, type PoolSnapshot } from './search-vocabulary.ts';
import { grownTo } from './typed-arrays.ts';

/**
 * In-memory text search with the server's semantics: the server keeps a lower-cased search text
 * per row and matches each query term (from `queryTerms`) as a substring (`search_text LIKE
 * %term%`), all terms AND-ed. Here a row's text is split by the same `queryTerms` into tokens,
 * and a row matches when every term is a substring of one of its tokens. (A term holds no
 * separator, so it cannot span two tokens on the server either.)
 *
 * Issue 33, a columnar index: tokens are interned once (`Vocabulary`: one string per distinct
 * word, whatever the number of rows naming it), each row holds its token ids in one shared
 * `TokenPool` (a Uint32Array), and each token has a posting list of slots (a growable
 * Uint32Array). A term is answered in two steps, both over integers: the vocabulary's trigram
 * index finds every token containing it (exactly: each candidate token is verified with
 * `includes`, thousands of words instead of a million rows), then the union of those tokens'
 * posting lists is the term's rows — exact with no row verified, and no row text kept. Terms are
 * intersected rarest first (smallest sum of posting lengths) with generation stamps.
 *
 * The index is built incrementally: a new or changed text waits (`stale`, its raw string kept)
 * until `indexSome(budget)` (the worker's idle slices) or a query tokenizes it, so results are
 * exact at every moment. Posting lists are append-only: a token a row no longer has leaves the
 * slot in its list and marks the token dirty; a dirty token's entries are checked against the
 * slot's current tokens (a few integers), and its list is compacted when half of it is garbage.
 */
const COMPACT_MIN = 64;

/** The index in a snapshot (issue 33): tokens, each slot's token ids, and every posting list one after another. */
export interface SearchSnapshot {
  /** The vocabulary's tokens in id order, '\n'-joined. */
  tokens: string;
  pool: PoolSnapshot;
  /** token id → its list's length (garbage included) in `postings`. */
  postingLength: Uint32Array<ArrayBuffer>;
  garbage: Uint32Array<ArrayBuffer>;
  postings: Uint32Array<ArrayBuffer>;
}

export class SearchIndex {
  private readonly vocab = new Vocabulary();
  private readonly pool = new TokenPool();
  /** token id → its slots (entries [0, postingLength[t]) of `postings[t]`). */
  private postings: Uint32Array[] = [];
  private postingLength = new Uint32Array(64);
  /** token id → how many of its entries are garbage (the slot no longer has the token, or holds it twice). */
  private garbage = new Uint32Array(64);
  /** slot → a text set but not tokenized yet (what `indexSome` or a query picks up). */
  private raw: (string | undefined)[] = [];
  private stale = new Set<number>();
  private stamps = new Uint32Array(0);
  private stampGen = 0;

  /** Sets a row's text; it is searchable at once and tokenized in a later slice (or by a query). */
  set(slot: number, text: string): void {
    this.raw[slot] = text;
    this.stale.add(slot);
  }

  remove(slot: number): void {
    this.raw[slot] = undefined;
    this.stale.delete(slot);
    this.replaceTokens(slot, null);
  }

  clear(): void {
    this.vocab.clear();
    this.pool.clear();
    this.postings = [];
    this.postingLength = new Uint32Array(64);
    this.garbage = new Uint32Array(64);
    this.raw = [];
    this.stale.clear();
  }

  /** Issue 33: the index as plain typed arrays (rows waiting for it tokenized first). */
  snapshot(): SearchSnapshot {
    if (this.stale.size > 0) this.indexSome(this.stale.size);
    const tokens = this.vocab.size;
    const postingLength = grownTo(this.postingLength, Math.max(tokens, this.postingLength.length)).slice(0, tokens);
    let total = 0;
    for (let t = 0; t < tokens; t++) total += postingLength[t]!;
    const postings = new Uint32Array(total);
    let at = 0;
    for (let t = 0; t < tokens; t++) {
      const n = postingLength[t]!;
      if (n === 0) continue;
      postings.set(this.postings[t]!.subarray(0, n), at);
      at += n;
    }
    const garbage = grownTo(this.garbage, Math.max(tokens, this.garbage.length)).slice(0, tokens);
    return { tokens: this.vocab.snapshot(), pool: this.pool.snapshot(), postingLength, garbage, postings };
  }

  /** The index of `snapshot()`; its arrays become the index's own (each posting list a view of `postings` until it grows). */
  restore(s: SearchSnapshot): void {
    this.clear();
    const tokens = s.postingLength.length;
    this.vocab.restore(s.tokens, tokens);
    this.pool.restore(s.pool);
    this.postingLength = grownTo(s.postingLength, Math.max(64, tokens));
    this.garbage = grownTo(s.garbage, Math.max(64, tokens));
    const postings: Uint32Array[] = new Array<Uint32Array>(tokens);
    let at = 0;
    for (let t = 0; t < tokens; t++) {
      const n = s.postingLength[t]!;
      if (n > 0) postings[t] = s.postings.subarray(at, at + n);
      at += n;
    }
    if (at !== s.postings.length) throw new Error('search snapshot: posting lengths do not add up');
    this.postings = postings;
  }

  /** How many rows still wait to be tokenized. */
  get backlog(): number {
    return this.stale.size;
  }

  /** Distinct tokens interned so far (the vocabulary grows only: a word no row holds any more is kept). */
  get vocabularySize(): number {
    return this.vocab.size;
  }

  /** Tokenizes up to `budget` stale rows into the posting lists; returns how many are left. */
  indexSome(budget: number): number {
    let done = 0;
    for (const slot of this.stale) {
      if (done++ >= budget) break;
      this.indexSlot(slot);
    }
    return this.stale.size;
  }

  /**
   * Sets `marks[slot] = gen` for every row whose tokens contain every term, and returns those
   * slots (each once, in no order). Stale rows are tokenized first (what the old index's
   * verification paid too), so the answer comes from the posting lists alone.
   */
  mark(terms: readonly string[], marks: Uint32Array, gen: number): Uint32Array {
    const unique = [...new Set(terms)];
    if (unique.length === 0) return new Uint32Array(0);
    if (this.stale.size > 0) this.indexSome(this.stale.size);
    const tokenSets = unique.map((t) => this.vocab.containing(t));
    const costs = tokenSets.map((ids) => this.cost(ids));
    const order = unique.map((_, i) => i).sort((a, b) => costs[a]! - costs[b]!);
    if (costs[order[0]!] === 0) return new Uint32Array(0);
    const size = this.pool.slots;
    if (this.stamps.length < size) this.stamps = new Uint32Array(Math.max(1024, size * 2));
    if (this.stampGen > 0xffffffff - order.length - 2) {
      this.stamps.fill(0);
      this.stampGen = 0;
    }
    const base = this.stampGen;
    this.stampGen += order.length;
    // Each term stamps the rows it matches among those the previous terms left (base + step).
    const stamps = this.stamps;
    for (let step = 0; step < order.length - 1; step++) {
      const expect = base + step;
      const next = expect + 1;
      this.eachSlot(tokenSets[order[step]!]!, (slot) => {
        if (step === 0 || stamps[slot] === expect) stamps[slot] = next;
      });
    }
    const expect = base + order.length - 1;
    let out = new Uint32Array(64);
    let n = 0;
    this.eachSlot(tokenSets[order[order.length - 1]!]!, (slot) => {
      if ((order.length > 1 && stamps[slot] !== expect) || marks[slot] === gen) return;
      marks[slot] = gen;
      if (n === out.length) {
        const grown = new Uint32Array(n * 2);
        grown.set(out);
        out = grown;
      }
      out[n++] = slot;
    });
    return out.subarray(0, n);
  }

  /** How many posting entries a term's tokens hold: the work its union costs (and a bound on its rows). */
  private cost(tokens: ArrayLike<number>): number {
    let sum = 0;
    for (let i = 0; i < tokens.length; i++) sum += this.postingLength[tokens[i]!] ?? 0;
    return sum;
  }

  /** Every live slot holding one of `tokens` (a slot may come more than once: callers are idempotent). */
  private eachSlot(tokens: ArrayLike<number>, fn: (slot: number) => void): void {
    const pool = this.pool;
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      const list = this.postings[token];
      const len = this.postingLength[token] ?? 0;
      if (!list || len === 0) continue;
      if (this.garbage[token] === 0) {
        for (let j = 0; j < len; j++) fn(list[j]!);
        continue;
      }
      for (let j = 0; j < len; j++) {
        const slot = list[j]!;
        if (pool.has(slot, token)) fn(slot);
      }
    }
  }

  private indexSlot(slot: number): void {
    this.stale.delete(slot);
    const text = this.raw[slot];
    if (text === undefined) return;
    this.raw[slot] = undefined;
    this.replaceTokens(slot, this.vocab.textIds(text));
  }

  /** Makes `tokens` the slot's tokens (null: no row): new ones get the slot, dropped ones become garbage. */
  private replaceTokens(slot: number, tokens: readonly number[] | null): void {
    const old = this.pool.tokensOf(slot);
    const next = tokens ?? [];
    for (const token of next) if (!old.includes(token)) this.append(token, slot);
    for (const token of old) {
      if (next.includes(token)) continue;
      this.garbage[token]!++;
      if (this.garbage[token]! * 2 > this.postingLength[token]! && this.garbage[token]! >= COMPACT_MIN) this.compactLater.add(token);
    }
    this.pool.set(slot, next);
    if (this.compactLater.size > 0) this.compact();
  }

  private readonly compactLater = new Set<number>();

  /** Drops the garbage of the lists marked for it (after the slot's new tokens are in the pool). */
  private compact(): void {
    const seen = new Set<number>();
    for (const token of this.compactLater) {
      const list = this.postings[token]!;
      const len = this.postingLength[token]!;
      let k = 0;
      seen.clear();
      for (let j = 0; j < len; j++) {
        const slot = list[j]!;
        if (this.pool.has(slot, token) && !seen.has(slot)) {
          seen.add(slot);
          list[k++] = slot;
        }
      }
      this.postingLength[token] = k;
      this.garbage[token] = 0;
    }
    this.compactLater.clear();
  }

  private append(token: number, slot: number): void {
    if (token >= this.postingLength.length) {
      const size = Math.max(token + 1, this.postingLength.length * 2);
      this.postingLength = grownTo(this.postingLength, size);
      this.garbage = grownTo(this.garbage, size);
    }
    const len = this.postingLength[token]!;
    let list = this.postings[token];
    if (!list || len === list.length) {
      const grown = new Uint32Array(Math.max(2, (list?.length ?? 0) * 2));
      if (list) grown.set(list);
      list = this.postings[token] = grown;
    }
    // An old entry of this slot may still be in the list (the token came back): a duplicate, which
    // only a list with garbage can hold (compaction removes both), and every reader tolerates.
    list[len] = slot;
    this.postingLength[token] = len + 1;
  }
}

export function tokenize(text: string): string[] {
  return [...new Set(queryTerms(text))];
}

export { gramCode } from './search-vocabulary.ts';

/** The reference semantics: every term is a substring of some token of the text. */
export function matchesText(text: string, terms: readonly string[]): boolean {
  const tokens = tokenize(text);
  return terms.every((term) => tokens.some((token) => token.includes(term)));
}
