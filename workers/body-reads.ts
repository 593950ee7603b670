import type { CommandPart } from '../schema/commands/define-command.ts';
import type { QueriedCollection } from '../schema/collections.ts';
import type { CollectionFeed } from './collection-feed.ts';
import { isQueried } from './command-reach.ts';
import type { OutboxIndex } from './outbox-index.ts';

/** Pages of this many rows when many bodies are read back (a report, a rename, the warm-up): the load's page. */
const READ_PAGE = 2_000;
/**
 * A read of at least this share of the bodies the warm-up has still to read waits for the warm-up
 * instead (hurried: no pauses): an export of every row right after a restart otherwise read the
 * same 100k bodies by id beside it, each read slowing the other (18 s against 0.7 s in memory).
 */
const JOIN_SHARE = 0.5;

/** A warm-up in flight: bodies it has still to read, and `hurry` (its pauses skipped from now on). */
type Warming = { left: number; hurry: () => void; done: Promise<number> };

const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export interface BodyReadsDeps {
  closed: () => boolean;
  /** Rows of the collection changed in its engine (the UI re-reads). */
  changed: (collection: QueriedCollection) => void;
  onError: (error: unknown) => void;
}

/**
 * Issue 33, row bodies out of the heap: what MirrorRuntime reads back from IndexedDB for an engine
 * keeping only some bodies in memory (the transactions engine: columns and an LRU). A page's or
 * the drawer's missing bodies (`read`: one bulk read, then held in the LRU), every matching row
 * for a report (`all`, page by page), rows whose commands changed while their body was out
 * (`refreshStored`), a command's rows while it is checked and queued (`prepare`), and the rows a
 * renamed reference may name (`retextNaming`). Bodies are read as stored (server versions) and
 * shown (commands applied) as the engine holds them; each read carries the engine's ticket, so a
 * row stored again meanwhile is never replaced by the older read.
 */
export class BodyReads {
  /** Re-texting after reference renames, one after another. */
  private retexts: Promise<void> = Promise.resolve();
  private preparing: Promise<void> = Promise.resolve();
  /** Re-derivations and re-textings in flight (their rows are not as shown or named yet). */
  private inFlight = 0;
  /** The warm-up in flight by collection. */
  private readonly warming = new Map<string, Warming>();

  constructor(private readonly deps: BodyReadsDeps) {}

  /**
   * Engines keeping only some bodies hold those with outbox entries (rows commands create or change:
   * shown and re-derived synchronously) and, given `owner`, the signed-in person's own rows: the
   * missing-items list and its nav badge read every one of them on each data change
   * (handlers/policy-handlers.ts), which read them all back from IndexedDB after every feed batch.
   */
  static holdWithEntries(engines: readonly object[], index: Pick<OutboxIndex, 'entriesOn'>, owner?: string): void {
    const own = owner ? (row: { user_id?: unknown }) => row.user_id === owner : () => false;
    for (const engine of engines as { keepBodies(keep: (row: { id: string; user_id?: unknown }) => boolean): void }[]) {
      engine.keepBodies((row) => index.entriesOn(row.id).length > 0 || own(row));
    }
  }

  /** The row as shown: from the engine, else (in the engine, its body out) read back and held; undefined when not in the engine. */
  async shown(feed: CollectionFeed, id: string): Promise<{ id: string } | undefined> {
    const row = feed.shown(id);
    if (row || !feed.engine.has(id)) return row;
    return (await this.read(feed, [id], feed.engine.ticket())).get(id);
  }

  /** Re-derives rows after their commands changed: those in memory now, those out after a read (`refreshStored`). True when any changed now. */
  refresh(feed: CollectionFeed, ids: readonly string[]): boolean {
    const changed = feed.refresh(ids);
    if (!feed.engine.keepsBodies) this.refreshStored(feed, ids);
    return changed;
  }

  /** Whether rows are being re-derived or re-texted from the store: the engine is not what its rows show yet (issue 33: no snapshot then). */
  get settling(): boolean {
    return this.inFlight > 0;
  }

  /** A referenced name changed: the engine re-texts the rows naming it (every body in memory), else `retextNaming`; resolves when done. */
  reindexNaming(feed: CollectionFeed, changed: ReadonlySet<string>): Promise<void> {
    if (!feed.engine.keepsBodies) return this.retextNaming(feed, changed);
    feed.reindexNaming(changed);
    return Promise.resolve();
  }

