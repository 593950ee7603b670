import { onTestFinished } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { CommandActor } from '../../schema/commands/define-command.ts';
import type { Change, MirroredCollection } from '../../schema/sync-feed.ts';
import type { OutboxEntry } from '../../sync/ports.ts';
import { mirrorStorage } from '../db.ts';
import { MirrorRuntime } from '../mirror-runtime.ts';

/**
 * The command tests' mirror (vitest only): `mirrorDevice(name, actor)` → `open()` a MirrorRuntime
 * as `actor` on one fake IndexedDB (no sync, deferred work at once); opening it again is a restart
 * of the same device. Every runtime opened is closed when its test ends.
 */
export function mirrorDevice(name: string, actor: CommandActor, idb = new IDBFactory()) {
  return async () => {
    const rt = await MirrorRuntime.open({ name, storage: mirrorStorage({ indexedDB: idb, IDBKeyRange }), multiInstance: false, defer: (fn) => fn(), actor });
    onTestFinished(() => rt.close());
    await rt.ready;
    return rt;
  };
}

/** A feed change carrying `doc` as the server's row of `collection` at its change_seq. */
export const feedChange = <C extends MirroredCollection>(collection: C, doc: { id: string; change_seq: number }): Change =>
  ({ collection, seq: doc.change_seq, id: doc.id, deleted: false, doc }) as Change;

/** The feed brings `changes` (checkpoint: their highest seq). */
export async function serverRows(rt: MirrorRuntime, changes: Change[]) {
  await rt.mirror.applyChanges(changes, { seq: Math.max(...changes.map((c) => c.seq)), epoch: 'e' });
}

/** The stored outbox entry `id` (throws when there is none). */
export async function entryOf(rt: MirrorRuntime, id: string): Promise<OutboxEntry> {
  const entry = await rt.outboxStore.get(id);
  if (!entry) throw new Error(`no entry ${id}`);
  return entry;
}
