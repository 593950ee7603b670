import type { Transaction } from '../schema/entities/transaction.ts';
import {
  compareTransactions,
  queryTerms,
  type TransactionFilter,
  type TransactionSort,
} from '../schema/transaction-query.ts';
import { SearchIndex } from './search-index.ts';
import { compileFilter } from './compile-filter.ts';
import { SortedOrder, type SlotCompare } from './sorted-order.ts';

/**
 * The worker's in-memory query engine: every visible transaction in a slot array, one sorted
 * order per sort key (built on first use, then maintained incrementally), and a text index.
 * Pure and synchronous (no IndexedDB), so it is tested in Node and its results are the same
 * as the server's: filters, sort and text terms come from schema/transaction-query.ts.
 *
 * A query walks the sorted order once (100k slot reads ≈ a millisecond), testing the
 * structural filter and the text-match mark of each slot, and keeps the matching slots so the
 * virtualised table can page through the same result without re-filtering.
 */
export interface EngineQuery {
  filter: TransactionFilter;
  sort: TransactionSort;
  offset: number;
  limit: number;
}

export interface EngineResult<R> {
  rows: R[];
  total: number;
  offset: number;
}

interface CachedResult {
  key: string;
  version: number;
  slots: ArrayLike<number>;
}

export class QueryEngine<R extends Transaction = Transaction> {
  private rows: (R | undefined)[] = [];
  /** Each slot's current search text, so an update re-tokenizes only when the text changed. */
  private texts: (string | undefined)[] = [];
  private slotById = new Map<string, number>();
  private freeSlots: number[] = [];
  private orders = new Map<TransactionSort, SortedOrder>();
  private merchantRank = new Map<string, number>();
  private readonly search = new SearchIndex();
  private marks = new Uint32Array(0);
  private scratch = new Int32Array(0);
  /**
   * Sort keys per slot in typed arrays: comparing numbers from a typed array is an order of
   * magnitude cheaper than reading two objects' properties and comparing their ISO strings,
   * and a merge of 100k rows does that a million times.
   */
  private timeKey = new Float64Array(1024);
  private amountKey = new Float64Array(1024);
  private merchantKey = new Int32Array(1024);
  private markGen = 0;
  private version = 0;
  private cache: CachedResult | null = null;

  /** `textOf` gives a row's searchable text (merchant, memo, cardholder and coding names). */
  constructor(private textOf: (row: R) => string) {}

  get size(): number {
    return this.slotById.size;
  }

  /** Rows still waiting for the text index (they are searched by scan meanwhile). */
  get searchBacklog(): number {
    return this.search.backlog;
  }

  get(id: string): R | undefined {
    const slot = this.slotById.get(id);
    return slot === undefined ? undefined : this.rows[slot];
  }

  upsertMany(rows: readonly R[]): void {
    for (const row of rows) this.upsert(row);
    this.version++;
  }

  removeMany(ids: readonly string[]): void {
    for (const id of ids) this.remove(id);
    this.version++;
  }

  clear(): void {
    this.rows = [];
    this.texts = [];
    this.slotById.clear();
    this.freeSlots = [];
    this.orders.clear();
    this.merchantRank.clear();
    this.search.clear();
    this.version++;
  }

  /** Re-derives the search text of rows matching `pred` (a referenced name changed). */
  reindexWhere(pred: (row: R) => boolean): number {
    let n = 0;
    for (let slot = 0; slot < this.rows.length; slot++) {
      const row = this.rows[slot];
      if (row && pred(row)) {
        const text = this.textOf(row);
        this.texts[slot] = text;
        this.search.set(slot, text);
        n++;
      }
    }
    if (n > 0) this.version++;
    return n;
  }

  /** Indexes up to `budget` rows of the search backlog; returns how many are left. */
  indexSome(budget: number): number {
    return this.search.indexSome(budget);
  }

  query(q: EngineQuery): EngineResult<R> {
    const slots = this.matchingSlots(q.filter, q.sort);
    const offset = Math.max(0, Math.min(Math.trunc(q.offset), slots.length));
    const end = Math.min(slots.length, offset + Math.max(0, Math.trunc(q.limit)));
    const rows: R[] = [];
    for (let i = offset; i < end; i++) rows.push(this.rows[slots[i]!]!);
    return { rows, total: slots.length, offset };
  }

  matchingIds(filter: TransactionFilter): string[] {
    const slots = this.matchingSlots(filter, 'occurred_desc');
    const ids = new Array<string>(slots.length);
    for (let i = 0; i < slots.length; i++) ids[i] = this.rows[slots[i]!]!.id;
    return ids;
  }

  private upsert(row: R): void {
    const existing = this.slotById.get(row.id);
    if (existing === undefined) {
      const slot = this.freeSlots.pop() ?? this.rows.length;
      this.rows[slot] = row;
      this.slotById.set(row.id, slot);
      this.noteMerchant(row.merchant_name);
      this.setKeys(slot, row);
      for (const order of this.orders.values()) order.add(slot);
      const text = this.textOf(row);
      this.texts[slot] = text;
      this.search.set(slot, text);
      return;
    }
    const old = this.rows[existing]!;
    const moved = sortKeyChanged(old, row);
    if (moved) for (const order of this.orders.values()) order.remove(existing);
    this.rows[existing] = row;
    if (moved) {
      this.noteMerchant(row.merchant_name);
      this.setKeys(existing, row);
      for (const order of this.orders.values()) order.add(existing);
    }
    const text = this.textOf(row);
    if (text !== this.texts[existing]) {
      this.texts[existing] = text;
      this.search.set(existing, text);
    }
  }

