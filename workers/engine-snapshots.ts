import type { DexieOptions } from 'dexie';
import type { RxCollection } from 'rxdb';
import type { BodyReads } from './body-reads.ts';
import { storedDoc } from './bulk-write.ts';
import type { CollectionFeed } from './collection-feed.ts';
import { transactionTextNames } from './collections/transactions.ts';
import { CHECKPOINT_ID, MIRROR_LAYOUT, type MirrorDatabase } from './db.ts';
import { ENGINE_SNAPSHOT_FORMAT } from './engine-snapshot.ts';
import { EngineSnapshotStore, type RowJournal, type SnapshotRecord } from './engine-snapshot-store.ts';
import type { OutboxIndex } from './outbox-index.ts';
import type { ReferenceCache } from './reference-cache.ts';

/**
 * Issue 33, search ready in seconds after a reload: the transactions engine is restored from a
 * snapshot (engine-snapshot-store.ts) instead of rebuilt from every stored row, then made exact:
 * - rows written after the snapshot: RxMirrorStore journals their ids before it writes them
 *   (`append`, this is its `journal`); the restore reads exactly those back from the store;
 * - rows shown otherwise than stored (outbox entries on them, rows commands create), then or now:
 *   made again from the store and the outbox (`feed.settle`), as the load does;
 * - references renamed since: the rows naming them re-texted (`reindexNaming`) before the engine
 *   counts as loaded, so no search answers with an old name.
 * A snapshot is taken in the mirror's write queue (nothing written meanwhile, every change event
 * delivered: RxDB emits them before a write resolves) once the text index is complete and no row
 * is being re-derived: when the first mirror completes, and again when the journal passes 2 % of
 * the rows. Only the leader stores batches, so only the leader takes one. Without a usable
 * snapshot (none, another format or layout, another mirror's checkpoint) the engine loads as before.
 */
export interface EngineSnapshotsDeps {
  db: MirrorDatabase;
  /** The counted collection's feed (transactions), whose engine is snapshotted; undefined: none. */
  feed: CollectionFeed | undefined;
  index: OutboxIndex;
  refs: ReferenceCache;
  reads: BodyReads;
  /** Runs `fn` in the mirror's write queue, after every stored checkpoint (RxMirrorStore.exclusive). */
  exclusive: <T>(fn: () => Promise<T>) => Promise<T>;
  /** Resolves when the runtime's load ends; `loaded` says whether it loaded every engine. */
  ready: () => Promise<void>;
  loaded: () => boolean;
  closed: () => boolean;
  onError: (error: unknown) => void;
}

/** The journal share of the rows that calls for a new snapshot, and the fewest entries that do. */
const JOURNAL_SHARE = 0.02;
const JOURNAL_MIN = 500;
/** How often a snapshot waiting for the text index looks again. */
const BACKLOG_WAIT_MS = 250;
/** After a restore, the bodies are read back from this long after the load, with this pause between pages. */
const WARM_AFTER_MS = 1_000;
const WARM_PAUSE_MS = 30;

export class EngineSnapshots implements RowJournal {
  /** What the last restore did (tests, benchmarks): whether the snapshot was used, and how many stored rows it read back. */
  lastRestore: { restored: boolean; rowsRead: number } | null = null;
  private readonly store: Promise<EngineSnapshotStore | null>;
  /** A snapshot is stored (restored from, or taken here). */
  private present = false;
  /** Journal entries appended here since the snapshot. */
  private journaled = 0;
  private capturing: Promise<boolean> | null = null;
  /** The bodies read back after a restore (`BodyReads.warm`); resolves with how many. */
  warming: Promise<number> | null = null;
  /** Ends the warm-up's current pause at once (the mirror closes). */
  private wake: () => void = () => undefined;

  constructor(private readonly deps: EngineSnapshotsDeps) {
    this.store = openStore(deps.db).catch((e: unknown) => {
      deps.onError(e);
      return null;
    });
  }

  async append(ids: readonly string[]): Promise<void> {
    const store = await this.store;
    if (store) this.journaled += await store.append(ids);
  }

  stored(checkpoint: { mirrored?: boolean }): void {
    const engine = this.deps.feed?.engine;
    if (!engine || this.capturing) return;
    const due = this.present ? this.journaled > Math.max(JOURNAL_MIN, engine.size * JOURNAL_SHARE) : checkpoint.mirrored === true;
    if (due) void this.capture().catch((e: unknown) => this.deps.onError(e));
  }

  async drop(): Promise<void> {
    this.present = false;
    this.journaled = 0;
    await (await this.store)?.drop();
  }

  /** Takes a snapshot once the runtime has loaded and the text index is complete; true when one was stored. */
  capture(): Promise<boolean> {
    this.capturing ??= this.take().finally(() => (this.capturing = null));
    return this.capturing;
  }

  /**
   * Restores the feed's engine from a usable snapshot and makes it exact (above): true. False: no
   * usable snapshot (the caller loads every stored row). A snapshot that fails to restore is dropped.
   */
  async restore(feed: CollectionFeed): Promise<boolean> {
    if (feed !== this.deps.feed) return false;
    const store = await this.store;
    if (!store) return false;
    try {
      return await this.restoreFrom(store, feed);
    } catch (e) {
      // What the change stream brought meanwhile is in the store: the full load reads it.
      feed.engine.clear();
      feed.touched = new Set();
      this.deps.onError(e);
      await store.drop().catch(() => undefined);
      return false;
    }
  }

  /** Closes the snapshot's database (the mirror closes). */
  async close(): Promise<void> {
    await this.capturing?.catch(() => undefined);
    this.wake();
    await this.warming;
    (await this.store)?.close();
  }

