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
   * Calls `hit(slot)` once for each row matching every term. Terms come from `queryTerms`
   * (lower-case). Returns nothing for an empty term list: the caller treats that as "no text
   * filter", not "no match".
   */
  forEachMatch(terms: readonly string[], hit: (slot: number) => void): void {
    const unique = [...new Set(terms)];
    if (unique.length === 0) return;
    const found = this.index.search(unique.join(' '), { limit: Math.max(1, this.indexed.size) });
    const hasStale = this.stale.size > 0;
    for (const id of found) {
      const slot = id as number;
      if (!hasStale || !this.stale.has(slot)) hit(slot);
    }
    for (const [slot, tokens] of this.stale) {
      if (matchesTokens(tokens, unique)) hit(slot);
    }
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
