import type { RxChangeEvent, RxStorage } from 'rxdb';
import type { Subscription } from 'rxjs';
import type { CommandActor, CommandCheckContext, MirrorReader } from '../schema/commands/define-command.ts';
import type { MirroredCollection } from '../schema/sync-feed.ts';
import type { TransactionFilter } from '../schema/transaction-query.ts';
import type { QueriedCollection, ReferenceCollection } from '../schema/collections.ts';
import type { EntityRefs, OutboxEntry } from '../sync/ports.ts';
import { entityRefs } from '../sync/outbox-machine.ts';
import { duplicatesOf } from './duplicate-invoices.ts';
import type { CollectionPage, CollectionQuery, DuplicateInvoiceResult, QueryResult, ReferenceData, RowView, TransactionQuery, TransactionView } from './api.ts';
import { COUNTED_COLLECTION, createFeeds, FirstPageReads, isDefaultView, type CollectionFeed, type FirstPage } from './collection-feed.ts';
import { CommandRunner } from './command-runner.ts';
import { openMirrorDatabase, type MirrorDatabase } from './db.ts';
import { byKind, scanReferences, subscribeReferences, type ReferenceRow } from './reference-feed.ts';
import { stripMeta } from './bulk-write.ts';
import { OutboxIndex } from './outbox-index.ts';
import { RxOutboxStore } from './outbox-store.ts';
import { RxMirrorStore } from './mirror-store.ts';
import { ReferenceCache } from './reference-cache.ts';
import { createCreators, createEngines, createRebasers, createViewers, type CollectionEngines } from './collections/index.ts';
import { referenceShower } from './rebase.ts';
import { ALSO_CHANGED, COMMANDED_REFERENCES, isQueried } from './command-reach.ts';
import { DeliveredCommands } from './delivered-commands.ts';
import { MootRefusals } from './moot-refusals.ts';
import { textIndexing } from './text-indexing.ts';
import { BodyReads } from './body-reads.ts';
import { EngineSnapshots } from './engine-snapshots.ts';

/**
 * One signed-in user's open mirror: the RxDB database, the outbox, the in-memory query engine
 * and reference data, kept current from RxDB's change streams (writes of this tab, of the sync
 * engine and, through multiInstance, of other tabs all arrive the same way). Every queried
 * collection has a feed (collection-feed.ts) built once from the registry: loaded at open,
 * followed on its change stream, re-derived when its commands change; nothing here names one.
 *
 * Cold start: collections with a first page load first (transactions; issue 33: restored from its
 * snapshot, engine-snapshots.ts); until every engine is loaded, their default view comes from the
 * negated-time index, any other query waits. The text index fills in the background in slices.
 */
export interface RuntimeOptions {
  name: string;
  storage?: RxStorage<unknown, unknown>;
  multiInstance?: boolean;
  /** Runs background work later (text indexing slices). Default: setTimeout 0. */
  defer?: (fn: () => void) => void;
  /** Wall clock for outbox entries (the sync engine's clock). */
  now?: () => number;
  /** The signed-in user: the owner of rows commands create (a command's `blank`). */
  actor?: CommandActor;
  onDataChanged?: (collections: string[]) => void;
  /** The outbox changed (here or in another tab): the leader kicks its sender. */
  onOutboxChanged?: () => void;
  onError?: (error: unknown) => void;
  /** Awaited before the engine load starts (tests hold it to exercise the cold-start path). */
  beforeLoad?: () => Promise<void>;
  /** Row bodies the transactions engine keeps in memory (issue 33; default `transactionBodies()`: tests keep few). */
  bodies?: number;
}

/** Small enough that a first-page read waiting behind one page of the load waits ~tens of ms. */
const LOAD_PAGE = 2_000;

