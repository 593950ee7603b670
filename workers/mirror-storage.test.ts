import { afterEach, describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createRxDatabase, normalizeMangoQuery, prepareQuery, type RxDatabase, type RxJsonSchema } from 'rxdb';
import { MIRROR_SCHEMA_VERSION } from '../schema/mirror.ts';
import { putDocs, removeDocs } from './bulk-write.ts';
import { openMirrorDatabase, mirrorStorage, type MirrorDatabase } from './db.ts';
import { floorStoreLayout, getMirrorStorage, leanStoreLayout } from './mirror-storage.ts';
import { makeTransactions } from './test-fixtures.ts';
import { toMirrored } from './collections/transactions.ts';

/** The index names IndexedDB holds for one store of one database (read with the raw API). */
async function indexesOf(idb: IDBFactory, dbName: string, store = 'docs'): Promise<string[]> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const req = idb.open(dbName);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  try {
    const tx = db.transaction(store, 'readonly');
    return [...tx.objectStore(store).indexNames].sort();
  } finally {
    db.close();
  }
}

let dbs: (MirrorDatabase | RxDatabase)[] = [];
afterEach(async () => {
  for (const db of dbs) await db.close().catch(() => undefined);
  dbs = [];
});

describe('leanStoreLayout', () => {
  it('leaves out exactly the two _meta.lwt indexes', () => {
    expect(leanStoreLayout('id, [_deleted+id], [_deleted+occurred_desc+id], [_meta.lwt+id], _meta.lwt')).toBe(
      'id, [_deleted+id], [_deleted+occurred_desc+id]',
    );
    expect(leanStoreLayout('id, [_deleted+id]')).toBe('id, [_deleted+id]');
  });
});

describe('floorStoreLayout', () => {
  it("keeps the primary key and each schema index without RxDB's _deleted prefix and id suffix", () => {
    expect(floorStoreLayout('id, [_deleted+id], [_deleted+occurred_desc+id], [_meta.lwt+id], _meta.lwt')).toBe('id, occurred_desc');
    expect(floorStoreLayout('id, [_deleted+id], [_deleted+a+b+id], [_meta.lwt+id], _meta.lwt')).toBe('id, [a+b]');
    expect(floorStoreLayout('id, [_deleted+id]')).toBe('id');
  });
});

describe('the mirror storage', () => {
  it("declares the mirrored collections with the floor's indexes and the local ones as RxDB makes them", async () => {
    const idb = new IDBFactory();
    const db = await openMirrorDatabase({ name: 'lean-a', storage: mirrorStorage({ indexedDB: idb, IDBKeyRange }), multiInstance: false });
    dbs.push(db);
    expect(await indexesOf(idb, `rxdb-dexie-lean-a--${MIRROR_SCHEMA_VERSION}--transactions`)).toEqual(['occurred_desc']);
    expect(await indexesOf(idb, `rxdb-dexie-lean-a--${MIRROR_SCHEMA_VERSION}--approvals`)).toEqual(['created_desc']);
    const outbox = await indexesOf(idb, 'rxdb-dexie-lean-a--2--outbox');
    expect(outbox).toEqual(expect.arrayContaining(['[_meta.lwt+id]', '_meta.lwt']));
  });

  it('answers the first page, counts, RxDB queries and cleanup on a floor store, tombstones as RxDB sees them', async () => {
    const idb = new IDBFactory();
    const db = await openMirrorDatabase({ name: 'lean-b', storage: mirrorStorage({ indexedDB: idb, IDBKeyRange }), multiInstance: false });
    dbs.push(db);
    const rows = makeTransactions(30, 5).map(toMirrored);
    await putDocs(db.transactions, rows);
    const removed = new Set(rows.slice(0, 4).map((r) => r.id));
    await removeDocs(db.transactions, [...removed]);
    const live = rows.filter((r) => !removed.has(r.id));
    const newest = [...live].sort((a, b) => a.occurred_desc - b.occurred_desc || (a.id < b.id ? -1 : 1)).map((r) => r.id);

    // The cold start's first page: sorted by the negated time, skip and limit, tombstones left out.
    const page = await db.transactions.find({ selector: {}, sort: [{ occurred_desc: 'asc' }], skip: 3, limit: 5 }).exec();
    expect(page.map((d) => d.id)).toEqual(newest.slice(3, 8));
    const reversed = await db.transactions.find({ selector: {}, sort: [{ occurred_desc: 'desc' }], limit: 4 }).exec();
    expect(reversed.map((d) => d.id)).toEqual([...newest].reverse().slice(0, 4));
    expect(await db.transactions.count().exec()).toBe(26);
    // A sort no index has: every row read, matched and sorted.
    const byAmount = await db.transactions.find({ selector: { amount: { $gt: 0 } }, sort: [{ amount: 'desc' }] }).exec();
    const expected = live.filter((r) => Number(r.amount) > 0).sort((a, b) => Number(b.amount) - Number(a.amount) || (a.id < b.id ? -1 : 1));
    expect(byAmount.map((d) => d.id)).toEqual(expected.map((r) => r.id));

    // RxDB's own change query (getChangedDocumentsSince) names the `[_meta.lwt+id]` index.
    const instance = db.transactions.storageInstance;
    const schema = instance.schema;
    const mango = normalizeMangoQuery(schema, { selector: {}, sort: [{ '_meta.lwt': 'asc' }, { id: 'asc' }], index: ['_meta.lwt', 'id'] } as never);
    const prepared = prepareQuery(schema, mango);
    const { documents } = await instance.query(prepared);
    expect(documents).toHaveLength(30); // tombstones included, as storage queries see them
    const lwts = documents.map((d) => d._meta.lwt);
    expect(lwts).toEqual([...lwts].sort((a, b) => a - b));
    expect((await instance.count(prepared)).count).toBe(30);

    await instance.cleanup(0);
    const after = await instance.query(prepared);
    expect(after.documents).toHaveLength(26);
    expect(after.documents.every((d) => !d._deleted)).toBe(true);
  });

  it('keeps every index on a store whose schema version the caller does not make lean', async () => {
    const idb = new IDBFactory();
    const schema: RxJsonSchema<{ id: string; n: number }> = {
      title: 'items', version: 3, primaryKey: 'id', type: 'object',
      properties: { id: { type: 'string', maxLength: 36 }, n: { type: 'number', minimum: 0, maximum: 1e9, multipleOf: 1 } },
      required: ['id', 'n'], indexes: ['n'],
    };
    const storage = getMirrorStorage((name, version) => (name === 'items' && version >= 4 ? 'floor' : 'full'), { indexedDB: idb, IDBKeyRange });
    const db = await createRxDatabase({ name: 'lean-c', storage, multiInstance: false });
    dbs.push(db);
    await db.addCollections({ items: { schema } });
    expect(await indexesOf(idb, 'rxdb-dexie-lean-c--3--items')).toEqual(expect.arrayContaining(['[_meta.lwt+id]', '_meta.lwt', '[_deleted+n+id]']));
  });
});