  /** Deletes the snapshot's database (the mirror is removed from the device). */
  async delete(): Promise<void> {
    await (await this.store)?.delete();
  }

  private async restoreFrom(store: EngineSnapshotStore, feed: CollectionFeed): Promise<boolean> {
    const [{ record, journal }, checkpoint] = await Promise.all([store.read(), checkpointOf(this.deps.db)]);
    if (!record || !usable(record, checkpoint)) {
      // A snapshot of another format, layout or mirror: dropped (none: a first one may be being taken).
      if (record) await store.drop();
      this.lastRestore = { restored: false, rowsRead: 0 };
      return false;
    }
    feed.engine.restore(record.engine);
    // Rows the change stream brought before the restore went with the engine's state: read back too.
    const touched = feed.touched ?? new Set<string>();
    feed.touched = new Set();
    const ids = new Set([...journal, ...record.derived, ...touched, ...shownIds(this.deps.index, feed)]);
    const stored = await feed.stored([...ids]);
    feed.settle(ids, stored);
    const renamed = changedNames(record.names, transactionTextNames(this.deps.refs));
    if (renamed.size > 0) await this.deps.reads.reindexNaming(feed, renamed);
    this.present = true;
    this.journaled = journal.length;
    this.lastRestore = { restored: true, rowsRead: stored.size };
    // Its LRU starts empty: the newest bodies it keeps are read back once the runtime is loaded.
    let first = true;
    const pause = () => new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, first ? WARM_AFTER_MS : WARM_PAUSE_MS);
      first = false;
      this.wake = () => (clearTimeout(timer), resolve());
    });
    this.warming = this.deps.ready().then(() => this.deps.reads.warm(feed, pause), () => 0).catch((e: unknown) => {
      this.deps.onError(e);
      return 0;
    });
    return true;
  }

  private async take(): Promise<boolean> {
    const { feed, reads, closed } = this.deps;
    const store = await this.store;
    if (!store || !feed) return false;
    await this.deps.ready();
    if (!this.deps.loaded()) return false;
    // The text index fills in its idle slices first; `snapshot()` indexes what is left at once.
    while (feed.engine.searchBacklog > 0 && !closed()) await new Promise((resolve) => setTimeout(resolve, BACKLOG_WAIT_MS));
    const taken = await this.deps.exclusive(async () => {
      if (closed() || reads.settling) return null;
      const checkpoint = await checkpointOf(this.deps.db);
      const through = await store.begin();
      // Synchronous from here to the snapshot: the engine, what it shows and the names are of one moment.
      if (closed() || reads.settling) return null;
      // Rows with outbox entries and pinned ones (not stored yet); not the held rows of the signed-in
      // person (body-reads.ts `holdWithEntries`), which are stored as shown.
      const derived = [...new Set([...feed.engine.pinnedIds(), ...shownIds(this.deps.index, feed)])];
      const engine = feed.engine.snapshot();
      this.present = true;
      this.journaled = 0;
      return { ...checkpoint, through, derived, names: transactionTextNames(this.deps.refs), engine };
    });
    if (!taken) return false;
    const written = await store.write({ format: ENGINE_SNAPSHOT_FORMAT, layout: MIRROR_LAYOUT, ...taken });
    if (!written) this.present = false;
    return written;
  }
}

/** Ids of rows shown otherwise than stored now: those outbox entries name, and those pending commands create. */
function shownIds(index: OutboxIndex, feed: CollectionFeed): string[] {
  return [...index.entries().flatMap((e) => e.entity_ids), ...index.creatingIds(feed.name)];
}

function usable(record: SnapshotRecord, checkpoint: { seq: number; epoch: string | null }): boolean {
  return record.format === ENGINE_SNAPSHOT_FORMAT && record.layout === MIRROR_LAYOUT && record.epoch === checkpoint.epoch && checkpoint.seq >= record.seq;
}

/** Reference ids whose words differ between two `transactionTextNames` (changed, added or gone). */
function changedNames(then: Record<string, string>, now: Record<string, string>): Set<string> {
  const out = new Set<string>();
  for (const id of Object.keys(then)) if (then[id] !== now[id]) out.add(id);
  for (const id of Object.keys(now)) if (!(id in then)) out.add(id);
  return out;
}

async function checkpointOf(db: MirrorDatabase): Promise<{ seq: number; epoch: string | null }> {
  const doc = await storedDoc(db.meta, CHECKPOINT_ID);
  const value = (doc && !doc._deleted ? doc.value : undefined) as { seq?: unknown; epoch?: unknown } | undefined;
  return { seq: typeof value?.seq === 'number' ? value.seq : 0, epoch: typeof value?.epoch === 'string' ? value.epoch : null };
}

/**
 * The snapshot's database on the IndexedDB the mirror's Dexie storage uses (the browser's, or a
 * test's fake one), named `<mirror db>-engine`; null off Dexie (an in-memory mirror: no snapshot).
 */
async function openStore(db: MirrorDatabase): Promise<EngineSnapshotStore | null> {
  const collection = db.transactions as unknown as RxCollection;
  const internals = (await Promise.resolve(collection.storageInstance.internals).catch(() => null)) as { dexieDb?: { _deps?: DexieOptions } } | null;
  const deps = internals?.dexieDb?._deps;
  if (!deps?.indexedDB || !deps.IDBKeyRange) return null;
  return new EngineSnapshotStore(`${db.name}-engine`, { indexedDB: deps.indexedDB, IDBKeyRange: deps.IDBKeyRange });
}
