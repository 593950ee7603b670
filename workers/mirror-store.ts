import type { Change } from '../schema/sync-feed.ts';
import { MIRRORED_COLLECTIONS, type MirroredCollection } from '../schema/sync-feed.ts';
import { MIRROR_ENTITY_SCHEMAS, type MirroredTransaction } from '../schema/mirror.ts';
import { transactionSchema, type Transaction } from '../schema/entities/transaction.ts';
import type { MirrorStore, OptimisticPort, OutboxEntry } from '../sync/ports.ts';
import type { MirrorDatabase, MirrorDoc } from './db.ts';
import { getDocs, putDocs, removeDocs, scanDocs, updateDocs } from './bulk-write.ts';
import type { OutboxIndex } from './outbox-index.ts';
import { isCurrent, recomputeRow, toMirrored, type AnyTransactionRow, type RecomputeOptions } from './rebase.ts';
import { dropUnsafeKeys } from './sanitize.ts';

/**
 * The mirror behind the sync engine's MirrorStore and OptimisticPort ports.
 *
 * Atomicity: RxDB has no transaction across collections, so a batch is made crash-safe by its
 * order and by idempotence rather than by one transaction. Rows are written first (each
 * collection in one IndexedDB transaction), the checkpoint last. A crash in between leaves the
 * old checkpoint, so the same batch is pulled and applied again; applying it again is harmless
 * because every write is a whole-row upsert or a delete keyed by id, and rows are rebuilt from
 * (server row, pending commands) rather than patched.
 *
 * Every write goes through one queue, so a feed batch, an optimistic write and a confirm never
 * interleave their read-modify-write on the same rows within this tab; other tabs are handled
 * by the storage's revision check (see bulk-write.ts).
 */
const CHECKPOINT = 'checkpoint';
const RESET_PAGE = 5_000;

export interface Checkpoint {
  seq: number;
  epoch: string | null;
}

export interface MirrorStoreEvents {
  /** A row from the wire failed validation and was skipped (the batch still applies). */
  onInvalidRow?: (collection: string, id: string, issues: string) => void;
}

export class RxMirrorStore implements MirrorStore, OptimisticPort {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: MirrorDatabase,
    private readonly outbox: OutboxIndex,
    private readonly events: MirrorStoreEvents = {},
  ) {}

  /** Runs writes one after another; a failed write does not block the ones after it. */
  private run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Resolves when every write queued so far is on disk. */
  idle(): Promise<void> {
    return this.run(async () => undefined);
  }

  async getCheckpoint(): Promise<Checkpoint> {
    const doc = await this.db.meta.findOne(CHECKPOINT).exec();
    const value = doc?.toJSON().value as Partial<Checkpoint> | undefined;
    return { seq: typeof value?.seq === 'number' ? value.seq : 0, epoch: typeof value?.epoch === 'string' ? value.epoch : null };
  }

  applyChanges(changes: Change[], checkpoint: { seq: number; epoch: string }): Promise<void> {
    return this.run(async () => {
      const grouped = this.validate(changes);
      await Promise.all(
        [...grouped].map(async ([collection, { puts, removes }]) => {
          const docs = collection === 'transactions' ? puts.map((row) => this.rebase(row as Transaction)) : puts;
          await putDocs(this.db[collection] as never, docs as never);
          await removeDocs(this.db[collection] as never, removes);
        }),
      );
      // Last, and only after every row of the batch is stored (see the header comment).
      await this.db.meta.upsert({ id: CHECKPOINT, value: { seq: checkpoint.seq, epoch: checkpoint.epoch } });
    });
  }

  reset(): Promise<void> {
    return this.run(async () => {
      for (const name of MIRRORED_COLLECTIONS) {
        const collection = this.db[name] as never as Parameters<typeof scanDocs<MirrorDoc>>[0];
        for (;;) {
          const page = await scanDocs(collection, RESET_PAGE).next();
          if (page.done || page.value.length === 0) break;
          await removeDocs(collection, page.value.map((d) => d.id));
        }
      }
      await this.db.meta.upsert({ id: CHECKPOINT, value: { seq: 0, epoch: null } });
    });
  }

  /** Puts local commands (already durable in the outbox) on top of their rows. */
  applyLocal(entries: readonly OutboxEntry[]): Promise<void> {
    const ids = entries.flatMap((e) => e.entity_ids);
    return this.rewrite(ids, {});
  }

  rollback(entry: OutboxEntry): Promise<void> {
    return this.rewrite(entry.entity_ids, { exclude: entry.id });
  }

  reapply(entry: OutboxEntry): Promise<void> {
    return this.rewrite(entry.entity_ids, { include: entry });
  }

  /**
   * The server took the command: its effect becomes part of the confirmed row. A single-row
   * PATCH answers with the row itself; a bulk call answers with a count, so the confirmed row
   * is the shadow with the command applied, which is what the server ran.
   */
  confirm(entry: OutboxEntry, response: unknown): Promise<void> {
    const returned = entry.command === 'transaction.code' ? transactionSchema.safeParse(dropUnsafeKeys(response)) : null;
    return this.run(() =>
      updateDocs(this.db.transactions, entry.entity_ids, (current) => {
        const shadow = current.shadow;
        if (!shadow) return null;
        const base = returned?.success && returned.data.id === current.id ? returned.data : this.outbox.applyTo(entry, shadow);
        return recomputeRow(this.outbox, current, { exclude: entry.id, base });
      }),
    );
  }

  /**
   * After a restart: rows whose stored commands differ from the outbox (a crash between the
   * outbox write and the row write, or a command finished by another tab) are rebuilt.
   */
  reconcile(candidates: readonly AnyTransactionRow[]): Promise<void> {
    const stale = candidates.filter((row) => !isCurrent(this.outbox, row)).map((row) => row.id);
    return this.rewrite(stale, {});
  }

  private rewrite(ids: readonly string[], opts: RecomputeOptions): Promise<void> {
    return this.run(() => updateDocs(this.db.transactions, ids, (current) => recomputeRow(this.outbox, current, opts)));
  }

  /** A server row with the commands still pending on it put back on top. */
  private rebase(row: Transaction): MirroredTransaction {
    return this.outbox.hasEntries(row.id) ? recomputeRow(this.outbox, row, { base: row }) : toMirrored(row);
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
      const parsed = MIRROR_ENTITY_SCHEMAS[change.collection].safeParse(dropUnsafeKeys(change.doc));
      if (!parsed.success || (parsed.data as { id: string }).id !== change.id) {
        this.events.onInvalidRow?.(change.collection, change.id, parsed.success ? 'id mismatch' : parsed.error.message);
        continue;
      }
      // `deleted` is not stored (MIRROR_OMITTED_FIELDS): a stored row is never a tombstone.
      const { deleted, ...doc } = parsed.data as Record<string, unknown>;
      void deleted;
      rows.set(change.id, doc);
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

  /** Stored transactions by id (plain objects), for reads that must see the shadow. */
  getTransactions(ids: readonly string[]): Promise<Map<string, MirroredTransaction>> {
    return getDocs(this.db.transactions, ids);
  }
}
