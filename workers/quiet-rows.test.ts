import { afterEach, describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { fromStorageToDexie, getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import type { EventBulk, RxDocumentData, RxJsonSchema, RxStorageChangeEvent, RxStorageInstance } from 'rxdb';
import { putNewDocs, toDexieRow } from './bulk-write.ts';
import { openMirrorDatabase, mirrorStorage, type MirrorDatabase } from './db.ts';
import { addQuietRows, quietChannelName, quietRowsOf, type ChannelFactory } from './quiet-rows.ts';
import { makeTransactions } from './test-fixtures.ts';
import { toMirrored } from './collections/transactions.ts';

type Item = { id: string; name: string };
type Bulk = EventBulk<RxStorageChangeEvent<RxDocumentData<Item>>, unknown>;

const schema: RxJsonSchema<RxDocumentData<Item>> = {
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 40 },
    name: { type: 'string' },
    _deleted: { type: 'boolean' },
    _rev: { type: 'string' },
    _meta: { type: 'object', properties: { lwt: { type: 'number' } } },
    _attachments: { type: 'object' },
  },
  required: ['id', 'name', '_deleted', '_rev', '_meta', '_attachments'],
} as never;

const stored = (id: string, name: string, deleted = false): RxDocumentData<Item> =>
  ({ id, name, _deleted: deleted, _rev: '1-test', _meta: { lwt: 1 }, _attachments: {} }) as RxDocumentData<Item>;

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close().catch(() => undefined);
});

/** Node's BroadcastChannel (one per instance, as tabs have), each message it posts recorded. */
function recordingChannels(): { factory: ChannelFactory; posted: unknown[] } {
  const posted: unknown[] = [];
  const factory: ChannelFactory = (name) => {
    const channel = new BroadcastChannel(name);
    const post = channel.postMessage.bind(channel);
    channel.postMessage = (message: unknown) => {
      posted.push(message);
      post(message);
    };
    return channel as never;
  };
  return { factory, posted };
}

/** Two tabs' storage instances of one collection over one IndexedDB, each with its quiet rows. */
async function twoTabs(factory: ChannelFactory) {
  const indexedDB = new IDBFactory();
  const storage = getRxStorageDexie({ indexedDB, IDBKeyRange });
  const open = async (token: string) => {
    const params = { databaseInstanceToken: token, databaseName: 'quiet', collectionName: 'items', schema, options: {}, multiInstance: false, devMode: false };
    const instance = (await storage.createStorageInstance(params as never)) as unknown as RxStorageInstance<Item, unknown, unknown>;
    addQuietRows(instance, { ...params, multiInstance: true }, factory);
    closers.push(() => instance.close());
    const seen: Bulk[] = [];
    const sub = instance.changeStream().subscribe((bulk) => seen.push(bulk as Bulk));
    closers.push(async () => sub.unsubscribe());
    return { instance, seen };
  };
  return { leader: await open('leader'), follower: await open('follower') };
}

