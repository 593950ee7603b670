import { queryTerms } from '../schema/transaction-query.ts';
import { SearchIndex } from './search-index.ts';
import { SortedOrder } from './sorted-order.ts';
import type { EnginePage, EngineQuery, EngineResult, EngineSnapshot, EngineSpec, RowColumns, SlotRows, SortKeys, TextFilter } from './engine-spec.ts';
import { ENGINE_SNAPSHOT_FORMAT, joinIds, splitIds } from './engine-snapshot.ts';
import { RowBodies } from './row-bodies.ts';
import { MoneyByFields, type MoneyColumns, type MoneyFields, type Totals } from './money-columns.ts';
import { resultOf, walkOn, type CachedResult } from './query-result.ts';
import { grownTo } from './typed-arrays.ts';

/**
 * The worker's in-memory query engine over one queried collection: every visible row in a slot
 * array, one sorted order per sort key (built on first use, then kept incrementally), and a text
 * index. Pure and synchronous (no IndexedDB), so it is tested in Node; filters, sorts and text
 * terms mean what the collection's query spec says (schema/entities/<name>.ts, turned into an
 * `EngineSpec` once per collection in workers/collections/): the engine knows no collection.
 * A query walks the sorted order once, testing the filter and the text mark of each slot, and
 * keeps the matching slots so the table pages through the same result without re-filtering.
 * Issue 33: `snapshot`/`restore` (engine-snapshot.ts) save and bring back its state as typed arrays.
 */
export type { EnginePage, EngineQuery, EngineResult, EngineSnapshot, EngineSpec, RowColumns, SlotRows, SortKeys, TextFilter } from './engine-spec.ts';

// Totals (count and sums per currency) live in money-columns.ts; their types are part of the engine's API.
export { EMPTY_TOTALS, type FieldOf, type MoneyFields, type Totals } from './money-columns.ts';

export class QueryEngine<R extends { id: string }, F extends TextFilter, S extends string> {
  /** slot → its row's id (undefined: a free slot); the engine's one per-row object besides `slotById`'s entry. */
  private ids: (string | undefined)[] = [];
  /** The row bodies: all of them, or (spec `bodies`) an LRU plus the held ones (row-bodies.ts). */
  private readonly bodies: RowBodies<R>;
  private slotById = new Map<string, number>();
  private freeSlots: number[] = [];
  private orders = new Map<S, SortedOrder>();
  private readonly search = new SearchIndex();
  private readonly keys: SortKeys<R, S>;
  private readonly columns: RowColumns<R, F> | null;
  private readonly textOf: (row: R) => string;
  private readonly slotRows: SlotRows<R>;
  private marks = new Uint32Array(0);
  private scratch = new Int32Array(0);
  private markGen = 0;
  private version = 0;
  private cache: CachedResult | null = null;
  /** The last totals, valid while the cached result's slots (same query, same version) are. */
  private totalsCache: { key: string; version: number; totals: Totals } | null = null;
  /** Money columns by fields: the spec's from the first row, others (bodies all kept) from first use. */
  private readonly money: MoneyByFields<R>;

  constructor(private readonly spec: EngineSpec<R, F, S>) {
    this.keys = spec.sortKeys();
    this.columns = spec.columns?.() ?? null;
    this.textOf = spec.textOf;
    this.bodies = new RowBodies(spec.bodies);
    if (!this.bodies.keepsAll && !this.columns) throw new Error('an engine keeping only some row bodies needs filter columns');
    this.money = new MoneyByFields(spec.money);
    const row = (slot: number) => this.bodies.at(slot, false) ?? fail(`row body of slot ${slot} is not in memory`);
    this.slotRows = { row, id: (slot) => this.ids[slot]! };
  }

  get size(): number { return this.slotById.size; }

  /** Whether every row body is in memory (no `bodies` in the spec): `query`, `matchingRows` and `reindexWhere` then read them. */
  get keepsBodies(): boolean { return this.bodies.keepsAll; }