export class MirrorRuntime {
  readonly outboxIndex = new OutboxIndex();
  readonly refs = new ReferenceCache();
  /** One engine per queried collection (QUERIED_COLLECTIONS), built from the registry. */
  readonly engines: CollectionEngines;
  /** What a row shows (commands applied), and as the UI gets it, per queried collection. */
  private readonly shows = createRebasers(this.outboxIndex);
  private readonly views = createViewers(this.outboxIndex, (ids) => this.moot.discard(ids));
  /** Issue 25's moot refusals: discarded, and what tells them kept across reloads (moot-refusals.ts). */
  private readonly moot: MootRefusals;
  /** Issue 26: commands the service worker delivered, confirmed here (delivered-commands.ts). */
  private readonly delivered: DeliveredCommands;
  /** Rows commands in the outbox create, before the server's version exists (rebase.ts `creator`). */
  private readonly creates = createCreators(this.outboxIndex, () => this.opts.actor ?? NO_ACTOR);
  /** Reference rows as shown, for the reference collections commands change (rebase.ts `referenceShower`). */
  private readonly shownReferences = new Map(
    COMMANDED_REFERENCES.map((kind) => [kind, referenceShower(this.outboxIndex, kind, () => this.opts.actor ?? NO_ACTOR)]),
  );
  /** Load, change stream, refresh and lookups per queried collection, in load order. */
  private readonly feeds: readonly CollectionFeed[];
  private readonly feedOf: { readonly [C in QueriedCollection]: CollectionFeed };
  readonly outboxStore: RxOutboxStore;
  readonly mirror: RxMirrorStore;
  /** Every command's local half: parse, check, queue durably, show (command-runner.ts). */
  readonly commands: CommandRunner;
  /** Resolves when every stored row of every queried collection is in its engine. */
  readonly ready: Promise<void>;
  /** Resolves when the outbox is in memory (pending marks are right from then on). */
  private readonly outboxLoaded: Promise<void>;
  /** Resolves when reference data is in memory (before the queried collections load). */
  readonly referencesLoaded: Promise<void>;
  private resolveReferences: () => void = () => undefined;
  private loaded = false;
  /** Reference keys the change streams touched during the load (queried rows: per feed). */
  private touchedWhileLoading = new Set<string>();
  /** Outbox ids the change stream touched before the initial outbox read landed. */
  private outboxTouched: Set<string> | null = new Set();
  private subs: Subscription[] = [];
  /** Starts moving the text-index backlog into the trigram index (text-indexing.ts), if not running. */
  private readonly scheduleIndexing = textIndexing({
    engines: () => this.feeds.map((f) => f.engine),
    busy: () => (this.mirror.writing ? this.mirror.idle() : this.commands.busy ? this.commands.settled() : null),
    closed: () => this.closed,
    defer: (fn) => (this.opts.defer ?? ((f: () => void) => setTimeout(f, 0)))(fn),
  });
  /** Default first pages being read from IndexedDB: the engine load pauses for them. */
  private readonly firstPageReads = new FirstPageReads();
  /** Each feed's load, once started (loadFeed). */
  private readonly feedLoads = new Map<string, Promise<boolean>>();
  private closed = false;
  /** Row bodies read back from IndexedDB for engines keeping only some in memory (issue 33: body-reads.ts). */
  private readonly reads = new BodyReads({ closed: () => this.closed, changed: (c) => this.changed(c), onError: (e) => this.opts.onError?.(e) });
  readonly snapshots: EngineSnapshots;

  private constructor(
    readonly db: MirrorDatabase,
    private readonly opts: RuntimeOptions,
  ) {
    this.engines = createEngines(this.refs, { bodies: opts.bodies });
    this.outboxStore = new RxOutboxStore(db);
    BodyReads.holdWithEntries(Object.values(this.engines), this.outboxIndex, opts.actor?.user_id);
    this.moot = new MootRefusals(db.meta, this.outboxStore, (e) => opts.onError?.(e));
    this.feeds = createFeeds({
      db, engines: this.engines, shows: this.shows, creates: this.creates,
      creating: (c) => this.outboxIndex.creatingIds(c), onChanged: (c) => this.changed(c),
    });
    this.feedOf = Object.fromEntries(this.feeds.map((f) => [f.name, f])) as unknown as MirrorRuntime['feedOf'];
    const counted = COUNTED_COLLECTION && this.feedOf[COUNTED_COLLECTION];
    this.snapshots = new EngineSnapshots({
      db, feed: counted || undefined, index: this.outboxIndex, refs: this.refs, reads: this.reads, exclusive: (fn) => this.mirror.exclusive(fn),
      ready: () => this.ready, loaded: () => this.loaded, closed: () => this.closed, onError: (e) => opts.onError?.(e),
    });
    this.mirror = new RxMirrorStore(db, this.outboxIndex, {
      onInvalidRow: (collection, id, issues) => opts.onError?.(new Error(`invalid ${collection} row ${id}: ${issues}`)),
      onOverlayChanged: (refs) => this.refreshRows(refs),
      storedCount: () => (this.loaded && counted ? counted.engine.size : null),
      journal: this.snapshots,
    });
    this.subscribe();
    const refresh = (refs: EntityRefs) => this.refreshRows(refs);
    this.delivered = new DeliveredCommands({ store: this.outboxStore, mirror: this.mirror, index: this.outboxIndex, refresh, onError: (e) => opts.onError?.(e) });
    // The cold-start first page waits for this: outbox (delivered too) and meta (moot records, checkpoint) read side by side.
    this.outboxLoaded = Promise.all([this.outboxStore.opening(), db.meta.find().exec()]).then(async ([{ live, delivered }, meta]) => {
      this.moot.attach(this.outboxIndex, new Set(live.map((e) => e.id)), meta);
      this.outboxIndex.load(live, this.outboxTouched ?? undefined);
      this.outboxTouched = null;
      // Issue 26: what the service worker delivered (or as this tab opened, below) shows until the feed brings it.
      await this.delivered.load(delivered, meta).catch((e: unknown) => opts.onError?.(e));
    });
    this.referencesLoaded = new Promise((resolve) => (this.resolveReferences = resolve));
    this.ready = this.load();
    this.ready.catch((e: unknown) => opts.onError?.(e));
    this.commands = new CommandRunner({
      index: this.outboxIndex,
      store: this.outboxStore,
      ready: this.ready,
      prepare: (parts) => this.reads.prepare(parts, (c) => this.feedOf[c]),
      rows: (collection) => this.rowsOf(collection),
      reader: this.reader,
      refresh: (refs) => this.refreshRows(refs),
      onQueued: () => opts.onDataChanged?.(['outbox']),
      // Wall-clock ms (the outbox orders and backs off by it); timings use performance.now().
      now: () => opts.now?.() ?? Date.now(),
    });
  }

