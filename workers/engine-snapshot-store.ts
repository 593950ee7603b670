import { Dexie, type DexieOptions, type Table } from 'dexie';
import type { EngineSnapshot } from './engine-spec.ts';

/**
 * Issue 33: where the transactions engine's snapshot lives, in a small Dexie database of its own
 * beside the mirror (`<mirror db name>-engine`, like the receipt store), not an RxDB collection
 * (the free RxDB build opens 13 and 12 are used). Two tables:
 * - `snapshot`: one record, the engine as typed arrays (query-engine.ts `snapshot`), keyed by the
 *   snapshot format and the mirror's layout so another one is ignored (and the engine rebuilt);
 * - `journal`: a write-ahead list of transaction ids whose stored rows changed after the snapshot.
 *   RxMirrorStore appends the ids (awaited) before it writes or removes those rows, so a reload
 *   restores the snapshot and reads back exactly the rows named here (a crash between the append
 *   and the write only reads back a row that did not change). A snapshot and the removal of the
 *   journal entries it covers are one transaction.
 * The journal is kept only while the `on` mark is set (from the moment a snapshot is taken), so a
 * first mirror's million rows cost one small read per batch, not a million journal entries.
 */
export interface SnapshotRecord {
  /** Always SNAPSHOT_KEY (one record). */
  key: string;
  format: number;
  /** The mirror's layout (db.ts MIRROR_LAYOUT) the rows were stored under. */
  layout: string;
  /** The mirror's checkpoint when taken: a mirror whose checkpoint is behind it (emptied, another epoch) is not the one it was taken of. */
  seq: number;
  epoch: string | null;
  /** The last journal entry the snapshot includes. */
  through: number;
  /** Reference id → the words it gave the rows' search text then (a name changed since: those rows are re-texted). */
  names: Record<string, string>;
  /** Ids of rows shown otherwise than stored when taken (commands on them, rows they create): made again from the store and outbox. */
  derived: string[];
  engine: EngineSnapshot;
}

/** What RxMirrorStore tells the journal (mirror-store.ts MirrorStoreEvents `journal`). */
export interface RowJournal {
  /** Before these rows of the counted collection are written or removed (awaited). */
  append(ids: readonly string[]): Promise<void>;
  /** A batch's checkpoint is stored (the moment to consider a snapshot). */
  stored(checkpoint: { seq: number; mirrored?: boolean }): void;
  /** The mirror is emptied: the snapshot and its journal go. */
  drop(): Promise<void>;
}

const SNAPSHOT_KEY = 'transactions';
const ON = 'journal';

export class EngineSnapshotStore {
  private readonly db: Dexie;
  private readonly snapshots: Table<SnapshotRecord, string>;
  private readonly journal: Table<{ seq?: number; id: string }, number>;
  private readonly marks: Table<{ key: string }, string>;

  constructor(readonly name: string, options?: DexieOptions) {
    this.db = new Dexie(name, options);
    this.db.version(1).stores({ snapshot: 'key', journal: '++seq', marks: 'key' });
    this.snapshots = this.db.table('snapshot');
    this.journal = this.db.table('journal');
    this.marks = this.db.table('marks');
  }

  /** Appends the ids to the journal if it is on (a snapshot exists or is being taken); how many were appended. */
  async append(ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    return this.db.transaction('rw', this.marks, this.journal, async () => {
      if (!(await this.marks.get(ON))) return 0;
      await this.journal.bulkAdd(ids.map((id) => ({ id })));
      return ids.length;
    });
  }

  /** Turns the journal on (before a snapshot's state is read) and answers its last entry: what the snapshot will include. */
  async begin(): Promise<number> {
    await this.marks.put({ key: ON });
    return ((await this.journal.orderBy(':id').lastKey()) as number | undefined) ?? 0;
  }

  /**
   * Stores the snapshot and drops the journal entries it includes, in one transaction; false when
   * the journal was turned off since `begin` (the mirror was emptied meanwhile: the snapshot is of rows gone).
   */
  async write(record: Omit<SnapshotRecord, 'key'>): Promise<boolean> {
    return this.db.transaction('rw', this.snapshots, this.journal, this.marks, async () => {
      if (!(await this.marks.get(ON))) return false;
      await this.snapshots.put({ ...record, key: SNAPSHOT_KEY });
      await this.journal.where(':id').belowOrEqual(record.through).delete();
      return true;
    });
  }

  /** The snapshot (null: none) and the ids journaled after it. */
  async read(): Promise<{ record: SnapshotRecord | null; journal: string[] }> {
    return this.db.transaction('r', this.snapshots, this.journal, async () => {
      const record = (await this.snapshots.get(SNAPSHOT_KEY)) ?? null;
      const journal = record ? (await this.journal.where(':id').above(record.through).toArray()).map((e) => e.id) : [];
      return { record, journal };
    });
  }

  /** No snapshot any more: the record, the journal and its mark go. */
  async drop(): Promise<void> {
    await this.db.transaction('rw', this.snapshots, this.journal, this.marks, async () => {
      await this.snapshots.clear();
      await this.journal.clear();
      await this.marks.clear();
    });
  }

  close(): void {
    this.db.close();
  }

  /** Deletes the database (the mirror is removed from the device). */
  delete(): Promise<void> {
    return this.db.delete();
  }
}