  /** How many bodies the LRU keeps (spec `bodies`; undefined: every body), and how many are in memory now (cached and held). */
  get bodiesCapacity(): number | undefined { return this.bodies.capacity; }
  get bodiesInMemory(): number { return this.bodies.inMemory(this.slotById.size); }

  /** Rows still waiting for the text index (they are searched by scan meanwhile). */
  get searchBacklog(): number { return this.search.backlog; }

  /** The row's body when in memory (every one without `bodies`; else cached or held), or undefined. */
  get(id: string): R | undefined {
    const slot = this.slotById.get(id);
    return slot === undefined ? undefined : this.bodies.at(slot, true);
  }

  /** Whether a row with this id is in the engine (its body may be in the store only). */
  has(id: string): boolean {
    return this.slotById.has(id);
  }

  /** Which bodies stay in memory whatever the LRU does (the mirror: rows with outbox entries), decided as each is stored. */
  keepBodies(keep: (row: R) => boolean): void {
    this.bodies.keepWhen(keep);
  }

  /** Ids of the pinned rows (`pin`); rows `keepBodies` holds are the caller's to know. */
  pinnedIds(): string[] { return this.bodies.pinnedIds(); }

  /** Holds these rows' bodies in memory until the returned release runs (rows not in IndexedDB yet, a command's rows). */
  pin(ids: readonly string[]): () => void {
    return this.bodies.pin(ids, (id) => this.slotById.get(id));
  }

  /** A stamp for `hold`: bodies read from the store after it are no older than the engine's rows stored before it. */
  ticket(): number {
    return this.bodies.ticket();
  }

  /** Bodies read back from the store (as shown) into the LRU, unless in memory or stored again since `ticket`; columns untouched. */
  hold(rows: readonly R[], ticket: number): void {
    for (const row of rows) {
      const slot = this.slotById.get(row.id);
      if (slot !== undefined) this.bodies.readBack(slot, row, ticket);
    }
  }

  /**
   * Stores rows (new or changed). With `ticket` (rows read back from the store): only rows still
   * in the engine and not stored again since the ticket (a newer row wins).
   */
  upsertMany(rows: readonly R[], ticket?: number): void {
    for (const row of rows) {
      if (ticket !== undefined) {
        const slot = this.slotById.get(row.id);
        if (slot === undefined || this.bodies.newerThan(slot, ticket)) continue;
      }
      this.upsert(row);
    }
    this.version++;
  }

  removeMany(ids: readonly string[]): void {
    for (const id of ids) this.remove(id);
    this.version++;
  }

  clear(): void {
    this.ids = [];
    this.bodies.clear();
    this.slotById.clear();
    this.freeSlots = [];
    this.orders.clear();
    this.keys.clear();
    this.columns?.clear();
    this.search.clear();
    this.money.clear();
    this.version++;
  }

  /** Issue 33: the engine as plain data (typed arrays copied); only an engine keeping some bodies has one (no body is kept). */
  snapshot(): EngineSnapshot {
    const { keys, columns } = this;
    if (this.bodies.keepsAll || !keys.snapshot || !columns?.snapshot) throw new Error('a snapshot needs an engine keeping some bodies, with snapshot keys and columns');
    const slots = this.ids.length;
    const orders = Object.fromEntries([...this.orders].map(([sort, order]) => [sort, Int32Array.from(order.view())]));
    const parts = { keys: keys.snapshot(slots), columns: columns.snapshot(slots), money: this.money.snapshot(slots), search: this.search.snapshot() };
    return { format: ENGINE_SNAPSHOT_FORMAT, slots, ids: joinIds(this.ids), free: Int32Array.from(this.freeSlots), orders, ...parts };
  }