  static async open(opts: RuntimeOptions): Promise<MirrorRuntime> {
    const db = await openMirrorDatabase({ name: opts.name, storage: opts.storage, multiInstance: opts.multiInstance });
    return new MirrorRuntime(db, opts);
  }

  get isReady(): boolean { return this.loaded; }

  queryTransactions = (q: TransactionQuery): Promise<QueryResult> => this.query('transactions', q);

  /** A page of a queried collection; until the engine has loaded, the default view comes from IndexedDB. */
  async query<C extends QueriedCollection>(collection: C, q: CollectionQuery<C>): Promise<CollectionPage<C>> {
    const t0 = performance.now();
    if (!this.loaded) {
      // The cold-start first page is read from the negated-time index (entries declaring one).
      const first = this.feedOf[collection].firstPage;
      if (first && isDefaultView(q, first.sort)) return this.firstPageReads.add(this.firstPageFromDb(collection, first, q, t0));
      await this.loadedOne(collection);
    }
    // Through the feed's engine (`this.engines[collection]` is a union TypeScript cannot tie to C); bodies it does not hold read back.
    const page = await this.reads.page(this.feedOf[collection], q);
    const view = this.views[collection] as (row: { id: string }) => RowView<C>;
    return { rows: page.rows.map(view), total: page.total, offset: page.offset, took_ms: performance.now() - t0 };
  }

  /** Before reading `count` rows page by page (an export): waits for the bodies' warm-up after a restart when it would read much the same. */
  bodiesFor = (collection: QueriedCollection, count: number): Promise<void> => this.reads.joinWarm(this.feedOf[collection], count);
  /** Every row of `collection` matching `filter` as shown (commands applied), in no promised order: what a report aggregates. */
  matchingRows = (collection: QueriedCollection, filter: Record<string, unknown>): Promise<{ id: string }[]> =>
    this.ready.then(() => this.reads.matching(this.feedOf[collection], filter));

  /** One row of a queried collection as shown, or null. */
  async get<C extends QueriedCollection>(collection: C, id: string): Promise<RowView<C> | null> {
    await this.outboxLoaded;
    const feed = this.feedOf[collection];
    // In the engine, its body maybe in IndexedDB only (issue 33): read back and held in the LRU.
    let row = await this.reads.shown(feed, id);
    if (!row && !this.loaded) {
      // Before the load: the stored row as shown, else one a pending command creates.
      const stored = (await feed.stored([id])).get(id);
      row = stored ? feed.show(stored) : feed.created(id);
    }
    return row ? (this.views[collection](row) as RowView<C>) : null;
  }

  /** What a command's `also.ids` reads: rows as shown, filter matches (after the load: the runner waits for it). */
  private readonly reader: MirrorReader = {
    get: (collection, id) => {
      const row = this.feedOf[collection].shown(id);
      return row ? (this.views[collection](row) as never) : undefined;
    },
    matching: (collection, filter) => this.feedOf[collection].engine.matchingIds(filter as never),
  };

