import type { RxChangeEvent, RxCollection } from 'rxdb';
import type { Subscription } from 'rxjs';
import { ENTITIES, QUERIED_COLLECTIONS, type QueriedCollection } from '../schema/collections.ts';
import { getDocs, queryDocs, scanDocs, stripMeta } from './bulk-write.ts';
import type { MirrorDatabase, MirrorDoc, OwnCollection } from './db.ts';
import { WORKER_COLLECTIONS, type CollectionEngines, type Creators, type Rebasers } from './collections/index.ts';
import { refersTo } from './collections/spec-engine.ts';
import type { QueryEngine, TextFilter } from './query-engine.ts';
import { FIRST_PAGE_MARKS, markFirstPage } from '../sync/first-page-marks.ts';

/**
 * One queried collection's rows between its RxDB collection and its engine: the cold-start load
 * (page by page), the change stream, re-deriving rows after their commands changed, the check
 * hook's lookup and, when its worker entry declares one, the cold-start first page. Every feed is
 * built once per mirror from the registry (QUERIED_COLLECTIONS, WORKER_COLLECTIONS, ENTITIES): the
 * collection's engine, rebaser and RxDB collection are bound in its closures, so no per-row path
 * looks anything up by name. The runtime only loops over the feeds.
 */
type Row = { id: string };
/** An engine as a feed drives it: rows in and out (its filter and sort types do not matter here). */
export type FeedEngine = QueryEngine<Row, TextFilter, string>;

/** The cold-start first page: the view with no filter and `sort`, read from IndexedDB. */
export interface FirstPage {
  sort: string;
  /** Stored rows (server versions) in the negated-time index's order. */
  read: (offset: number, limit: number) => Promise<Row[]>;
  /** Whether the count saved with the checkpoint is this collection's (COUNTED_COLLECTION). */
  counted: boolean;
  /** Counts the stored rows (walks the whole index: the fallback when no count was saved). */
  count: () => Promise<number>;
}

export interface CollectionFeed {
  readonly name: QueriedCollection;
  readonly engine: FeedEngine;
  /** What a row shows now (server row + the commands on top), as the engine holds it. */
  readonly show: (row: Row) => Row;
  readonly firstPage: FirstPage | null;
  /**
   * Ids the change stream touched while the load ran: their engine rows are newer than the
   * load's pages. Null once the runtime has loaded.
   */
  touched: Set<string> | null;
  /** Loads every stored row, page by page; `between` runs before each page. False: stopped. */
  load: (pageSize: number, between: () => Promise<void>, stopped: () => boolean) => Promise<boolean>;
  subscribe: () => Subscription;
  /**
   * Re-derives the rows with these ids that are in the engine, and the rows pending commands
   * create (inserted, re-derived, or removed once no command creates them); true when any changed.
   */
  refresh: (ids: Iterable<string>) => boolean;
  /**
   * Issue 33, after the engine was restored from a snapshot: makes these rows what the store
   * (`stored`: their stored rows, read after the restore) and the outbox say now — a stored row
   * as shown, else the row a pending command creates, else none — except rows the change stream
   * touched since (`touched`: newer than the read).
   */
  settle: (ids: Iterable<string>, stored: ReadonlyMap<string, Row>) => void;
  /** A row as shown now from the engine (stored rows rebased, created rows as they are), or undefined. */
  shown: (id: string) => Row | undefined;
  /** The row a pending command creates under this id (none stored), or undefined. */
  created: (id: string) => Row | undefined;
  has: (id: string) => boolean;
  /** Re-derives the search text of the rows naming any of these (reference) ids. */
  reindexNaming: (ids: ReadonlySet<string>) => void;
  /** Stored rows by id (server versions), for reads before the load has finished. */
  stored: (ids: readonly string[]) => Promise<Map<string, Row>>;
  /** Every stored row (server versions) in primary-key pages, one IndexedDB range read each: the cheap way to read most of them. */
  scan: (pageSize: number) => AsyncGenerator<Row[]>;
}

const firstPageOf = (c: QueriedCollection) => (WORKER_COLLECTIONS[c] as { firstPage?: { sort: string } }).firstPage;

/**
 * The collection whose row count is saved with the checkpoint (mirror-store.ts): the first one
 * with a cold-start first page (transactions). Its first page's total comes from that count.
 */
export const COUNTED_COLLECTION: QueriedCollection | undefined = QUERIED_COLLECTIONS.find((c) => firstPageOf(c) !== undefined);

/** The queried collections in load order: those with a first page first (registry order otherwise). */
export const LOAD_ORDER: readonly QueriedCollection[] = [
  ...QUERIED_COLLECTIONS.filter((c) => firstPageOf(c) !== undefined),
  ...QUERIED_COLLECTIONS.filter((c) => firstPageOf(c) === undefined),
];

export interface FeedDeps {
  db: MirrorDatabase;
  engines: CollectionEngines;
  shows: Rebasers;
  /** Rows pending commands create (rebase.ts `creator`). */
  creates: Creators;
  /** Ids that pending commands may create in a collection (outbox-index `creatingIds`). */
  creating: (collection: QueriedCollection) => string[];
  /** Rows of `collection` changed in the engine (change stream): index text, tell the UI. */
  onChanged: (collection: QueriedCollection) => void;
}

/** One feed per queried collection, in LOAD_ORDER. */
export function createFeeds(deps: FeedDeps): CollectionFeed[] {
  return LOAD_ORDER.map((c) => createFeed(c, deps));
}