  /** The state of `snapshot()` (its arrays taken as they are; the LRU starts empty). A malformed one throws and leaves the engine empty. */
  restore(s: EngineSnapshot): void {
    this.clear();
    try {
      if (s.format !== ENGINE_SNAPSHOT_FORMAT || !this.keys.restore || !this.columns?.restore) throw new Error(`engine snapshot format ${s.format}: not restorable here`);
      ({ ids: this.ids, slotById: this.slotById } = splitIds(s.ids, s.slots, s.free.length));
      this.freeSlots = Array.from(s.free);
      this.keys.restore(s.keys);
      this.columns.restore(s.columns);
      this.money.restore(s.money);
      this.search.restore(s.search);
      for (const sort of this.spec.sorts) if (s.orders[sort]) this.orders.set(sort, SortedOrder.of(this.keys.compare(sort, this.slotRows), s.orders[sort]));
    } catch (e) {
      this.clear();
      throw e;
    }
    this.version++;
  }

  /** Re-derives the search text of rows matching `pred` (a referenced name changed); every body must be in memory. */
  reindexWhere(pred: (row: R) => boolean): number {
    this.needBodies('reindexWhere');
    let n = 0;
    for (let slot = 0; slot < this.ids.length; slot++) {
      const row = this.bodies.at(slot, false);
      if (row && pred(row)) {
        this.search.set(slot, this.textOf(row));
        n++;
      }
    }
    if (n > 0) this.version++;
    return n;
  }

  /** Ids of the rows whose search text may name one of these reference ids (the columns' `naming`; every row without it). */
  idsNaming(ids: ReadonlySet<string>): string[] {
    const naming = this.columns?.naming?.(ids) ?? (() => true);
    const out: string[] = [];
    for (let slot = 0; slot < this.ids.length; slot++) {
      const id = this.ids[slot];
      if (id !== undefined && naming(slot)) out.push(id);
    }
    return out;
  }

  /** Re-derives the search text of these rows (bodies read back, as shown), unless stored again since `ticket`. */
  retext(rows: readonly R[], ticket: number): number {
    let n = 0;
    for (const row of rows) {
      const slot = this.slotById.get(row.id);
      if (slot === undefined || this.bodies.newerThan(slot, ticket)) continue;
      this.search.set(slot, this.textOf(row));
      n++;
    }
    if (n > 0) this.version++;
    return n;
  }

  /** Indexes up to `budget` rows of the search backlog; returns how many are left. */
  indexSome(budget: number): number {
    return this.search.indexSome(budget);
  }

  /** A page of rows; every body must be in memory (else `page`, then the store, then `hold`). */
  query(q: EngineQuery<F, S>): EngineResult<R> {
    const { rows, total, offset } = this.page(q);
    const missing = rows.indexOf(undefined);
    if (missing >= 0) throw new Error(`query: the body of row ${this.page(q).ids[missing]} is not in memory (read it from the store: page, hold)`);
    return { rows: rows as R[], total, offset };
  }

  /** A page's ids in order with the bodies in memory (undefined where only the store has it). */
  page(q: EngineQuery<F, S>): EnginePage<R> {
    const head = this.result(q.filter, q.sort, 0);
    const offset = Math.max(0, Math.min(Math.trunc(q.offset), head.total));
    const end = Math.min(head.total, offset + Math.max(0, Math.trunc(q.limit)));
    const { slots, total } = this.result(q.filter, q.sort, end);
    const ids: string[] = [];
    const rows: (R | undefined)[] = [];
    for (let i = offset; i < Math.min(end, slots.length); i++) {
      const slot = slots[i]!;
      ids.push(this.ids[slot]!);
      rows.push(this.bodies.at(slot, true));
    }
    return { ids, rows, total, offset };
  }

  /** Ids of every match, in the default (first) sort. */
  matchingIds(filter: F): string[] {
    const slots = this.matchingSlots(filter, this.spec.sorts[0]);
    const ids = new Array<string>(slots.length);
    for (let i = 0; i < slots.length; i++) ids[i] = this.ids[slots[i]!]!;
    return ids;
  }