  matchingIds = (filter: TransactionFilter): Promise<string[]> => this.ready.then(() => this.engines.transactions.matchingIds(filter));

  /**
   * The bills `invoiceNumber` duplicates for the vendor, by the server's rule (the same
   * `findDuplicateInvoices`), over the vendor's bills as shown: a bill created offline is in the
   * engine as a local row, so a second entry of the same invoice is caught before either syncs.
   */
  async duplicateInvoices(vendorId: string, invoiceNumber: string, billId?: string): Promise<DuplicateInvoiceResult> {
    const { rows } = await this.query('bills', { filter: { vendor_ids: [vendorId] }, sort: 'created_desc', offset: 0, limit: Number.MAX_SAFE_INTEGER });
    return duplicatesOf(rows, vendorId, invoiceNumber, billId);
  }

  /** Reference data as the UI reads it: stored rows; those commands change (COMMANDED_REFERENCES) as shown, with their marks. */
  referenceData(): ReferenceData {
    const data = this.refs.snapshot() as unknown as Record<ReferenceCollection, unknown[]>;
    for (const [kind, show] of this.shownReferences) data[kind] = show(this.refs.maps[kind] as ReadonlyMap<string, { id: string }>);
    return data as unknown as ReferenceData;
  }

  /** One kind's rows as `referenceData` has them, alone (what `referenceCount` counts: handlers/queries.ts). */
  referenceRows = (kind: ReferenceCollection): Iterable<object> =>
    this.shownReferences.get(kind)?.(this.refs.maps[kind] as ReadonlyMap<string, { id: string }>) ?? this.refs.maps[kind].values();