  /** A page of the feed's engine with every body, those it does not hold read back; a row deleted meanwhile is left out. */
  async page(feed: CollectionFeed, q: unknown): Promise<{ rows: { id: string }[]; total: number; offset: number }> {
    const ticket = feed.engine.ticket();
    const { ids, rows, total, offset } = feed.engine.page(q as never);
    const missing = ids.filter((_, i) => rows[i] === undefined);
    if (missing.length > 0) {
      const read = await this.read(feed, missing, ticket);
      ids.forEach((id, i) => (rows[i] ??= read.get(id)));
    }
    return { rows: rows.filter((r) => r !== undefined), total, offset };
  }

  /** Every row matching `filter` as shown, in no promised order: the engine's bodies, or read back page by page. */
  async matching(feed: CollectionFeed, filter: Record<string, unknown>): Promise<{ id: string }[]> {
    const engine = feed.engine;
    return engine.keepsBodies ? engine.matchingRows(filter as never) : this.all(feed, engine.matchingIds(filter as never));
  }

  /**
   * Bodies of rows in the engine that it does not hold, read from IndexedDB (server versions)
   * and shown (commands applied) as the engine would hold them, then kept in its LRU. A row
   * deleted meanwhile is absent from the answer.
   */
  async read(feed: CollectionFeed, ids: readonly string[], ticket: number): Promise<Map<string, { id: string }>> {
    const stored = await feed.stored(ids);
    const rows: { id: string }[] = [];
    for (const row of stored.values()) rows.push(feed.show(row));
    feed.engine.hold(rows, ticket);
    return new Map(rows.map((r) => [r.id, r]));
  }

  /**
   * After a restore from the engine's snapshot (its LRU starts empty), the bodies the engine keeps
   * are read back in the background, a page at a time after `pause`, so reports, exports and bulk
   * commands find them in memory as after a full load: when every body fits, by one primary-key
   * scan of the store (range reads, several times cheaper than reads by id); else the newest it
   * keeps, by id, the oldest of them first (the newest end at the LRU's newest end). A large read
   * meanwhile hurries it and waits (`joinWarm`). Stops when the mirror closes; resolves with how
   * many bodies were read.
   */
  warm(feed: CollectionFeed, pause: () => Promise<void>): Promise<number> {
    const engine = feed.engine;
    const capacity = engine.bodiesCapacity;
    if (capacity === undefined) return Promise.resolve(0);
    let hurry!: () => void;
    const hurried = new Promise<void>((resolve) => (hurry = resolve));
    let hurrying = false;
    const warming: Warming = { left: Math.max(0, Math.min(engine.size, capacity) - engine.bodiesInMemory), hurry: () => ((hurrying = true), hurry()), done: Promise.resolve(0) };
    const step = () => (hurrying ? nextTurn() : Promise.race([pause(), hurried]));
    const run = engine.size <= capacity ? this.warmByScan(feed, step, warming) : this.warmNewest(feed, step, warming);
    warming.done = run.finally(() => this.warming.delete(feed.name));
    this.warming.set(feed.name, warming);
    return warming.done;
  }

  private async warmByScan(feed: CollectionFeed, step: () => Promise<void>, warming: Warming): Promise<number> {
    const engine = feed.engine;
    let pages: AsyncGenerator<{ id: string }[]> | undefined;
    let read = 0;
    try {
      for (;;) {
        await step();
        if (this.deps.closed()) break;
        // The ticket before the read: a row stored again while it runs keeps its newer body.
        const ticket = engine.ticket();
        pages ??= feed.scan(READ_PAGE);
        const page = await pages.next();
        if (page.done) break;
        const rows = page.value.filter((row) => engine.has(row.id) && engine.get(row.id) === undefined).map(feed.show);
        engine.hold(rows, ticket);
        read += rows.length;
        warming.left = Math.max(0, warming.left - rows.length);
      }
    } finally {
      await pages?.return(undefined);
    }
    return read;
  }

  private async warmNewest(feed: CollectionFeed, step: () => Promise<void>, warming: Warming): Promise<number> {
    const engine = feed.engine;
    const ids = engine.matchingIds({} as never).slice(0, engine.bodiesCapacity).reverse();
    let read = 0;
    for (let from = 0; from < ids.length; from += READ_PAGE) {
      await step();
      if (this.deps.closed()) break;
      // `get` counts a use: a body already in memory moves up in the same order.
      const missing = ids.slice(from, from + READ_PAGE).filter((id) => engine.get(id) === undefined && engine.has(id));
      if (missing.length > 0) read += (await this.read(feed, missing, engine.ticket())).size;
      warming.left = Math.max(0, ids.length - from - READ_PAGE);
    }
    return read;
  }

