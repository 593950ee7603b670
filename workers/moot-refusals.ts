import type { RxCollection, RxDocument } from 'rxdb';
import type { MetaDoc } from './db.ts';
import type { OutboxIndex } from './outbox-index.ts';
import type { RxOutboxStore } from './outbox-store.ts';

/** Meta documents `moot|<entry id>` → the row's change_seq when that refusal was first shown. */
const PREFIX = 'moot|';

/**
 * Issue 25 item 8's moot refusals, across reloads. `OutboxIndex.isMoot` compares the row's
 * change_seq with the one it had when the refusal was first shown failed; that record is kept in
 * the mirror's `meta` store (one small document per failed entry, the outbox's own schema is
 * the sync engine's), read back before the outbox is shown, and dropped with its entry. A moot
 * refusal is then removed from the outbox (only while still failed: a retry in flight is left
 * alone), and the outbox change stream drops it from the index.
 */
export class MootRefusals {
  /** Moot refusals being discarded (a row is viewed many times meanwhile). */
  private readonly discarding = new Set<string>();
  /** Entries with a stored record (read at attach, or written here): only theirs are removed. */
  private readonly recorded = new Set<string>();

  constructor(
    private readonly meta: RxCollection<MetaDoc>,
    private readonly outbox: RxOutboxStore,
    private readonly onError: (e: unknown) => void,
  ) {}

  /**
   * Wires the index: its first sightings are stored; the stored ones of live entries are seeded
   * from `docs`, every meta document as the runtime read it at open (beside the outbox, not after it).
   */
  attach(index: OutboxIndex, live: ReadonlySet<string>, docs: readonly RxDocument<MetaDoc>[]): void {
    index.onFailedSeen = (id, seq) => this.write(id, seq);
    const seen: [string, number][] = [];
    for (const doc of docs) {
      if (!doc.id.startsWith(PREFIX)) continue;
      const id = doc.id.slice(PREFIX.length);
      if (live.has(id) && typeof doc.value === 'number') {
        seen.push([id, doc.value]);
        this.recorded.add(id);
      }
      // An entry gone while this record was written (another tab, a crash): the record goes too.
      else if (!live.has(id)) void doc.remove().catch(this.onError);
    }
    index.seedFailedOn(seen);
  }

  /** The entry left the outbox: its record is no longer needed. */
  forget(id: string): void {
    if (!this.recorded.delete(id)) return;
    void this.meta.findOne(PREFIX + id).exec().then((doc) => doc?.remove()).catch(this.onError);
  }

  /** Removes the moot refusals named from the outbox (`createViewers`' `onMoot`). */
  discard(ids: readonly string[]): void {
    for (const id of ids) {
      if (this.discarding.has(id)) continue;
      this.discarding.add(id);
      void this.outbox.get(id)
        .then((entry) => (entry?.state === 'failed' ? this.outbox.remove(id) : undefined))
        .catch(this.onError)
        .finally(() => this.discarding.delete(id));
    }
  }

  private write(id: string, seq: number): void {
    this.recorded.add(id);
    void this.meta.upsert({ id: PREFIX + id, value: seq }).catch(this.onError);
  }
}
