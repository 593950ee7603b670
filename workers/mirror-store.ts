import { backfillCursorSchema, type BackfillCursor, type Change, type MirroredCollection } from '../schema/sync-feed.ts';
import { ENTITIES } from '../schema/collections.ts';
import { MIRROR_ENTITY_SCHEMAS } from '../schema/mirror.ts';
import { commandDef, entityRefs } from '../sync/outbox-machine.ts';
import type { EntityRefs, MirrorStore, OptimisticPort, OutboxEntry, PullCheckpoint } from '../sync/ports.ts';
import type { RxDocumentData } from 'rxdb';
import { CHECKPOINT_ID, clearMirroredRows, OWN_COLLECTIONS, refKey, type MetaDoc, type MirrorDatabase, type MirrorDoc, type OwnCollection, type RefDoc, type RefKind } from './db.ts';
import { putDocOver, putDocs, putNewDocs, removeDocs, storedDoc } from './bulk-write.ts';
import { storedShape } from './collections/index.ts';
import { COUNTED_COLLECTION } from './collection-feed.ts';
import type { OutboxIndex } from './outbox-index.ts';
import type { RowJournal } from './engine-snapshot-store.ts';
import { dropUnsafeKeys } from './sanitize.ts';
import { FIRST_PAGE_MARKS, markFirstPage } from '../sync/first-page-marks.ts';

/**
 * The mirror behind the sync engine's MirrorStore and OptimisticPort ports.
 *
 * The stored rows are always the server's versions. Optimistic edits are the outbox entries
 * (durable before the UI is told "saved"), applied over the stored rows in memory (rebase.ts).
 * That keeps every optimistic step free of row writes: queueing, rolling back and retrying a
 * 10,000-row bulk coding touch one outbox document, not 10,000 rows.
 *
 * Atomicity: RxDB has no transaction across collections, so a batch is made crash-safe by its
 * order and by idempotence rather than by one transaction. Rows are written first (each
 * collection in one IndexedDB transaction), the checkpoint last. A crash in between leaves the
 * old checkpoint, so the same batch is pulled and applied again; applying it again is harmless
 * because every write is a whole-row upsert or a delete keyed by id.
 *
 * Writes go through one queue, so a feed batch and a confirm never interleave; other tabs are
 * handled by the storage's revision check (see bulk-write.ts).
 */
const CHECKPOINT = CHECKPOINT_ID;
const STORED = new Map(OWN_COLLECTIONS.map((c) => [c, storedShape(c)]));
const isRef = (c: MirroredCollection): c is RefKind => ENTITIES[c].mirror.kind === 'ref';

export type Checkpoint = PullCheckpoint;

export interface MirrorStoreEvents {
  /** A row from the wire failed validation and was skipped (the batch still applies). */
  onInvalidRow?: (collection: string, id: string, issues: string) => void;
  /** What rows show changed without a row write (rollback, confirm overlay dropped). */
  onOverlayChanged?: (refs: EntityRefs) => void;
  /**
   * How many rows of COUNTED_COLLECTION (transactions: a cold-start first page) are stored once this batch's are
   * (the engine's size), or null while unknown. Saved with the checkpoint: a cold start's total without counting.
   */
  storedCount?: () => number | null;
  /** Issue 33: the engine snapshot's journal (engine-snapshots.ts), told COUNTED_COLLECTION ids before their rows are written. */
  journal?: RowJournal;
}

export class RxMirrorStore implements MirrorStore, OptimisticPort {
  private queue: Promise<unknown> = Promise.resolve();
  /** The checkpoint of the last batch fully stored (known after getCheckpoint or a batch). */
  private storedThrough = 0;
  /** The COUNTED_COLLECTION count saved with the last checkpoint read or written (null: none). */
  private savedCount: number | null = null;
  /** The stored checkpoint document as last read or written here (its next write goes over it). */
  private checkpointDoc: RxDocumentData<MetaDoc> | null = null;
  /** Every checkpoint write handed over so far, settled (they run in call order); how many are pending. */
  private checkpoints: Promise<void> = Promise.resolve();
  private pendingCheckpoints = 0;
  /** Batches of one pull share a generation; a failed batch marks it (`broken`), so no later checkpoint of it is stored. */
  private generation = 0;
  private broken = -1;
  /**
   * Rows a confirmed answer stored ahead of the feed (`collection:id` → the answer's change_seq), until a checkpoint
   * passes it. A feed batch read before the write committed may arrive after its answer: its older version must not
   * replace the answer's (the command has left the outbox: a fixed missing item came back to the wizard for a moment).
   */
  private aheadOfFeed = new Map<string, number>();

