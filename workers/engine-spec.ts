import type { MoneyFields, MoneySnapshot } from './money-columns.ts';
import type { SearchSnapshot } from './search-index.ts';
import type { SlotCompare } from './sorted-order.ts';

/**
 * The query engine's contracts with a collection (workers/query-engine.ts): the query and its
 * answers, and what a collection supplies (`EngineSpec`: sorts, text, filter, sort keys, filter
 * columns, and — issue 33 — how many row bodies it keeps in memory). Re-exported by query-engine.ts.
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
  /** Whether the row's place in some order may differ from the one the slot's stored keys give (before `set`). */
  moved(slot: number, row: R): boolean;
  /** A row arrives (new, or moved): the sort whose order it invalidates (to rebuild), or null. */
  invalidates(row: R): S | null;
  /** Stores the slot's keys; true when key arrays were replaced (comparators are remade). */
  set(slot: number, row: R): boolean;
  /**
   * A comparator of slots. `slots.row` reads a body: only keys of an engine keeping every body
   * may use it (an engine with `bodies` has no body for most slots); `slots.id` is always there.
   */
  compare(sort: S, slots: SlotRows<R>): SlotCompare;
  clear(): void;
  /** Issue 33 (an engine snapshot): the first `slots` slots' keys as plain, structured-cloneable data; `restore` takes it back. */
  snapshot?(slots: number): unknown;
  restore?(snapshot: unknown): void;
}

/** What a comparator may read per slot: its id (always), its row (only where every body is kept). */
export interface SlotRows<R> {
  row(slot: number): R;
  id(slot: number): string;
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
  /**
   * Optional (issue 33, row bodies out of the heap): keep at most this many row bodies in memory
   * (an LRU: the visible pages, the open drawer) plus the ones `keepBodies` holds; the rest live in
   * IndexedDB only and the caller reads them back (`page`, `hold`). Needs `columns` and sort keys
   * over the slots' own keys (never `slots.row`). Absent: every body is kept (small collections).
   */
  bodies?: number;
  /**
   * The money fields totals may ask for, kept as columns from the first row (with `bodies` these
   * are the only ones: no body is there to build others from). Others are built on first use
   * when every body is kept.
   */
  money?: readonly MoneyFields<R>[];
}

/** A collection's filter columns: kept by every upsert, compiled per query into a slot predicate. */
export interface RowColumns<R, F> {
  /** Stores the row's filter fields (and may swap its repeated strings for shared copies: equal values). */
  set(slot: number, row: R): void;
  clear(): void;
  /** The structural part of the filter over the columns; null when there is none. */
  compile(filter: F): ((slot: number) => boolean) | null;
  /**
   * Slots whose row may name one of these (reference) ids in its search text: a superset of the
   * rows `refersTo` picks, from the columns alone (an engine with `bodies` has no row to ask).
   */
  naming?(ids: ReadonlySet<string>): (slot: number) => boolean;
  /** Issue 33 (an engine snapshot): the first `slots` slots' columns as plain data; `restore` takes it back. */
  snapshot?(slots: number): unknown;
  restore?(snapshot: unknown): void;
}

/**
 * Issue 33: an engine's state as plain, structured-cloneable data (typed arrays copied, strings
 * joined), what IndexedDB keeps so a reload restores the engine instead of rebuilding it from
 * every stored row. No row body: the restored engine reads them back as it does after a load.
 */
export interface EngineSnapshot {
  format: number;
  /** How many slots (live and free). */
  slots: number;
  /** Each slot's id, '' for a free slot, '\n'-joined. */
  ids: string;
  free: Int32Array;
  /** The orders built so far, by sort (the others are built on first use). */
  orders: Record<string, Int32Array>;
  keys: unknown;
  columns: unknown;
  money: MoneySnapshot[];
  search: SearchSnapshot;
}

/** A page's ids in order, with the bodies the engine holds (undefined: read it from the store). */
export interface EnginePage<R> {
  ids: string[];
  rows: (R | undefined)[];
  total: number;
  offset: number;
}