function createFeed(name: QueriedCollection, { db, engines, shows, creates, creating, onChanged }: FeedDeps): CollectionFeed {
  const mirror = ENTITIES[name].mirror as { kind: string; negatedTime?: { field: string } };
  // Queried rows are read and followed in their own RxDB collection (db.ts), never in `refs`.
  if (mirror.kind !== 'own') throw new Error(`queried collection ${name} must be stored 'own'`);
  const rx = db[name as OwnCollection] as unknown as RxCollection<MirrorDoc>;
  const engine = engines[name] as unknown as FeedEngine;
  const show = shows[name] as unknown as (row: Row) => Row;
  const create = creates[name] as unknown as (id: string) => Row | undefined;
  /**
   * Ids whose engine row a pending command created (no stored row yet): re-derived from the
   * outbox, never rebased over itself. A stored row for the id (load, change stream) replaces it.
   */
  const local = new Set<string>();
  const referencedIds = ENTITIES[name].query.referencedIds as (row: Row) => string[];
  const spec = firstPageOf(name);
  const index = mirror.negatedTime?.field;
  if (spec && !index) throw new Error(`${name}: a first page needs the definition's mirror.negatedTime index`);

  const feed: CollectionFeed = {
    name,
    engine,
    show,
    touched: new Set(),
    firstPage:
      spec && index
        ? {
            sort: spec.sort,
            read: (offset, limit) => queryDocs(rx, { selector: {}, sort: [{ [index]: 'asc' }], skip: offset, limit } as never) as Promise<Row[]>,
            counted: name === COUNTED_COLLECTION,
            count: () => rx.count().exec(),
          }
        : null,
    async load(pageSize, between, stopped) {
      for await (const page of scanDocs(rx, pageSize)) {
        await between();
        if (stopped()) return false;
        // A row changed by an event during the load is newer in the engine than in this page.
        const touched = feed.touched;
        const rows: Row[] = [];
        for (const r of page) {
          if (touched?.has(r.id)) continue;
          local.delete(r.id);
          rows.push(show(r));
        }
        engine.upsertMany(rows);
      }
      // Rows created by commands still in the outbox have no stored row: derived like edited rows.
      feed.refresh(creating(name));
      return true;
    },
    subscribe: () =>
      rx.eventBulks$.subscribe((bulk) => {
        const upserts: Row[] = [];
        const removals: string[] = [];
        const touched = feed.touched;
        for (const ev of bulk.events as RxChangeEvent<MirrorDoc>[]) {
          if (touched) touched.add(ev.documentId);
          local.delete(ev.documentId);
          if (ev.operation === 'DELETE') removals.push(ev.documentId);
          else upserts.push(show(stripMeta(ev.documentData)));
        }
        if (removals.length) engine.removeMany(removals);
        if (upserts.length) engine.upsertMany(upserts);
        if (upserts.length && name === COUNTED_COLLECTION) markFirstPage(FIRST_PAGE_MARKS.inEngine);
        onChanged(name);
      }),
    refresh(ids) {
      const rows: Row[] = [];
      const removals: string[] = [];
      for (const id of new Set(ids)) {
        const row = engine.get(id);
        if (row && !local.has(id)) {
          rows.push(show(row));
          continue;
        }
        const made = create(id);
        if (made) {
          local.add(id);
          rows.push(made);
        } else if (row) {
          // No command creates it any more (discarded; or confirmed, its stored row then follows).
          local.delete(id);
          removals.push(id);
        }
      }
      if (removals.length) engine.removeMany(removals);
      if (rows.length) engine.upsertMany(rows);
      return rows.length + removals.length > 0;
    },
    settle(ids, stored) {
      const rows: Row[] = [];
      const removals: string[] = [];
      for (const id of new Set(ids)) {
        if (feed.touched?.has(id)) continue;
        const row = stored.get(id);
        const made = row ? undefined : create(id);
        if (made) local.add(id);
        else local.delete(id);
        if (row || made) rows.push(row ? show(row) : made!);
        else if (engine.has(id)) removals.push(id);
      }
      if (removals.length) engine.removeMany(removals);
      if (rows.length) engine.upsertMany(rows);
    },
    shown(id) {
      const row = engine.get(id);
      return row && !local.has(id) ? show(row) : row;
    },
    created: create,
    has: (id) => engine.get(id) !== undefined,
    reindexNaming: (ids) => void engine.reindexWhere(refersTo(referencedIds, ids)),
    stored: (ids) => getDocs(rx, ids),
    scan: (pageSize) => scanDocs(rx, pageSize),
  };
  return feed;
}

/** A query with no filter in the first page's sort: what the first page from IndexedDB answers before the load. */
export function isDefaultView(q: { filter: object; sort: string }, sort: string): boolean {
  const empty = Object.values(q.filter).every((v) => v === undefined || v === '' || (Array.isArray(v) && v.length === 0));
  return empty && q.sort === sort;
}

/**
 * The first page's IndexedDB cursor advances one row per event-loop turn: behind the load's
 * page-sized tasks it crawled (a 2 s cold start at 20k rows). The load yields to it instead.
 */
export class FirstPageReads {
  private readonly reads = new Set<Promise<unknown>>();

  add<T>(read: Promise<T>): Promise<T> {
    this.reads.add(read);
    const drop = () => void this.reads.delete(read);
    read.then(drop, drop);
    return read;
  }

  async settled(): Promise<void> {
    while (this.reads.size > 0) await Promise.allSettled([...this.reads]);
  }
}