  constructor(
    private readonly db: MirrorDatabase,
    private readonly outbox: OutboxIndex,
    private readonly events: MirrorStoreEvents = {},
  ) {}

  /** Writes queued or running (a feed batch, a reset, a confirmed row). */
  private queued = 0;
  /** Runs writes one after another; a failed write does not block the ones after it. */
  private run<T>(fn: () => Promise<T>): Promise<T> {
    this.queued++;
    const next = this.queue.then(fn, fn);
    const done = () => void this.queued--;
    next.then(done, done);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Whether a write is queued or running: background work (text indexing) waits for a gap. */
  get writing(): boolean {
    return this.queued > 0 || this.pendingCheckpoints > 0;
  }

  /** Resolves when every write queued so far is on disk (checkpoints included). */
  idle(): Promise<void> {
    // Not a job in the queue: the text index asks between batches, and a job waiting there for
    // the last checkpoint would hold the next batch's rows back until it commits. Both taken
    // now: what is handed over later is not waited for.
    const settled = Promise.all([this.queue, this.checkpoints]);
    return settled.then(() => undefined);
  }

  /** Issue 33: runs `fn` in the write queue once every checkpoint handed over is stored: no row write in flight (a snapshot). */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const checkpoints = this.checkpoints;
    return this.run(() => checkpoints.then(fn));
  }

  /**
   * In the write queue, after every checkpoint handed over: a read racing a batch must not set
   * `storedThrough` back (the engine reads it at creation too). A pull starts with it, so the
   * batches after it are a new generation (an earlier failed batch no longer blocks them).
   */
  getCheckpoint(): Promise<Checkpoint> {
    const checkpoints = this.checkpoints;
    return this.run(async () => {
      await checkpoints;
      if (this.broken === this.generation) this.generation++;
      const checkpoint = await this.readCheckpoint();
      this.events.journal?.stored(checkpoint); // a pull starts (the leader): a complete mirror without a snapshot takes one
      return checkpoint;
    });
  }

  private async readCheckpoint(): Promise<Checkpoint> {
    const stored = await storedDoc(this.db.meta, CHECKPOINT);
    this.checkpointDoc = stored;
    const value = (stored && !stored._deleted ? stored.value : undefined) as Partial<Checkpoint> | undefined;
    const checkpoint: Checkpoint = {
      seq: typeof value?.seq === 'number' ? value.seq : 0,
      epoch: typeof value?.epoch === 'string' ? value.epoch : null,
      ...(value?.mirrored === true ? { mirrored: true } : {}),
      ...(firstOf(value) ? { first: firstOf(value)! } : {}),
      ...(backfillOf(value) ? { backfill: backfillOf(value)! } : {}),
    };
    this.storedThrough = checkpoint.seq;
    for (const [key, seq] of this.aheadOfFeed) if (seq <= checkpoint.seq) this.aheadOfFeed.delete(key);
    this.savedCount = countOf(value);
    return checkpoint;
  }

