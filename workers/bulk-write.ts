import { normalizeMangoQuery, prepareQuery } from 'rxdb';
import { fromDexieToStorage } from 'rxdb/plugins/storage-dexie';
import type { Collection, Table } from 'dexie';
import type { MangoQuery, RxCollection, RxDocumentData, RxStorageWriteError } from 'rxdb';

/**
 * Bulk writes straight to a collection's storage instance, one IndexedDB transaction per call.
 *
 * Why not `collection.bulkUpsert`: for rows that already exist it falls back to one
 * incremental write per document (one IndexedDB transaction each), which turns re-mirroring
 * or an optimistic 10,000-row coding into seconds. The storage's own bulkWrite does the whole
 * set at once; its compare-and-swap on `_rev` (409 with the stored document) lets us retry
 * exactly the rows another tab changed meanwhile. Writes made here still reach
 * `collection.$`/`eventBulks$` (RxDB feeds them from the storage's change stream) and other
 * tabs (multiInstance), so every reader stays current.
 */
const CONTEXT = 'ledgerline-mirror';
const MAX_ROUNDS = 5;

type Stored<T> = RxDocumentData<T>;

function toStorage<T>(doc: T, previous: Stored<T> | undefined, deleted = false): Stored<T> {
  return {
    ...(doc as object),
    _deleted: deleted,
    _attachments: {},
    _meta: { lwt: 0 },
    _rev: previous?._rev ?? '',
  } as unknown as Stored<T>;
}

async function writeRounds<T>(
  collection: RxCollection<T>,
  initial: { previous: Stored<T> | undefined; document: Stored<T> }[],
  redo: (documentInDb: Stored<T>) => Stored<T> | null,
): Promise<void> {
  let rows = initial;
  for (let round = 0; rows.length > 0; round++) {
    const result = await collection.storageInstance.bulkWrite(rows, CONTEXT);
    const retry: typeof rows = [];
    for (const err of result.error as RxStorageWriteError<T>[]) {
      if (err.status !== 409 || !('documentInDb' in err) || !err.documentInDb || round >= MAX_ROUNDS) {
        throw new Error(`mirror write failed for ${collection.name}/${err.documentId}: status ${err.status}`);
      }
      const document = redo(err.documentInDb);
      if (document) retry.push({ previous: err.documentInDb, document });
    }
    rows = retry;
  }
}

/** Writes whole documents, replacing whatever is stored (server rows: the server is the authority). */
export async function putDocs<T extends { id: string }>(collection: RxCollection<T>, docs: readonly T[]): Promise<void> {
  if (docs.length === 0) return;
  const byId = new Map<string, T>();
  for (const doc of docs) byId.set(doc.id, doc);
  // No read first: on a fresh mirror every row is an insert; stored rows come back as 409s
  // carrying the stored document, and are written again on top of it.
  await writeRounds(
    collection,
    [...byId.values()].map((doc) => ({ previous: undefined, document: toStorage(doc, undefined) })),
    (inDb) => {
      const doc = byId.get((inDb as unknown as T).id)!;
      return toStorage(doc, inDb);
    },
  );
}

/** Deletes documents by id (RxDB keeps a tombstone; absent ids are ignored). */
export async function removeDocs<T extends { id: string }>(collection: RxCollection<T>, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const stored = await collection.storageInstance.findDocumentsById([...new Set(ids)], false);
  const tombstone = (inDb: Stored<T>) => (inDb._deleted ? null : toStorage(stripMeta(inDb), inDb, true));
  await writeRounds(
    collection,
    stored.map((inDb) => ({ previous: inDb, document: tombstone(inDb)! })).filter((r) => r.document),
    tombstone,
  );
}

/** Reads documents by id as plain objects (absent and deleted ids are left out). */
export async function getDocs<T extends { id: string }>(collection: RxCollection<T>, ids: readonly string[]): Promise<Map<string, T>> {
  const out = new Map<string, T>();
  if (ids.length === 0) return out;
  const stored = await collection.storageInstance.findDocumentsById([...new Set(ids)], false);
  for (const inDb of stored) if (!inDb._deleted) out.set((inDb as unknown as T).id, stripMeta(inDb));
  return out;
}

/**
 * Stored documents in pages, straight from the storage (no RxDocument per row: loading 100k
 * rows into the query engine must not build 100k document objects).
 */
export async function* scanDocs<T extends { id: string }>(collection: RxCollection<T>, pageSize: number): AsyncGenerator<T[]> {
  const dexie = await dexieInternals(collection);
  if (dexie) {
    yield* scanDexie<T>(dexie, pageSize);
    return;
  }
  // Keyset paging on the primary key: each page is an index range, never a skip.
  let after: string | null = null;
  for (;;) {
    const selector: Record<string, unknown> = after === null ? {} : { id: { $gt: after } };
    const docs: T[] = await queryDocs(collection, { selector, sort: [{ id: 'asc' }], limit: pageSize } as MangoQuery<T>);
    if (docs.length > 0) yield docs;
    if (docs.length < pageSize) return;
    after = docs[docs.length - 1]!.id;
  }
}

interface DexieInternals {
  dexieTable: Table<Record<string, unknown>, string>;
  booleanIndexes: string[];
}

/** The Dexie table behind a collection on the Dexie storage (null on other storages). */
async function dexieInternals<T>(collection: RxCollection<T>): Promise<DexieInternals | null> {
  const internals = (await Promise.resolve(collection.storageInstance.internals).catch(() => null)) as Partial<DexieInternals> | null;
  return internals?.dexieTable && Array.isArray(internals.booleanIndexes) ? (internals as DexieInternals) : null;
}

/**
 * Reads the Dexie table by primary-key ranges with getAll (Dexie's toArray on a key range),
 * not through RxDB's query, which walks an IndexedDB cursor one document per event-loop turn:
 * at 100k rows that made the start-up load take minutes in Chromium instead of seconds.
 * Tombstones are skipped; documents are converted back exactly as the storage's own reads do.
 */
async function* scanDexie<T extends { id: string }>(dexie: DexieInternals, pageSize: number): AsyncGenerator<T[]> {
  let after: string | null = null;
  for (;;) {
    const range: Collection<Record<string, unknown>, string> =
      after === null ? dexie.dexieTable.orderBy(':id') : dexie.dexieTable.where(':id').above(after);
    const raw: Record<string, unknown>[] = await range.limit(pageSize).toArray();
    if (raw.length === 0) return;
    const docs: T[] = [];
    for (const r of raw) {
      const doc = fromDexieToStorage(dexie.booleanIndexes, r) as RxDocumentData<T>;
      if (!doc._deleted) docs.push(stripMeta(doc));
    }
    if (docs.length > 0) yield docs;
    if (raw.length < pageSize) return;
    after = String(raw[raw.length - 1]!.id);
  }
}

/** One storage query as plain objects. */
export async function queryDocs<T>(collection: RxCollection<T>, mango: MangoQuery<T>): Promise<T[]> {
  const schema = collection.storageInstance.schema;
  // Storage queries see tombstones; RxQuery adds this condition, so must we.
  const live = { ...mango, selector: { ...mango.selector, _deleted: { $eq: false } } } as MangoQuery<T>;
  const result = await collection.storageInstance.query(prepareQuery(schema, normalizeMangoQuery(schema, live)));
  return result.documents.map((d) => stripMeta(d));
}

export function stripMeta<T>(doc: Stored<T> | T): T {
  const { _deleted, _attachments, _meta, _rev, ...rest } = doc as Record<string, unknown>;
  void _deleted;
  void _attachments;
  void _meta;
  void _rev;
  return rest as T;
}
