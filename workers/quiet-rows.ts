import { Subject } from 'rxjs';
import { mergeWith } from 'rxjs/operators';
import { getPrimaryFieldOfPrimaryKey, randomToken } from 'rxdb';
import type { EventBulk, RxDocumentData, RxStorageChangeEvent, RxStorageDefaultCheckpoint, RxStorageInstance } from 'rxdb';

/**
 * A first mirror's rows told to other tabs by id, not by copy (issue 33).
 *
 * RxDB's multi-instance support (rx-storage-multiinstance.js) posts every event bulk of a storage
 * instance's change stream on a BroadcastChannel: every document a first mirror writes is
 * structured-cloned once more in the data worker and copied through the browser process, whether
 * or not another tab listens (≈ 2 s of worker CPU at 100k, the third session's profile). Here the
 * instance gets a second, local stream merged into its `changeStream()` — RxDB's collection reads
 * it, the broadcast does not — and a channel of its own on which a batch is announced as its ids.
 * A tab that hears them reads those rows from IndexedDB (committed before the announcement) and
 * emits them on its own local stream as inserts, so its collection, queries and engine see what
 * they saw before. Rows deleted meanwhile are skipped: the delete's own event carries them.
 *
 * Only `putNewDocs` (bulk-write.ts) writes this way; every other write keeps RxDB's broadcast.
 * A follower reading the rows after a newer write of them committed reads that newer version
 * (IndexedDB orders a read created before a write ahead of it), so a re-read never goes back.
 */
type Bulk<T> = EventBulk<RxStorageChangeEvent<RxDocumentData<T>>, RxStorageDefaultCheckpoint>;

export interface QuietRows<T> {
  /** Emits `bulk` to this tab's collection only, then announces its ids to the other tabs. */
  emit(bulk: Bulk<T>): void;
}

const QUIET = Symbol('ledgerline.quietRows');
const CONTEXT = 'ledgerline-mirror-announced';

interface Announcement {
  ids: string[];
}

type Port = Pick<BroadcastChannel, 'postMessage' | 'close'> & { onmessage: ((ev: MessageEvent) => void) | null };
export type ChannelFactory = (name: string) => Port | null;

const nativeChannel: ChannelFactory = (name) => (typeof BroadcastChannel === 'function' ? new BroadcastChannel(name) : null);

/** The channel's name: one per database, collection and schema version (as RxDB's own messages are filtered). */
export function quietChannelName(params: { databaseName: string; collectionName: string; schema: { version: number } }): string {
  return `ledgerline-rows|${params.databaseName}|${params.collectionName}|${params.schema.version}`;
}

/**
 * Gives `instance` its local stream and, when `multiInstance`, its announcement channel. Call
 * after RxDB's multi-instance support has wrapped `changeStream` and before a collection reads it.
 */
export function addQuietRows<T>(
  instance: RxStorageInstance<T, unknown, unknown>,
  params: { databaseName: string; collectionName: string; schema: { version: number }; multiInstance: boolean },
  channelOf: ChannelFactory = nativeChannel,
): void {
  const local = new Subject<Bulk<T>>();
  const previous = instance.changeStream.bind(instance);
  instance.changeStream = () => previous().pipe(mergeWith(local));
  const channel = params.multiInstance ? channelOf(quietChannelName(params)) : null;
  let closed = false;
  if (channel) {
    channel.onmessage = (ev: MessageEvent) => {
      const ids = (ev.data as Partial<Announcement> | null)?.ids;
      if (!closed && Array.isArray(ids) && ids.every((id) => typeof id === 'string')) void reread(instance, local, ids, () => closed);
    };
  }
  const quiet: QuietRows<T> = {
    emit(bulk) {
      local.next(bulk);
      if (channel && !closed) channel.postMessage({ ids: bulk.events.map((e) => e.documentId) } satisfies Announcement);
    },
  };
  (instance as unknown as Record<symbol, unknown>)[QUIET] = quiet;
  for (const method of ['close', 'remove'] as const) {
    const original = instance[method].bind(instance);
    instance[method] = async () => {
      closed = true;
      channel?.close();
      local.complete();
      return original();
    };
  }
}

async function reread<T>(instance: RxStorageInstance<T, unknown, unknown>, local: Subject<Bulk<T>>, ids: string[], isClosed: () => boolean): Promise<void> {
  const docs = await instance.findDocumentsById(ids, false).catch(() => []);
  if (isClosed() || docs.length === 0) return;
  const primary = getPrimaryFieldOfPrimaryKey(instance.schema.primaryKey) as string;
  const events = docs.map((doc) => ({
    documentId: String((doc as Record<string, unknown>)[primary]),
    operation: 'INSERT' as const,
    documentData: doc,
    previousDocumentData: undefined,
  }));
  const last = docs[docs.length - 1]!;
  local.next({ id: randomToken(10), events, checkpoint: { id: events[events.length - 1]!.documentId, lwt: last._meta.lwt }, context: CONTEXT });
}

/** The local stream `addQuietRows` gave this storage instance, or null (another storage, or none added). */
export function quietRowsOf<T>(instance: unknown): QuietRows<T> | null {
  return ((instance as Record<symbol, unknown> | null)?.[QUIET] as QuietRows<T> | undefined) ?? null;
}