  /**
   * Rows first, then the checkpoint (see the header comment). Calls may overlap (the puller hands
   * over the next batch while this one is stored): the rows go through the write queue, so the
   * next batch's rows are written while this batch's checkpoint commits (they live in different
   * IndexedDB databases, so IndexedDB works on both at once), and checkpoints are written in call
   * order, each only once its own rows are stored and every earlier batch of the pull is. A
   * batch after a failed one stores its rows (harmless: whole-row writes) but never its
   * checkpoint, which would claim the failed rows; the pull's next `getCheckpoint` starts over.
   */
  applyChanges(changes: Change[], checkpoint: Checkpoint & { epoch: string }): Promise<void> {
    const generation = this.generation;
    // A first mirror's rows are new (bar a batch pulled again after a crash): added without the read.
    const fresh = checkpoint.mirrored !== true && checkpoint.first !== undefined;
    // A first mirror's first batch (its milestones are marked for bench/first-page-personas.ts).
    const firstBatch = fresh && checkpoint.first?.loaded === changes.length;
    const { lead, rest } = firstBatch ? leadOf(changes) : { lead: [], rest: changes };
    // Validated now, not in the queue: the CPU work overlaps the writes still running. The lead
    // is validated and handed to IndexedDB first, so it is written while the rest is validated.
    const leadRows = lead.length > 0 ? this.run(() => this.writeRows(this.validate(lead), true)) : null;
    const grouped = this.validate(rest);
    if (firstBatch) markFirstPage(FIRST_PAGE_MARKS.validated);
    const restRows = this.run(async () => {
      if (leadRows) await new Promise((resolve) => setTimeout(resolve, LEAD_PAUSE_MS));
      return this.writeRows(grouped, fresh);
    });
    const rows = leadRows ? Promise.all([leadRows, restRows]) : restRows;
    if (firstBatch) rows.then(() => markFirstPage(FIRST_PAGE_MARKS.stored), () => undefined);
    const earlier = this.checkpoints;
    this.pendingCheckpoints++;
    const stored = (async () => {
      try {
        await rows;
        await earlier;
        if (this.broken === generation) throw new Error('an earlier batch of this pull was not stored');
        await this.writeCheckpoint(lead.length > 0 || (COUNTED_COLLECTION !== undefined && grouped.has(COUNTED_COLLECTION)), checkpoint);
      } catch (e) {
        this.broken = generation;
        throw e;
      } finally {
        this.pendingCheckpoints--;
      }
    })();
    this.checkpoints = stored.catch(() => undefined);
    return stored;
  }

  private async writeRows(grouped: Map<MirroredCollection, { puts: MirrorDoc[]; removes: string[] }>, fresh: boolean): Promise<void> {
    const put = fresh ? putNewDocs : putDocs;
    const counted = COUNTED_COLLECTION && grouped.get(COUNTED_COLLECTION);
    if (counted) await this.events.journal?.append([...counted.puts.map((d) => d.id), ...counted.removes]);
    // Own collections one write each; the rows of every reference kind in one `refs` write.
    const refs = { puts: [] as RefDoc[], removes: [] as string[] };
    const own: [OwnCollection, { puts: MirrorDoc[]; removes: string[] }][] = [];
    for (const [collection, group] of grouped) {
      if (!isRef(collection)) own.push([collection, group]);
      else {
        for (const doc of group.puts) refs.puts.push(toRefDoc(collection, doc));
        for (const id of group.removes) refs.removes.push(refKey(collection, id));
      }
    }
    await Promise.all([
      ...own.map(async ([collection, { puts, removes }]) => {
        await put(this.db[collection] as never, puts as never);
        await removeDocs(this.db[collection] as never, removes);
      }),
      (async () => {
        await put(this.db.refs, refs.puts);
        await removeDocs(this.db.refs, refs.removes);
      })(),
    ]);
  }

  /** `counted`: the batch had changes of COUNTED_COLLECTION. */
  private async writeCheckpoint(counted: boolean, checkpoint: Checkpoint & { epoch: string }): Promise<void> {
    // Only after every row of the batch is stored. The batch's change events have reached the
    // engine by now, so the count includes its rows (and perhaps the next batch's, stored too).
    // Unknown while the engine loads: a batch without changes of the counted collection keeps
    // the saved count (an empty catch-up pull after a reload must not erase it); any other drops it.
    const count = this.events.storedCount?.() ?? (counted ? null : this.savedCount);
    this.savedCount = count;
    const value = {
      seq: checkpoint.seq, epoch: checkpoint.epoch, ...(count === null ? {} : { count }),
      ...(checkpoint.mirrored ? { mirrored: true } : {}), ...(checkpoint.first ? { first: checkpoint.first } : {}),
      ...(checkpoint.backfill ? { backfill: checkpoint.backfill } : {}),
    };
    this.checkpointDoc = await putDocOver(this.db.meta, { id: CHECKPOINT, value }, this.checkpointDoc);
    this.storedThrough = checkpoint.seq;
    for (const refs of this.outbox.dropConfirmedThrough(checkpoint.seq)) this.events.onOverlayChanged?.(refs);
    this.events.journal?.stored(checkpoint);
  }

