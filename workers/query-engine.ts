import type { Transaction } from '../schema/entities/transaction.ts';
import {
  compareTransactions,
  matchesTransactionFilter,
  queryTerms,
  type TransactionFilter,
  type TransactionSort,
} from '../schema/transaction-query.ts';
import { SearchIndex } from './search-index.ts';
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
  slots: Int32Array;
}

export class QueryEngine<R extends Transaction = Transaction> {
  private rows: (R | undefined)[] = [];
  private slotById = new Map<string, number>();
  private freeSlots: number[] = [];
  private orders = new Map<TransactionSort, SortedOrder>();
  private merchantRank = new Map<string, number>();
  private readonly search = new SearchIndex();
  private marks = new Uint32Array(0);
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
        this.search.set(slot, this.textOf(row));
        n++;
      }
    }
    if (n > 0) this.version++;
    return n;
  }

  /** Replaces the text function (e.g. names loaded) and re-derives every row's text. */
  setTextOf(textOf: (row: R) => string): void {
    this.textOf = textOf;
    this.reindexWhere(() => true);
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
      for (const order of this.orders.values()) order.add(slot);
      this.search.set(slot, this.textOf(row));
      return;
    }
    const old = this.rows[existing]!;
    const moved = sortKeyChanged(old, row);
    if (moved) for (const order of this.orders.values()) order.remove(existing);
    this.rows[existing] = row;
    if (moved) {
      this.noteMerchant(row.merchant_name);
      for (const order of this.orders.values()) order.add(existing);
    }
    const text = this.textOf(row);
    if (moved || text !== this.textOf(old)) this.search.set(existing, text);
  }

  private remove(id: string): void {
    const slot = this.slotById.get(id);
    if (slot === undefined) return;
    for (const order of this.orders.values()) order.remove(slot);
    this.search.remove(slot);
    this.rows[slot] = undefined;
    this.slotById.delete(id);
    this.freeSlots.push(slot);
  }

  /** A new merchant name shifts every rank: the merchant order is rebuilt on its next use. */
  private noteMerchant(name: string): void {
    if (this.merchantRank.has(name)) return;
    this.merchantRank.clear();
    this.orders.delete('merchant_asc');
  }

  private matchingSlots(filter: TransactionFilter, sort: TransactionSort): Int32Array {
    const key = `${sort}|${JSON.stringify(filter)}`;
    if (this.cache && this.cache.key === key && this.cache.version === this.version) {
      return this.cache.slots;
    }
    const order = this.order(sort).view();
    const terms = queryTerms(filter.q);
    const gen = terms.length > 0 ? this.markMatches(terms) : 0;
    const structural = hasStructuralFilter(filter);
    const out = new Int32Array(order.length);
    let n = 0;
    for (let i = 0; i < order.length; i++) {
      const slot = order[i]!;
      if (gen !== 0 && this.marks[slot] !== gen) continue;
      if (structural && !matchesTransactionFilter(this.rows[slot]!, filter)) continue;
      out[n++] = slot;
    }
    const slots = out.subarray(0, n);
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
    const gen = this.markGen;
    const marks = this.marks;
    this.search.forEachMatch(terms, (slot) => {
      marks[slot] = gen;
    });
    return gen;
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

  private slotCompare(sort: TransactionSort): SlotCompare {
    const rows = this.rows;
    if (sort === 'merchant_asc') {
      // localeCompare on every comparison would cost seconds at 100k rows: compare by the
      // rank of the merchant name among the distinct names, which orders identically.
      const rank = this.merchantRanks();
      const byTime = compareTransactions('occurred_desc');
      return (a, b) => {
        const ra = rows[a]!;
        const rb = rows[b]!;
        return rank.get(ra.merchant_name)! - rank.get(rb.merchant_name)! || byTime(ra, rb);
      };
    }
    const cmp = compareTransactions(sort);
    return (a, b) => cmp(rows[a]!, rows[b]!);
  }

  private merchantRanks(): Map<string, number> {
    if (this.merchantRank.size > 0) return this.merchantRank;
    const names = new Set<string>();
    for (const row of this.rows) if (row) names.add(row.merchant_name);
    const sorted = [...names].sort((a, b) => a.localeCompare(b));
    let rank = 0;
    sorted.forEach((name, i) => {
      if (i > 0 && sorted[i - 1]!.localeCompare(name) !== 0) rank++;
      this.merchantRank.set(name, rank);
    });
    return this.merchantRank;
  }
}

function sortKeyChanged(a: Transaction, b: Transaction): boolean {
  return a.occurred_at !== b.occurred_at || a.amount !== b.amount || a.merchant_name !== b.merchant_name;
}

function hasStructuralFilter(f: TransactionFilter): boolean {
  return Boolean(
    f.user_ids?.length ||
      f.department_ids?.length ||
      f.location_ids?.length ||
      f.states?.length ||
      f.amount_min !== undefined ||
      f.amount_max !== undefined ||
      f.from ||
      f.to ||
      f.missing_coding !== undefined,
  );
}
