import type { RxDocument } from 'rxdb';
import type { EntityRefs, OutboxEntry } from '../sync/ports.ts';
import { entityRefs } from '../sync/outbox-machine.ts';
import { CHECKPOINT_ID, type MetaDoc } from './db.ts';
import type { OutboxIndex } from './outbox-index.ts';
import type { RxOutboxStore } from './outbox-store.ts';
import type { RxMirrorStore } from './mirror-store.ts';

/**
 * Commands the service worker delivered with no tab open (issue 26). It writes no mirror rows, so
 * it keeps each such entry stored `done` with the server's answer (`OutboxEntry.answer`). Here,
 * in every tab's runtime, each one is confirmed as the leader confirms a live delivery
 * (`RxMirrorStore.confirm`: a `row` answer is stored, a change seq keeps the command's effect over
 * the older row): the next open, offline too, shows the change rather than the row it replaced.
 * The stored entry goes once nothing needs it: at once when the confirm left no overlay (its row
 * stored, or its seq already in the mirror), else when the feed passes its seq (the leader's
 * `dropConfirmedThrough`, through `OutboxIndex.onDeliveredDropped`). Its removal reaches the
 * other tabs as an outbox change, where `removed` drops their overlay.
 */
export class DeliveredCommands {
  /** The stored checkpoint's seq when the outbox was read: a delivered change at or below it is in the mirror. */
  private through = 0;

  constructor(
    private readonly deps: {
      store: Pick<RxOutboxStore, 'remove'>;
      mirror: Pick<RxMirrorStore, 'confirm'>;
      index: OutboxIndex;
      refresh(refs: EntityRefs): void;
      onError(error: unknown): void;
    },
  ) {
    deps.index.onDeliveredDropped = (id) => this.forget(id);
  }

  /**
   * At open: every stored delivered entry, and the stored checkpoint's seq among the meta
   * documents, as the runtime read them (the outbox and the meta store side by side).
   */
  async load(entries: readonly OutboxEntry[], meta: readonly RxDocument<MetaDoc>[]): Promise<void> {
    const seq = (meta.find((d) => d.id === CHECKPOINT_ID)?.value as { seq?: unknown } | undefined)?.seq;
    this.through = typeof seq === 'number' ? seq : 0;
    for (const entry of entries) await this.show(entry);
  }

  /** A delivered entry, read at open or written by the service worker while this tab opened. */
  async show(entry: OutboxEntry): Promise<void> {
    const { index, mirror } = this.deps;
    if (index.isConfirmed(entry.id)) return;
    const seq = entry.answer?.change_seq;
    if (typeof seq === 'number' && seq <= this.through) return this.forget(entry.id);
    index.markDelivered(entry.id);
    await mirror.confirm(entry, entry.answer ?? null);
    // Kept as an overlay until the feed passes its seq; otherwise the confirm stored what it needed.
    if (index.isConfirmed(entry.id)) return this.deps.refresh(entityRefs(entry));
    index.forgetDelivered(entry.id);
    this.forget(entry.id);
  }

  /** A stored entry was removed (here or in another tab): a delivered one's overlay goes. */
  removed(id: string): void {
    const refs = this.deps.index.forgetDelivered(id);
    if (refs) this.deps.refresh(refs);
  }

  private forget(id: string): void {
    this.deps.store.remove(id).catch((e: unknown) => this.deps.onError(e));
  }
}