  /**
   * The COUNTED_COLLECTION (transactions) count saved with the last checkpoint, or null (never
   * saved). A hint: a crash between a batch's rows and its checkpoint leaves it behind until the
   * next batch.
   */
  async storedCount(): Promise<number | null> {
    const doc = await this.db.meta.findOne(CHECKPOINT).exec();
    return countOf(doc?.toJSON().value);
  }

  reset(): Promise<void> {
    const checkpoints = this.checkpoints;
    return this.run(async () => {
      await checkpoints;
      await this.events.journal?.drop();
      await clearMirroredRows(this.db);
      this.checkpointDoc = await storedDoc(this.db.meta, CHECKPOINT);
      this.storedThrough = 0;
      this.savedCount = 0;
      this.aheadOfFeed.clear();
    });
  }

  /**
   * Refused by the server: nothing stored changes (rows are the server's versions already).
   * The entry leaves the applied states when the outbox records the refusal; tell the readers
   * now so the row shows the server's version at once.
   */
  async rollback(entry: OutboxEntry): Promise<void> {
    this.events.onOverlayChanged?.(entityRefs(entry));
  }

  /** Retried: the entry returns to pending and is applied again by every reader. */
  async reapply(entry: OutboxEntry): Promise<void> {
    this.events.onOverlayChanged?.(entityRefs(entry));
  }

  /**
   * The server took the command; its definition says how it confirms. `row`: the answer is the
   * entity's new server version, stored at once; rows of other collections it also changed
   * (its `also`) come with the feed, so its effect stays on those until the feed has delivered
   * the answer's seq (the server writes them before the row it answers). `change_seq`: the
   * answer names the last change seq it wrote; the command stays applied in memory until the
   * feed has delivered that seq.
   */
  async confirm(entry: OutboxEntry, response: unknown): Promise<void> {
    const def = commandDef(entry.command);
    const collection = def.collection;
    const row = def.confirm === 'row' ? MIRROR_ENTITY_SCHEMAS[collection].safeParse(dropUnsafeKeys(response)) : null;
    const id = row?.success ? (row.data as { id: string }).id : null;
    if (id !== null && entry.entity_ids.includes(id)) {
      const data = row!.data as Record<string, unknown>;
      const doc = toStored(collection, data) as MirrorDoc;
      const others = def.also ? entry.entity_ids.filter((e) => e !== id) : [];
      const seq = data.change_seq;
      if (others.length > 0 && typeof seq === 'number' && seq > this.storedThrough) this.outbox.confirm({ ...entry, entity_ids: others }, seq);
      if (typeof seq === 'number' && seq > this.storedThrough) {
        const key = `${collection}:${id}`;
        this.aheadOfFeed.set(key, Math.max(seq, this.aheadOfFeed.get(key) ?? 0));
      }
      // Queued behind feed batches, so a newer row from the feed is never overwritten by this one.
      await this.run(async () => {
        if (collection === COUNTED_COLLECTION) await this.events.journal?.append([id]);
        await (isRef(collection) ? putDocs(this.db.refs, [toRefDoc(collection, doc)]) : putDocs(this.db[collection] as never, [doc] as never));
      });
      return;
    }
    // Not queued: nothing is written, and the outbox should not wait for feed batches to land.
    const seq = (response as { change_seq?: unknown } | null)?.change_seq;
    // The feed may have been faster than the answer: then the rows already carry the change.
    if (typeof seq === 'number' && seq <= this.storedThrough) return;
    // Unknown seq (unreadable answer): keep the effect until the next batch has been applied.
    this.outbox.confirm(entry, typeof seq === 'number' ? seq : this.storedThrough + 1);
  }