  private remove(id: string): void {
    const slot = this.slotById.get(id);
    if (slot === undefined) return;
    for (const order of this.orders.values()) order.remove(slot);
    this.search.remove(slot);
    this.rows[slot] = undefined;
    this.texts[slot] = undefined;
    this.slotById.delete(id);
    this.freeSlots.push(slot);
  }

  private setKeys(slot: number, row: R): void {
    if (slot >= this.timeKey.length) {
      const size = Math.max(slot + 1, this.timeKey.length * 2);
      this.timeKey = grow(this.timeKey, new Float64Array(size));
      this.amountKey = grow(this.amountKey, new Float64Array(size));
      this.merchantKey = grow(this.merchantKey, new Int32Array(size));
      // Comparators hold the arrays they were made with: hand them the new ones.
      for (const [sort, order] of this.orders) order.setCompare(this.slotCompare(sort));
    }
    const desc = (row as { occurred_desc?: number }).occurred_desc;
    this.timeKey[slot] = desc !== undefined ? -desc : Date.parse(row.occurred_at);
    this.amountKey[slot] = row.amount;
    this.merchantKey[slot] = this.merchantRank.get(row.merchant_name) ?? -1;
  }

  /** A new merchant name shifts every rank: the merchant order is rebuilt on its next use. */
  private noteMerchant(name: string): void {
    if (this.merchantRank.has(name)) return;
    this.merchantRank.clear();
    this.orders.delete('merchant_asc');
  }

  private matchingSlots(filter: TransactionFilter, sort: TransactionSort): ArrayLike<number> {
    const key = `${sort}|${JSON.stringify(filter)}`;
    if (this.cache && this.cache.key === key && this.cache.version === this.version) {
      return this.cache.slots;
    }
    const order = this.order(sort).view();
    const terms = queryTerms(filter.q);
    const predicate = compileFilter(filter);
    let slots: ArrayLike<number> = order;
    if (terms.length > 0 || predicate) {
      const gen = terms.length > 0 ? this.markMatches(terms) : 0;
      const marks = this.marks;
      const rows = this.rows;
      if (this.scratch.length < order.length) this.scratch = new Int32Array(order.length * 2);
      const out = this.scratch;
      let n = 0;
      for (let i = 0; i < order.length; i++) {
        const slot = order[i]!;
        if (gen !== 0 && marks[slot] !== gen) continue;
        if (predicate && !predicate(rows[slot]!)) continue;
        out[n++] = slot;
      }
      slots = out.slice(0, n);
    }
    // The unfiltered result is the order itself: valid until the next change bumps the version.
    this.cache = { key, version: this.version, slots };
    return slots;
  }

  /** Stamps matching slots with a fresh generation number (no clearing between queries). */
  private markMatches(terms: string[]): number {
    if (this.marks.length < this.rows.length) {
      const grown = new Uint32Array(Math.max(1024, this.rows.length * 2));
      grown.set(this.marks);
      this.marks = grown;
    }
    if (++this.markGen === 0xffffffff) {
      this.marks.fill(0);
      this.markGen = 1;
    }
    this.search.mark(terms, this.marks, this.markGen);
    return this.markGen;
  }

  private order(sort: TransactionSort): SortedOrder {
    let order = this.orders.get(sort);
    if (!order) {
      order = new SortedOrder(this.slotCompare(sort));
      for (let slot = 0; slot < this.rows.length; slot++) if (this.rows[slot]) order.add(slot);
      this.orders.set(sort, order);
    }
    return order;
  }

  /**
   * Comparators over the typed keys, falling back to the shared `compareTransactions` on a tie,
   * so the order is exactly the server's whenever occurred_at strings share one format (the API
   * always sends UTC ISO strings, where string order and time order agree).
   */
  private slotCompare(sort: TransactionSort): SlotCompare {
    const rows = this.rows;
    const exact = compareTransactions(sort);
    const tie = (a: number, b: number) => exact(rows[a]!, rows[b]!);
    const time = this.timeKey;
    const amount = this.amountKey;
    switch (sort) {
      case 'occurred_desc':
        return (a, b) => time[b]! - time[a]! || tie(a, b);
      case 'occurred_asc':
        return (a, b) => time[a]! - time[b]! || tie(a, b);
      case 'amount_desc':
        return (a, b) => amount[b]! - amount[a]! || time[b]! - time[a]! || tie(a, b);
      case 'amount_asc':
        return (a, b) => amount[a]! - amount[b]! || time[b]! - time[a]! || tie(a, b);
      case 'merchant_asc': {
        // localeCompare per comparison would cost seconds at 100k rows: compare the rank of the
        // merchant name among the distinct names (sorted once with localeCompare) instead.
        this.merchantRanks();
        const rank = this.merchantKey;
        const byTime = compareTransactions('occurred_desc');
        return (a, b) => rank[a]! - rank[b]! || time[b]! - time[a]! || byTime(rows[a]!, rows[b]!);
      }
    }
  }

  private merchantRanks(): void {
    if (this.merchantRank.size === 0) {
      const names = new Set<string>();
      for (const row of this.rows) if (row) names.add(row.merchant_name);
      const sorted = [...names].sort((a, b) => a.localeCompare(b));
      let rank = 0;
      sorted.forEach((name, i) => {
        if (i > 0 && sorted[i - 1]!.localeCompare(name) !== 0) rank++;
        this.merchantRank.set(name, rank);
      });
    }
    for (let slot = 0; slot < this.rows.length; slot++) {
      const row = this.rows[slot];
      if (row) this.merchantKey[slot] = this.merchantRank.get(row.merchant_name)!;
    }
  }
}

function grow<T extends Float64Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

function sortKeyChanged(a: Transaction, b: Transaction): boolean {
  return a.occurred_at !== b.occurred_at || a.amount !== b.amount || a.merchant_name !== b.merchant_name;
}
