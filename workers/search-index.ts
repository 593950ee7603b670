import { Index } from 'flexsearch';
import { queryTerms } from '../schema/transaction-query.ts';

/**
 * In-memory text search over transactions (RxDB's full-text plugin is paid, and regex queries
 * over 100k docs take seconds).
 *
 * Semantics, identical for indexed and not-yet-indexed rows: a row's text is split into tokens
 * with the same `queryTerms` the query goes through, and a row matches when EVERY query term is
 * a prefix of one of its tokens (AND, prefix match). FlexSearch's "forward" tokenizer indexes
 * every prefix of every token; we hand it pre-split tokens (custom `encode`) so its tokenizer
 * cannot disagree with ours.
 *
 * Building the index for 100k rows takes about a second, so it is built incrementally: new or
 * changed rows go to a `stale` map first and are moved into FlexSearch by `indexSome(budget)`,
 * which the worker calls in idle slices. A search answers from FlexSearch for indexed rows and
 * by a linear scan for stale ones, so results are exact at every moment and queries never wait
 * for the build.
 *
 * Ids are the query engine's numeric slots (small integers index fastest in FlexSearch).
 */
export class SearchIndex {
  private index = createIndex();
  /** slot → tokens of text not yet (re)indexed. A stale slot's old FlexSearch entry is ignored. */
  private stale = new Map<number, string[]>();
  /** Slots currently present in FlexSearch (possibly with stale text). */
  private indexed = new Set<number>();
  /** Scratch for intersections (see mark). */
  private stamps = new Uint32Array(0);
  private stampGen = 0;

  /** Sets a row's text; it is searchable at once (by scan) and indexed on the next slices. */
  set(slot: number, text: string): void {
    this.stale.set(slot, tokenize(text));
  }

  remove(slot: number): void {
    this.stale.delete(slot);
    if (this.indexed.delete(slot)) this.index.remove(slot);
  }

  clear(): void {
    this.index = createIndex();
    this.stale.clear();
    this.indexed.clear();
  }

  /** How many rows still wait to be indexed. */
  get backlog(): number {
    return this.stale.size;
  }

  /** Moves up to `budget` stale rows into FlexSearch. Returns how many are left. */
  indexSome(budget: number): number {
    let done = 0;
    for (const [slot, tokens] of this.stale) {
      if (done++ >= budget) break;
      const content = tokens.join(' ');
      if (this.indexed.has(slot)) this.index.update(slot, content);
      else {
        this.index.add(slot, content);
        this.indexed.add(slot);
      }
      this.stale.delete(slot);
    }
    return this.stale.size;
  }

  /**
   * Sets `marks[slot] = gen` for every row matching every term (terms from `queryTerms`,
   * lower-case). Each term is looked up on its own (FlexSearch answers a single term from its
   * prefix map without copying) and the lists are intersected with generation stamps, smallest
   * list first: linear in the lists' lengths, with no Set or array built per query.
   */
  mark(terms: readonly string[], marks: Uint32Array, gen: number): void {
    const unique = [...new Set(terms)];
    if (unique.length === 0) return;
    if (this.indexed.size > 0) this.markIndexed(unique, marks, gen);
    for (const [slot, tokens] of this.stale) {
      if (matchesTokens(tokens, unique)) marks[slot] = gen;
    }
  }

  private markIndexed(terms: string[], marks: Uint32Array, gen: number): void {
    const limit = this.indexed.size;
    const lists = terms.map((t) => this.index.search(t, { limit }) as number[]).sort((a, b) => a.length - b.length);
    if (lists[0]!.length === 0) return;
    const stale = this.stale;
    const skip = (slot: number) => stale.size > 0 && stale.has(slot);
    if (lists.length === 1) {
      for (const slot of lists[0]!) if (!skip(slot)) marks[slot] = gen;
      return;
    }
    if (this.stamps.length < marks.length) this.stamps = new Uint32Array(marks.length);
    if (this.stampGen > 0xffffffff - lists.length - 1) {
      this.stamps.fill(0);
      this.stampGen = 0;
    }
    const base = this.stampGen;
    this.stampGen += lists.length;
    const stamps = this.stamps;
    for (const slot of lists[0]!) stamps[slot] = base + 1;
    for (let i = 1; i < lists.length; i++) {
      const expect = base + i;
      for (const slot of lists[i]!) if (stamps[slot] === expect) stamps[slot] = expect + 1;
    }
    const done = base + lists.length;
    for (const slot of lists[lists.length - 1]!) if (stamps[slot] === done && !skip(slot)) marks[slot] = gen;
  }
}

function createIndex() {
  return new Index({
    tokenize: 'forward',
    // Tokens arrive pre-split and lower-cased by queryTerms; FlexSearch must not re-encode them.
    encode: (content: string) => content.split(' ').filter(Boolean),
    cache: false,
    resolution: 1,
  });
}

export function tokenize(text: string): string[] {
  return [...new Set(queryTerms(text))];
}

/** The reference semantics: every term is a prefix of some token. */
export function matchesTokens(tokens: readonly string[], terms: readonly string[]): boolean {
  return terms.every((term) => tokens.some((token) => token.startsWith(term)));
}