  /**
   * Distrusts the wire: each row is checked against its entity schema (unknown keys dropped,
   * `__proto__`-style keys removed first) and must carry the id it is announced under. In seq
   * order, the last change of an id wins.
   */
  private validate(changes: readonly Change[]) {
    const latest = new Map<MirroredCollection, Map<string, Record<string, unknown> | null>>();
    for (const change of changes) {
      let rows = latest.get(change.collection);
      if (!rows) latest.set(change.collection, (rows = new Map()));
      if (change.deleted || change.doc === null) {
        rows.set(change.id, null);
        continue;
      }
      // An older version than a confirmed answer already stored (see `aheadOfFeed`): skipped.
      if ((this.aheadOfFeed.get(`${change.collection}:${change.id}`) ?? 0) > change.seq) continue;
      const parsed = MIRROR_ENTITY_SCHEMAS[change.collection].safeParse(dropUnsafeKeys(change.doc));
      if (!parsed.success || (parsed.data as { id: string }).id !== change.id) {
        this.events.onInvalidRow?.(change.collection, change.id, parsed.success ? 'id mismatch' : parsed.error.message);
        continue;
      }
      rows.set(change.id, toStored(change.collection, parsed.data as Record<string, unknown>));
    }
    const out = new Map<MirroredCollection, { puts: MirrorDoc[]; removes: string[] }>();
    for (const [collection, rows] of latest) {
      const puts: MirrorDoc[] = [];
      const removes: string[] = [];
      for (const [id, doc] of rows) {
        if (doc) puts.push(doc as MirrorDoc);
        else removes.push(id);
      }
      out.set(collection, { puts, removes });
    }
    return out;
  }
}

/**
 * Rows of a first mirror's first batch that the list shows first (issue 33): the batch's prefix up
 * to its LEAD_ROWS-th row of COUNTED_COLLECTION. The walk sends the reference rows first, then each
 * stage newest first, so the lead holds the names the newest rows show (a cardholder, a GL account)
 * with them: never a row painted before its names. Stored in an IndexedDB write of its own ahead of
 * the batch's others, it reaches the engine through the change stream (collection-feed.ts) and the
 * list paints while the rest is still validated and written; the checkpoint still waits for every
 * row. A walk sends each row once, so no id is in both parts. The rest waits LEAD_PAUSE_MS after the
 * lead is stored: the worker answers the list's query (the status hub's notice comes 50 ms after the
 * rows) before the rest's clone for IndexedDB and its change events take the worker over.
 */
export const LEAD_ROWS = 100;
const LEAD_PAUSE_MS = 150;

function leadOf(changes: Change[]): { lead: Change[]; rest: Change[] } {
  let counted = 0;
  let end = 0;
  while (end < changes.length && counted < LEAD_ROWS) {
    if (changes[end]!.collection === COUNTED_COLLECTION && !changes[end]!.deleted) counted++;
    end++;
  }
  // Only worth a write of its own when the batch has more than the lead.
  return counted > 0 && end < changes.length ? { lead: changes.slice(0, end), rest: changes.slice(end) } : { lead: [], rest: changes };
}

function firstOf(value: unknown): { loaded: number; total: number } | null {
  const first = (value as { first?: { loaded?: unknown; total?: unknown } } | undefined)?.first;
  return typeof first?.loaded === 'number' && typeof first.total === 'number' ? { loaded: first.loaded, total: first.total } : null;
}

/** A first mirror's walk cursor (sync/ports.ts PullCheckpoint.backfill); anything unreadable is none (the walk restarts). */
function backfillOf(value: unknown): BackfillCursor | null {
  const parsed = backfillCursorSchema.safeParse((value as { backfill?: unknown } | undefined)?.backfill);
  return parsed.success ? parsed.data : null;
}

function countOf(value: unknown): number | null {
  const count = (value as { count?: unknown } | undefined)?.count;
  return typeof count === 'number' && Number.isInteger(count) && count >= 0 ? count : null;
}

/** `deleted` is not stored (MIRROR_OMITTED_FIELDS); own collections add their mirror-only fields. */
function toStored(collection: MirroredCollection, row: Record<string, unknown>): Record<string, unknown> {
  const shape = isRef(collection) ? undefined : STORED.get(collection);
  if (shape) return shape(row);
  const { deleted, ...doc } = row;
  void deleted;
  return doc;
}

function toRefDoc(kind: RefKind, row: MirrorDoc): RefDoc {
  return { id: refKey(kind, row.id), kind, row_id: row.id, row: row as unknown as RefDoc['row'] };
}
