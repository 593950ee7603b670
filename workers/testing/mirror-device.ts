import { onTestFinished } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { CommandActor } from '../../schema/commands/define-command.ts';
import type { Change, MirroredCollection } from '../../schema/sync-feed.ts';
import { createHttpClient } from '../../sync/http.ts';
import { createOutbox } from '../../sync/outbox.ts';
import type { LocalFilesPort, OutboxEntry } from '../../sync/ports.ts';
import { createFakeClock, fakeToken, scriptedTransport, type ScriptStep } from '../../sync/testing.ts';
import { mirrorStorage } from '../db.ts';
import { MirrorRuntime } from '../mirror-runtime.ts';

/**
 * The command tests' mirror (vitest only): `mirrorDevice(name, actor)` → `open()` a MirrorRuntime
 * as `actor` on one fake IndexedDB (no sync, deferred work at once); opening it again is a restart
 * of the same device. Every runtime opened is closed when its test ends.
 */
export function mirrorDevice(name: string, actor: CommandActor, idb = new IDBFactory(), opts: { bodies?: number } = {}) {
  return async () => {
    const rt = await MirrorRuntime.open({ name, storage: mirrorStorage({ indexedDB: idb, IDBKeyRange }), multiInstance: false, defer: (fn) => fn(), actor, ...opts });
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

/**
 * The leader's outbox over this mirror's stored entries, sending through a scripted network with
 * a token of `scopes` (default `['default']`), this device's id and these device files if given.
 * The entries were stamped by the wall clock; the network comes back after that.
 */
export function outboxOver(rt: MirrorRuntime, steps: ScriptStep[], opts: { scopes?: string[]; device?: () => string; files?: LocalFilesPort } = {}) {
  const clock = createFakeClock(Date.now() + 1_000);
  const transport = scriptedTransport(steps);
  const session = { getToken: () => fakeToken(opts.scopes ?? ['default']), onUnauthorized: () => undefined };
  const http = createHttpClient({ baseUrl: 'http://api.test', transport, clock, session, ...(opts.device ? { device: opts.device } : {}) });
  const outbox = createOutbox({ store: rt.outboxStore, http, optimistic: rt.mirror, clock, session, ...(opts.files ? { files: opts.files } : {}) });
  return { clock, transport, outbox };
}

/** The id of the command a `run` queued (throws when it was refused). */
export const commandId = (result: { ok: boolean; command_id?: string }) => {
  if (!result.ok || !result.command_id) throw new Error('the command was refused');
  return result.command_id;
};