  /** Issue 33: the matching slots (default sort; read them at once, a later query may reuse them) and the filter columns, for a report over columns. */
  matchingColumns(filter: F) { return { slots: this.matchingSlots(filter, this.spec.sorts[0]), columns: this.columns }; }

  /** Every matching row (commands applied), in no promised order: what a report aggregates. Every body must be in memory. */
  matchingRows(filter: F): R[] {
    this.needBodies('matchingRows');
    const slots = this.matchingSlots(filter, this.spec.sorts[0]);
    const rows = new Array<R>(slots.length);
    for (let i = 0; i < slots.length; i++) rows[i] = this.bodies.at(slots[i]!, false)!;
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
    return this.money.of(fields, this.bodies.keepsAll ? (each) => this.ids.forEach((id, slot) => id !== undefined && each(slot, this.bodies.at(slot, false)!)) : null);
  }

  private needBodies(what: string): void {
    if (!this.bodies.keepsAll) throw new Error(`${what} reads every row body: this engine keeps ${this.bodies.capacity} in memory (read them from the store)`);
  }

  private upsert(row: R): void {
    const existing = this.slotById.get(row.id);
    if (existing === undefined) {
      const slot = this.freeSlots.pop() ?? this.ids.length;
      this.ids[slot] = row.id;
      this.slotById.set(row.id, slot);
      this.bodies.store(slot, row);
      this.columns?.set(slot, row);
      this.place(slot, row);
      this.money.set(slot, row);
      for (const order of this.orders.values()) order.add(slot);
      this.search.set(slot, this.textOf(row));
      return;
    }
    // Compared with the slot's stored keys (the old body may be gone), before they are replaced.
    const moved = this.keys.moved(existing, row);
    if (moved) for (const order of this.orders.values()) order.remove(existing);
    this.bodies.store(existing, row);
    this.columns?.set(existing, row);
    this.money.set(existing, row);
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
    if (this.keys.set(slot, row)) for (const [sort, order] of this.orders) order.setCompare(this.keys.compare(sort, this.slotRows));
  }

  private remove(id: string): void {
    const slot = this.slotById.get(id);
    if (slot === undefined) return;
    for (const order of this.orders.values()) order.remove(slot);
    this.search.remove(slot);
    this.bodies.drop(slot);
    this.ids[slot] = undefined;
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
      if (hit.walk && hit.slots.length < need) walkOn(hit, need, this.marks);
      return hit;
    }
    const sorted = this.order(sort);
    const terms = queryTerms(filter.q);
    const predicate = this.predicate(filter);
    const found = terms.length > 0 ? this.markMatches(terms) : null;
    const result = resultOf({ key, version: this.version }, sorted, found, predicate, need, this.marks, (n) => {
      if (this.scratch.length < n) this.scratch = new Int32Array(n * 2);
      return this.scratch;
    });
    this.cache = result;
    return result;
  }

  /** The filter's structural part as a slot predicate: over the columns when the collection has them, else over the rows. */
  private predicate(filter: F): ((slot: number) => boolean) | null {
    if (this.columns) return this.columns.compile(filter);
    const matches = this.spec.compileFilter(filter);
    const bodies = this.bodies;
    return matches && ((slot) => matches(bodies.at(slot, false)!));
  }

  /** Stamps matching slots with a fresh generation number (no clearing between queries); returns them too. */
  private markMatches(terms: string[]): { gen: number; slots: Uint32Array } {
    if (this.marks.length < this.ids.length) {
      this.marks = grownTo(this.marks, Math.max(1024, this.ids.length * 2));
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
      order = new SortedOrder(this.keys.compare(sort, this.slotRows));
      for (let slot = 0; slot < this.ids.length; slot++) if (this.ids[slot] !== undefined) order.add(slot);
      this.orders.set(sort, order);
    }
    return order;
  }
}

function fail(message: string): never {
  throw new Error(message);
}
