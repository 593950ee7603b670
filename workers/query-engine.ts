import { queryTerms } from '../schema/transaction-query.ts';
import { SearchIndex } from './search-index.ts';
import { SortedOrder, type SlotCompare } from './sorted-order.ts';
import { MoneyColumns, type MoneyFields, type Totals } from './money-columns.ts';
import { grownTo } from './typed-arrays.ts';

/**
 * The worker's in-memory query engine over one queried collection: every visible row in a slot
 * array, one sorted order per sort key (built on first use, then maintained incrementally), and
 * a text index. Pure and synchronous (no IndexedDB), so it is tested in Node and its results are
 * the server's: filters, sorts and text terms come from the collection's query spec
 * (schema/entities/<name>.ts), turned into an `EngineSpec` once per collection
 * (workers/collections/): the engine itself knows no collection.
 *
 * A query walks the sorted order once (100k slot reads ≈ a millisecond), testing the
 * structural filter and the text-match mark of each slot, and keeps the matching slots so the
 * virtualised table can page through the same result without re-filtering.
 */
export interface EngineQuery<F, S extends string> {
  filter: F;
  sort: S;
  offset: number;
  limit: number;
}

export interface EngineResult<R> {
  rows: R[];
  total: number;
  offset: number;
}

/** Every filter may carry free text `q`, matched by the text index (server: search_text LIKE). */
export interface TextFilter {
  q?: string | undefined;
}

/**
 * A collection's sort keys, for one engine. The generic implementation compares rows with the
 * spec's comparator; a hot collection keeps keys in typed arrays (transactions: time, amount,
 * merchant rank), which makes a 100k-row merge an order of magnitude cheaper.
 * Every comparator must be a total order (end with a tie-break on the id): removal
 * binary-searches a slot's position.
 */
export interface SortKeys<R, S extends string> {
  /** Whether a row's place in some order may differ between its old and new version. */
  moved(before: R, after: R): boolean;
  /** A row arrives (new, or moved): the sort whose order it invalidates (to rebuild), or null. */
  invalidates(row: R): S | null;
  /** Stores the slot's keys; true when key arrays were replaced (comparators are remade). */
  set(slot: number, row: R): boolean;
  compare(sort: S, rows: readonly (R | undefined)[]): SlotCompare;
  clear(): void;
}

/** What the engine needs of a collection; built once, so nothing is looked up per row. */
export interface EngineSpec<R extends { id: string }, F extends TextFilter, S extends string> {
  /** The first sort is the default (matchingIds' order). */
  sorts: readonly [S, ...S[]];
  /** The row's searchable text (own fields and the names of rows it refers to). */
  textOf: (row: R) => string;
  /** The structural part of a filter as a predicate; null when there is none. */
  compileFilter: (filter: F) => ((row: R) => boolean) | null;
  sortKeys: () => SortKeys<R, S>;
  /**
   * Optional (issue 33): the filter's fields as typed columns, so a filter is a loop over
   * integers; when given, its `compile` replaces `compileFilter` (with the same meaning).
   */
  columns?: () => RowColumns<R, F>;
}

/** A collection's filter columns: kept by every upsert, compiled per query into a slot predicate. */
export interface RowColumns<R, F> {
  /** Stores the row's filter fields (and may swap its repeated strings for shared copies: equal values). */
  set(slot: number, row: R): void;
  clear(): void;
  /** The structural part of the filter over the columns; null when there is none. */
  compile(filter: F): ((slot: number) => boolean) | null;
}

/** A text query matching fewer than 1 / this of the rows is ordered by rank (k log k) rather than by a walk of the order (n). */
const RANK_SORT_SHARE = 8;

interface CachedResult {
  key: string;
  version: number;
  slots: ArrayLike<number>;
  /** The exact number of matches (known before `slots` is complete). */
  total: number;
  /** A walk of the order stopped once the page was filled: where to resume (null: complete). */
  walk: { order: readonly number[]; next: number; gen: number; out: Int32Array; predicate: ((slot: number) => boolean) | null } | null;
}

// Totals (count and sums per currency) live in money-columns.ts; their types are part of the engine's API.
export { EMPTY_TOTALS, type FieldOf, type MoneyFields, type Totals } from './money-columns.ts';

export class QueryEngine<R extends { id: string }, F extends TextFilter, S extends string> {
  private rows: (R | undefined)[] = [];
  private slotById = new Map<string, number>();
  private freeSlots: number[] = [];
  private orders = new Map<S, SortedOrder>();
  private readonly search = new SearchIndex();
  private readonly keys: SortKeys<R, S>;
  private readonly columns: RowColumns<R, F> | null;
  private readonly textOf: (row: R) => string;
  private marks = new Uint32Array(0);
  private scratch = new Int32Array(0);
  private markGen = 0;
  private version = 0;
  private cache: CachedResult | null = null;
  /** The last totals, valid while the cached result's slots (same query, same version) are. */
  private totalsCache: { key: string; version: number; totals: Totals } | null = null;
  /** Money columns for the fields totals were last asked for (null until then). */
  private money: MoneyColumns<R> | null = null;