describe('quiet rows', () => {
  it("tells the other tab a batch's ids; it reads the rows and emits them as inserts", async () => {
    const { factory, posted } = recordingChannels();
    const { leader, follower } = await twoTabs(factory);
    const docs = [stored('a', 'first'), stored('b', 'second')];
    await leader.instance.bulkWrite(docs.map((document) => ({ document })), 'test');
    const bulk: Bulk = { id: 'bulk-1', context: 'test', checkpoint: { id: 'b', lwt: 1 }, events: docs.map((d) => ({ documentId: d.id, operation: 'INSERT', documentData: d, previousDocumentData: undefined })) };
    quietRowsOf<Item>(leader.instance)!.emit(bulk as never);

    // This tab hears the bulk itself (its collection), at once.
    expect(leader.seen.filter((b) => b.id === 'bulk-1')).toHaveLength(1);
    // The channel carries ids, never a document.
    expect(posted).toEqual([{ ids: ['a', 'b'] }]);
    await expect.poll(() => follower.seen.some((b) => b.events.length === 2)).toBe(true);
    const heard = follower.seen.find((b) => b.events.length === 2)!;
    expect(heard.events.map((e) => [e.operation, e.documentId, e.documentData.name])).toEqual([['INSERT', 'a', 'first'], ['INSERT', 'b', 'second']]);
  });

  it('skips rows deleted before the other tab read them, and ignores a malformed announcement', async () => {
    const { factory } = recordingChannels();
    const { leader, follower } = await twoTabs(factory);
    await leader.instance.bulkWrite([{ document: stored('a', 'kept') }, { document: stored('gone', 'x', true) }], 'test');
    const outsider = new BroadcastChannel(quietChannelName({ databaseName: 'quiet', collectionName: 'items', schema }));
    closers.push(async () => outsider.close());
    outsider.postMessage({ ids: [1, 2] });
    outsider.postMessage('nonsense');
    outsider.postMessage({ ids: ['gone', 'a'] });
    await expect.poll(() => follower.seen.length).toBe(1);
    expect(follower.seen[0]!.events.map((e) => e.documentId)).toEqual(['a']);
  });

  it('announces nothing when the database is single-instance', async () => {
    const { factory, posted } = recordingChannels();
    const storage = getRxStorageDexie({ indexedDB: new IDBFactory(), IDBKeyRange });
    const params = { databaseInstanceToken: 't', databaseName: 'solo', collectionName: 'items', schema, options: {}, multiInstance: false, devMode: false };
    const instance = (await storage.createStorageInstance(params as never)) as unknown as RxStorageInstance<Item, unknown, unknown>;
    addQuietRows(instance, params, factory);
    closers.push(() => instance.close());
    const seen: Bulk[] = [];
    const sub = instance.changeStream().subscribe((b) => seen.push(b as Bulk));
    quietRowsOf<Item>(instance)!.emit({ id: 'x', context: 't', checkpoint: { id: 'a', lwt: 1 }, events: [{ documentId: 'a', operation: 'INSERT', documentData: stored('a', 'n'), previousDocumentData: undefined }] } as never);
    sub.unsubscribe();
    expect(seen).toHaveLength(1);
    expect(posted).toEqual([]);
  });
});

describe("a first mirror's batch (putNewDocs)", () => {
  let db: MirrorDatabase | null = null;
  afterEach(async () => {
    await db?.close();
    db = null;
  });

  it("reaches the collection's change events, not RxDB's broadcast stream", async () => {
    db = await openMirrorDatabase({ name: 'quiet-put', storage: mirrorStorage({ indexedDB: new IDBFactory(), IDBKeyRange }), multiInstance: false });
    const collection = db.transactions;
    const original = (collection.storageInstance as unknown as { originalStorageInstance: { changes$: { subscribe(fn: () => void): { unsubscribe(): void } } } }).originalStorageInstance;
    let broadcastable = 0;
    const rawSub = original.changes$.subscribe(() => broadcastable++);
    const ids: string[] = [];
    const sub = collection.eventBulks$.subscribe((bulk) => ids.push(...bulk.events.map((e) => e.documentId)));
    const rows = makeTransactions(5).map((t) => toMirrored(t));
    await putNewDocs(collection as never, rows as never);
    sub.unsubscribe();
    rawSub.unsubscribe();
    expect(ids.sort()).toEqual(rows.map((r) => r.id).sort());
    expect(broadcastable).toBe(0);
    expect((await collection.storageInstance.findDocumentsById(rows.map((r) => r.id), false)).length).toBe(5);
  });
});

describe('toDexieRow', () => {
  const booleans = ['_deleted'];
  const asStored = (doc: object, deleted = false) => ({ ...doc, _deleted: deleted, _attachments: {}, _meta: { lwt: 5 }, _rev: '1-x' });

  it("stores exactly what RxDB's fromStorageToDexie stores, for real rows and for renamed keys", () => {
    const rows = makeTransactions(20).map((t) => asStored(toMirrored(t)));
    const odd = [
      asStored({ id: 'p', '|pipe': 1, nested: { 'a.|b': [{ '|c': true }] } }),
      asStored({ id: 'q', flag: true, list: [{ x: 1 }, null, 'text'] }, true),
    ];
    for (const doc of [...rows, ...odd]) expect(toDexieRow(booleans, doc)).toEqual(fromStorageToDexie(booleans, doc));
    expect(toDexieRow(['_deleted', 'meta.flag'], asStored({ id: 'r', meta: { flag: true } }))).toEqual(
      fromStorageToDexie(['_deleted', 'meta.flag'], asStored({ id: 'r', meta: { flag: true } })),
    );
    expect(toDexieRow(booleans, rows[0]!)._deleted).toBe('0');
  });
});