  getTransaction = (id: string): Promise<TransactionView | null> => this.get('transactions', id);

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const s of this.subs) s.unsubscribe();
    await this.ready.catch(() => undefined);
    await this.mirror.idle();
    await this.snapshots.close();
    await this.db.close();
  }

  /** Deletes this user's mirror from the device (after close). */
  async remove(): Promise<void> {
    await this.close();
    await Promise.all([this.db.remove(), this.snapshots.delete()]);
  }

  /**
   * The rows a command's check reads. Queried collections: their engine. Reference data: the
   * rows as shown (commands applied: a row created offline is there, a deleted one is not).
   */
  private rowsOf(collection: MirroredCollection): CommandCheckContext {
    if (isQueried(collection)) {
      const feed = this.feedOf[collection];
      // The engine knows every id; the bodies a check reads were brought in by `prepare` (held while it runs).
      return { has: (id) => feed.engine.has(id), get: (id) => feed.shown(id) as Readonly<Record<string, unknown>> | undefined };
    }
    let byId: Map<string, Readonly<Record<string, unknown>>> | null = null;
    const rows = () => (byId ??= new Map((this.referenceData()[collection as ReferenceCollection] as { id: string }[]).map((r) => [r.id, r])));
    return { has: (id) => rows().has(id), get: (id) => rows().get(id) };
  }

  private async firstPageFromDb<C extends QueriedCollection>(collection: C, first: FirstPage, q: CollectionQuery<C>, t0: number): Promise<CollectionPage<C>> {
    const [docs, total] = await Promise.all([
      this.outboxLoaded.then(() => first.read(q.offset, q.limit)),
      // The count saved with the checkpoint; IndexedDB counts index entries one by one (about
      // a second at 100k rows). The engine load brings the exact count in any case.
      first.counted ? this.mirror.storedCount().then((n) => n ?? first.count()) : first.count(),
    ]);
    const show = this.feedOf[collection].show;
    const view = this.views[collection];
    return { rows: docs.map((d) => view(show(d)) as RowView<C>), total, offset: q.offset, took_ms: performance.now() - t0 };
  }

  /** One feed's load, started once: by load() in order, or first by a query waiting for it (Requests need not wait for 100k transactions). */
  private loadFeed(feed: CollectionFeed): Promise<boolean> {
    let loading = this.feedLoads.get(feed.name);
    if (!loading) {
      // Issue 33: restored from the engine's snapshot when there is a usable one, else every stored row read.
      loading = this.snapshots.restore(feed).then((restored) => restored || feed.load(LOAD_PAGE, () => this.firstPageReads.settled(), () => this.closed));
      this.feedLoads.set(feed.name, loading);
    }
    return loading;
  }

  /** Resolves when `collection`'s rows are all in its engine (references and outbox first, as the load). */
  private async loadedOne(collection: QueriedCollection): Promise<void> {
    await Promise.race([this.referencesLoaded, this.ready]);
    if (!this.loaded) await this.loadFeed(this.feedOf[collection]);
  }

  private async load(): Promise<void> {
    await this.outboxLoaded;
    await this.opts.beforeLoad?.();
    await this.loadReferences();
    this.resolveReferences();
    for (const feed of this.feeds) if (!(await this.loadFeed(feed))) return;
    this.loaded = true;
    this.touchedWhileLoading.clear();
    for (const feed of this.feeds) feed.touched = null;
    this.opts.onDataChanged?.(this.feeds.map((f) => f.name));
    this.scheduleIndexing();
  }

  /**
   * Re-derives what rows show after their commands changed (queued, refused, retried,
   * confirmed), in the engine of the refs' collection; reference rows are derived when read
   * (`referenceData`), so a reference collection is only reported changed.
   */
  private refreshRows(refs: EntityRefs): void {
    // Commands of refs.collection may change rows of others too (`also`): those are among the ids.
    for (const collection of [refs.collection, ...(ALSO_CHANGED[refs.collection] ?? [])]) {
      if (isQueried(collection)) {
        if (this.reads.refresh(this.feedOf[collection], refs.ids)) this.changed(collection);
      } else if (this.shownReferences.has(collection as ReferenceCollection)) this.opts.onDataChanged?.([collection]);
    }
  }

  /** Rows of a queried collection changed in its engine. */
  private changed(collection: QueriedCollection): void {
    this.scheduleIndexing();
    this.opts.onDataChanged?.([collection]);
  }

  private subscribe(): void {
    this.subs.push(
      ...this.feeds.map((f) => f.subscribe()),
      this.db.outbox.eventBulks$.subscribe((bulk) => this.onOutboxEvents(bulk.events as RxChangeEvent<OutboxEntry>[])),
      ...subscribeReferences(this.db, (rows) => this.onReferenceRows(rows)),
    );
  }

  /** An entry entering or leaving the applied states (rolled back, retried, removed) changes what its rows show, here and in every tab on the outbox. */
  private onOutboxEvents(events: RxChangeEvent<OutboxEntry>[]): void {
    const affected: EntityRefs[] = [];
    for (const ev of events) {
      this.outboxTouched?.add(ev.documentId);
      // This tab's command write in flight: the runner shows it once the write is durable.
      if (this.commands.writing(ev.documentId)) continue;
      const before = this.outboxIndex.get(ev.documentId);
      const wasApplied = OutboxIndex.isApplied(before);
      // A create's row shows in every state but removed (failed: kept, marked): re-derive on any change.
      if (ev.operation === 'DELETE') {
        this.outboxIndex.remove(ev.documentId);
        this.moot.forget(ev.documentId);
        this.delivered.removed(ev.documentId);
        if (wasApplied || OutboxIndex.creates(before)) affected.push(entityRefs(before!));
        continue;
      }
      const entry = stripMeta(ev.documentData);
      this.outboxIndex.put(entry);
      if (entry.state === 'done' && entry.answer !== undefined) void this.delivered.show(entry).catch((e: unknown) => this.opts.onError?.(e));
      if (wasApplied !== OutboxIndex.isApplied(entry) || (!before && OutboxIndex.creates(entry))) affected.push(entityRefs(entry));
    }
    for (const refs of affected) this.refreshRows(refs);
    this.opts.onOutboxChanged?.();
    this.opts.onDataChanged?.(['outbox']);
  }

  private async loadReferences(): Promise<void> {
    for await (const page of scanReferences(this.db, LOAD_PAGE)) {
      await this.firstPageReads.settled();
      // As for rows: what the change stream delivered during the load is newer than this page.
      this.applyReferences(page.filter((r) => !this.touchedWhileLoading.has(r.key)), false);
    }
  }

  private onReferenceRows(rows: ReferenceRow[]): void {
    if (!this.loaded) for (const r of rows) this.touchedWhileLoading.add(r.key);
    this.applyReferences(rows, true);
  }

  /** Applies reference rows, then re-indexes every queried row that names a changed one. */
  private applyReferences(rows: readonly ReferenceRow[], notify: boolean): void {
    const changes = byKind(rows);
    const changed = new Set<string>();
    for (const [kind, { upserts, removals }] of changes) for (const id of this.refs.apply(kind, upserts as never, removals)) changed.add(id);
    if (changed.size > 0) for (const feed of this.feeds) void this.reads.reindexNaming(feed, changed);
    if (!notify) return;
    this.scheduleIndexing();
    this.opts.onDataChanged?.([...changes.keys()]);
  }
}

const NO_ACTOR: CommandActor = { user_id: '', business_id: '' };