  constructor(private readonly spec: EngineSpec<R, F, S>) {
    this.keys = spec.sortKeys();
    this.columns = spec.columns?.() ?? null;
    this.textOf = spec.textOf;
  }

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
    this.keys.clear();
    this.columns?.clear();
    this.search.clear();
    this.money = null;
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

  /** Indexes up to `budget` rows of the search backlog; returns how many are left. */
  indexSome(budget: number): number {
    return this.search.indexSome(budget);
  }

  query(q: EngineQuery<F, S>): EngineResult<R> {
    const head = this.result(q.filter, q.sort, 0);
    const offset = Math.max(0, Math.min(Math.trunc(q.offset), head.total));
    const end = Math.min(head.total, offset + Math.max(0, Math.trunc(q.limit)));
    const { slots, total } = this.result(q.filter, q.sort, end);
    const rows: R[] = [];
    for (let i = offset; i < Math.min(end, slots.length); i++) rows.push(this.rows[slots[i]!]!);
    return { rows, total, offset };
  }

  /** Ids of every match, in the default (first) sort. */
  matchingIds(filter: F): string[] {
    const slots = this.matchingSlots(filter, this.spec.sorts[0]);
    const ids = new Array<string>(slots.length);
    for (let i = 0; i < slots.length; i++) ids[i] = this.rows[slots[i]!]!.id;
    return ids;
  }

  /** Every matching row (commands applied), in no promised order: what a report aggregates. */
  matchingRows(filter: F): R[] {
    const slots = this.matchingSlots(filter, this.spec.sorts[0]);
    const rows = new Array<R>(slots.length);
    for (let i = 0; i < slots.length; i++) rows[i] = this.rows[slots[i]!]!;
    return rows;
  }

  /**
   * Count and per-currency sums over the whole result of `filter` (not a page), from the slots
   * the query already holds (pass the page's `sort` to reuse its filtered slots; sums do not
   * depend on the order); cached until the data or the query changes.
   */
  totals(filter: F, fields: MoneyFields<R>, sort: S = this.spec.sorts[0]): Totals {
    // Sums do not depend on the order: keyed by filter and fields only, valid for one version.
    const money = this.moneyColumns(fields);
    const key = `${money.key}|${JSON.stringify(filter)}`;
    const hit = this.totalsCache;
    if (hit && hit.key === key && hit.version === this.version) return hit.totals;
    const slots = this.matchingSlots(filter, sort);
    const totals = money.sum(slots);
    this.totalsCache = { key, version: this.version, totals };
    return totals;
  }

  /** Count and per-currency sums of the rows with these ids (a selection); unknown ids are skipped. */
  totalsOf(ids: readonly string[], fields: MoneyFields<R>): Totals {
    const slots = new Int32Array(ids.length);
    for (let i = 0; i < ids.length; i++) slots[i] = this.slotById.get(ids[i]!) ?? -1;
    return this.moneyColumns(fields).sum(slots);
  }

  private moneyColumns(fields: MoneyFields<R>): MoneyColumns<R> {
    const key = `${fields.amount}|${fields.currency}|${fields.only ? `${fields.only.field}=${fields.only.values.join(',')}` : ''}`;
    if (this.money?.key === key) return this.money;
    const money = new MoneyColumns(key, fields);
    for (let slot = 0; slot < this.rows.length; slot++) {
      const row = this.rows[slot];
      if (row) money.set(slot, row);
    }
    this.money = money;
    return money;
  }

  private upsert(row: R): void {
    const existing = this.slotById.get(row.id);
    if (existing === undefined) {
      const slot = this.freeSlots.pop() ?? this.rows.length;
      this.rows[slot] = row;
      this.slotById.set(row.id, slot);
      this.columns?.set(slot, row);
      this.place(slot, row);
      this.money?.set(slot, row);
      for (const order of this.orders.values()) order.add(slot);
      this.search.set(slot, this.textOf(row));
      return;
    }
    const old = this.rows[existing]!;
    const moved = this.keys.moved(old, row);
    if (moved) for (const order of this.orders.values()) order.remove(existing);
    this.rows[existing] = row;
    this.columns?.set(existing, row);
    this.money?.set(existing, row);
    if (moved) {
      this.place(existing, row);
      for (const order of this.orders.values()) order.add(existing);
    }
    // No copy of the old text is kept: the index compares the new text's token ids with the slot's.
    this.search.set(existing, this.textOf(row));
  }