  /** A read of `count` bodies while the warm-up runs: when it is much of what the warm-up has left, the warm-up hurries and the read waits for it. */
  async joinWarm(feed: CollectionFeed, count: number): Promise<void> {
    const warming = this.warming.get(feed.name);
    if (!warming || count < warming.left * JOIN_SHARE) return;
    warming.hurry();
    await warming.done.catch(() => undefined);
  }

  /** The bodies of these rows as shown: those the engine holds, the rest read back page by page (absent: deleted meanwhile). */
  async all(feed: CollectionFeed, ids: readonly string[]): Promise<{ id: string }[]> {
    await this.joinWarm(feed, ids.length);
    const out: { id: string }[] = [];
    for (let from = 0; from < ids.length; from += READ_PAGE) {
      const ticket = feed.engine.ticket();
      const missing: string[] = [];
      for (const id of ids.slice(from, from + READ_PAGE)) {
        const row = feed.engine.get(id);
        if (row) out.push(row);
        else missing.push(id);
      }
      if (missing.length > 0) for (const row of (await this.read(feed, missing, ticket)).values()) out.push(row);
    }
    return out;
  }

  /**
   * Rows whose commands changed but whose body the engine does not hold (an entry another tab
   * queued, or one the sync engine settled on a row evicted meanwhile): read back from
   * IndexedDB, shown with the commands now on them and stored again, so the columns follow.
   */
  refreshStored(feed: CollectionFeed, ids: Iterable<string>): void {
    const engine = feed.engine;
    const missing = [...new Set(ids)].filter((id) => engine.has(id) && engine.get(id) === undefined);
    if (missing.length === 0) return;
    const ticket = engine.ticket();
    this.inFlight++;
    void feed.stored(missing).then((stored) => {
      if (this.deps.closed()) return;
      // A row stored again since the read started is newer than this read: left as it is.
      engine.upsertMany([...stored.values()].map(feed.show), ticket);
      this.deps.changed(feed.name);
    }, (e: unknown) => this.deps.onError(e)).finally(() => this.inFlight--);
  }

  /**
   * A command's rows of engines keeping only some bodies, read back and held while the command
   * is checked and queued (the checks and the re-derivation after it read them synchronously);
   * once queued, the entries on them keep them held (`keepBodies`).
   */
  prepare(parts: readonly CommandPart[], feedOf: (c: QueriedCollection) => CollectionFeed): Promise<() => void> {
    // One after another, so commands reach their checks (and their created_at) in the order they were run.
    const prepared = this.preparing.then(() => this.prepareNow(parts, feedOf));
    this.preparing = prepared.then(() => undefined, () => undefined);
    return prepared;
  }

  private async prepareNow(parts: readonly CommandPart[], feedOf: (c: QueriedCollection) => CollectionFeed): Promise<() => void> {
    const releases: (() => void)[] = [];
    for (const part of parts) {
      const collection = part.def.collection;
      if (!isQueried(collection)) continue;
      const feed = feedOf(collection);
      if (feed.engine.keepsBodies) continue;
      const ids = [...new Set(part.def.entityIds(part.args))].filter((id) => feed.engine.has(id));
      releases.push(feed.engine.pin(ids));
      await this.joinWarm(feed, ids.length);
      const missing = ids.filter((id) => feed.engine.get(id) === undefined);
      if (missing.length > 0) await this.read(feed, missing, feed.engine.ticket());
    }
    return () => releases.forEach((release) => release());
  }

  /**
   * A referenced name changed, in an engine keeping only some bodies: the rows its columns say may
   * name it (`idsNaming`) are read back page by page and their search text re-derived (a row
   * stored again meanwhile already has its new text). Searches see the old name until it is done.
   */
  retextNaming(feed: CollectionFeed, changed: ReadonlySet<string>): Promise<void> {
    const engine = feed.engine;
    const ids: string[] = [];
    const inMemory: { id: string }[] = [];
    // Bodies in memory are re-texted now (a small mirror is done at once); the rest are read back.
    for (const id of engine.idsNaming(changed)) {
      const row = engine.get(id);
      if (row) inMemory.push(row);
      else ids.push(id);
    }
    engine.retext(inMemory, engine.ticket());
    if (ids.length === 0) return Promise.resolve();
    this.inFlight++;
    const run = async () => {
      for (let from = 0; from < ids.length && !this.deps.closed(); from += READ_PAGE) {
        const ticket = feed.engine.ticket();
        const rows = await this.all(feed, ids.slice(from, from + READ_PAGE));
        feed.engine.retext(rows, ticket);
      }
      if (!this.deps.closed()) this.deps.changed(feed.name);
    };
    this.retexts = this.retexts.then(run).catch((e: unknown) => this.deps.onError(e)).finally(() => this.inFlight--);
    return this.retexts;
  }
}