  /** Stores a row's sort keys (dropping an order the row invalidates). */
  private place(slot: number, row: R): void {
    const stale = this.keys.invalidates(row);
    if (stale !== null) this.orders.delete(stale);
    // Comparators hold the key arrays they were made with: hand them the new ones.
    if (this.keys.set(slot, row)) for (const [sort, order] of this.orders) order.setCompare(this.keys.compare(sort, this.rows));
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

  private matchingSlots(filter: F, sort: S): ArrayLike<number> {
    return this.result(filter, sort, Infinity).slots;
  }

  /**
   * The query's result with at least its first `need` slots in order (all of them for Infinity)
   * and its exact total. A text query with many matches knows its total from the index (and the
   * filter over those matches), so its walk of the order stops once `need` are found and resumes
   * when a later page, the ids or the totals need more (early exit at the page size).
   */
  private result(filter: F, sort: S, need: number): CachedResult {
    const key = `${sort}|${JSON.stringify(filter)}`;
    const hit = this.cache;
    if (hit && hit.key === key && hit.version === this.version) {
      if (hit.walk && hit.slots.length < need) this.walkOn(hit, need);
      return hit;
    }
    const sorted = this.order(sort);
    const order = sorted.view();
    const terms = queryTerms(filter.q);
    const predicate = this.predicate(filter);
    const found = terms.length > 0 ? this.markMatches(terms) : null;
    // The unfiltered result is the order itself: valid until the next change bumps the version.
    let result: CachedResult = { key, version: this.version, slots: order, total: order.length, walk: null };
    if (found && found.slots.length * RANK_SORT_SHARE < order.length) {
      // Few matches: put them in order by their rank in the sort instead of walking all of it.
      const slots = this.inOrder(found.slots, sorted, predicate);
      result = { ...result, slots, total: slots.length };
    } else if (found) {
      let total = found.slots.length;
      if (predicate) for (const slot of found.slots) if (!predicate(slot)) total--;
      const walk = { order, next: 0, gen: found.gen, out: new Int32Array(total), predicate };
      result = { ...result, slots: walk.out.subarray(0, 0), total, walk };
      this.walkOn(result, need);
    } else if (predicate) {
      if (this.scratch.length < order.length) this.scratch = new Int32Array(order.length * 2);
      const out = this.scratch;
      let n = 0;
      for (let i = 0; i < order.length; i++) {
        const slot = order[i]!;
        if (predicate(slot)) out[n++] = slot;
      }
      const slots = out.slice(0, n);
      result = { ...result, slots, total: n };
    }
    this.cache = result;
    return result;
  }

  /** Walks on through the order until `need` matches are in place (or all `total` are). */
  private walkOn(result: CachedResult, need: number): void {
    const walk = result.walk!;
    const { order, gen, out, predicate } = walk;
    const marks = this.marks;
    const stop = Math.min(need, result.total);
    let n = result.slots.length;
    let i = walk.next;
    while (n < stop && i < order.length) {
      const slot = order[i++]!;
      if (marks[slot] !== gen) continue;
      if (predicate && !predicate(slot)) continue;
      out[n++] = slot;
    }
    walk.next = i;
    result.slots = out.subarray(0, n);
    // The order holds every live slot, so the walk finds them all; were one missing, the total
    // would shrink to what the order holds rather than promise rows it cannot give.
    if (i === order.length) result.total = n;
    if (n === result.total) result.walk = null;
  }

  /** The filter's structural part as a slot predicate: over the columns when the collection has them, else over the rows. */
  private predicate(filter: F): ((slot: number) => boolean) | null {
    if (this.columns) return this.columns.compile(filter);
    const matches = this.spec.compileFilter(filter);
    const rows = this.rows;
    return matches && ((slot) => matches(rows[slot]!));
  }

  private inOrder(slots: Uint32Array, sorted: SortedOrder, predicate: ((slot: number) => boolean) | null): Int32Array {
    const rank = sorted.ranks();
    const ranks = new Uint32Array(slots.length);
    let n = 0;
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      if (predicate && !predicate(slot)) continue;
      ranks[n++] = rank[slot]!;
    }
    const order = sorted.view();
    const picked = ranks.subarray(0, n).sort();
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) out[i] = order[picked[i]!]!;
    return out;
  }

  /** Stamps matching slots with a fresh generation number (no clearing between queries); returns them too. */
  private markMatches(terms: string[]): { gen: number; slots: Uint32Array } {
    if (this.marks.length < this.rows.length) {
      this.marks = grownTo(this.marks, Math.max(1024, this.rows.length * 2));
    }
    if (++this.markGen === 0xffffffff) {
      this.marks.fill(0);
      this.markGen = 1;
    }
    return { gen: this.markGen, slots: this.search.mark(terms, this.marks, this.markGen) };
  }

  private order(sort: S): SortedOrder {
    let order = this.orders.get(sort);
    if (!order) {
      order = new SortedOrder(this.keys.compare(sort, this.rows));
      for (let slot = 0; slot < this.rows.length; slot++) if (this.rows[slot]) order.add(slot);
      this.orders.set(sort, order);
    }
    return order;
  }
}
