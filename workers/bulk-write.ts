import { getWrittenDocumentsFromBulkWriteResponse, normalizeMangoQuery, now, prepareQuery, randomToken } from 'rxdb';
import { fromDexieToStorage, fromStorageToDexie } from 'rxdb/plugins/storage-dexie';
import type { Collection, Dexie, Table } from 'dexie';
import { quietRowsOf } from './quiet-rows.ts';
import type { EventBulk, MangoQuery, RxCollection, RxDocumentData, RxStorageChangeEvent, RxStorageDefaultCheckpoint, RxStorageWriteError } from 'rxdb';

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

/**
 * Writes one document over the version the caller last stored or read (`previous`, null when
 * none): one storage write (one IndexedDB transaction) when that is still the stored version, a
 * second only on a conflict (another tab wrote it). `RxCollection.upsert` costs a query, a
 * refused insert and an update each time. Returns the stored version, for the next write.
 */
export async function putDocOver<T extends { id: string }>(collection: RxCollection<T>, doc: T, previous: Stored<T> | null): Promise<Stored<T>> {
  let row = { previous: previous ?? undefined, document: toStorage(doc, previous ?? undefined) };
  for (let round = 0; ; round++) {
    const result = await collection.storageInstance.bulkWrite([row], CONTEXT);
    const err = result.error[0] as RxStorageWriteError<T> | undefined;
    if (!err) return getWrittenDocumentsFromBulkWriteResponse(collection.schema.primaryPath as string, [row], result)[0]!;
    if (err.status !== 409 || !('documentInDb' in err) || !err.documentInDb || round >= MAX_ROUNDS) {
      throw new Error(`mirror write failed for ${collection.name}/${err.documentId}: status ${err.status}`);
    }
    row = { previous: err.documentInDb, document: toStorage(doc, err.documentInDb) };
  }
}

/** The stored version of one document (tombstones included), or null. */
export async function storedDoc<T>(collection: RxCollection<T>, id: string): Promise<Stored<T> | null> {
  const [doc] = await collection.storageInstance.findDocumentsById([id], true);
  return doc ?? null;
}

type ChangeSubject<T> = { next(bulk: EventBulk<RxStorageChangeEvent<Stored<T>>, RxStorageDefaultCheckpoint>): void };

/**
 * Writes rows that are expected to be new (a first mirror's batches) with one Dexie `bulkAdd`:
 * no read first. RxDB's Dexie `bulkWrite` reads every key of the batch (`bulkGet`) inside its
 * transaction before it puts anything, to tell inserts from updates: about 0.45 s of worker time
 * at 20k rows, and a round trip per batch during which IndexedDB waits for the worker. Rows
 * already stored (a batch pulled again after a crash, a tombstone) fail the add one by one
 * (ConstraintError, the rest commit) and are written by `putDocs` after.
 *
 * The documents are what RxDB's own insert writes (first revision of this database, one
 * `_meta.lwt` for the batch, Dexie's boolean encoding), and the change events RxDB's storage
 * would emit are emitted on the storage's local stream (quiet-rows.ts), so `eventBulks$`, queries
 * and the document cache see an ordinary insert, and other tabs are told the ids and read the rows
 * (not RxDB's broadcast of every document). Off the Dexie storage (tests on memory) it is `putDocs`.
 */
export async function putNewDocs<T extends { id: string }>(collection: RxCollection<T>, docs: readonly T[]): Promise<void> {
  if (docs.length === 0) return;
  const dexie = await dexieInternals(collection);
  const storage = (collection.storageInstance as { originalStorageInstance?: { changes$?: ChangeSubject<T> } }).originalStorageInstance;
  // This tab's collection hears the rows; other tabs hear their ids (quiet-rows.ts), not a copy of each.
  const changes$ = quietRowsOf<T>(storage) ?? storage?.changes$;
  if (!dexie?.dexieDb || !changes$) return putDocs(collection, docs);
  const byId = new Map<string, T>();
  for (const doc of docs) byId.set(doc.id, doc);
  const unique = [...byId.values()];
  const meta = { lwt: now() };
  const rev = `1-${collection.database.token}`;
  const stored = unique.map((doc) => ({ ...(doc as object), _deleted: false, _attachments: {}, _meta: meta, _rev: rev }) as unknown as Stored<T>);
  const rows = stored.map((doc) => toDexieRow(dexie.booleanIndexes, doc as unknown as Record<string, unknown>));
  const failed = new Set<number>();
  await collection.database.lockedRun(() =>
    dexie.dexieDb!.transaction('rw', dexie.dexieTable, async () => {
      try {
        await dexie.dexieTable.bulkAdd(rows);
      } catch (e) {
        // Caught inside the transaction: the adds that succeeded still commit.
        const byPos = (e as { name?: string; failuresByPos?: Record<number, { name?: string }> }).failuresByPos;
        if ((e as { name?: string }).name !== 'BulkError' || !byPos) throw e;
        for (const [pos, err] of Object.entries(byPos)) {
          if (err?.name !== 'ConstraintError') throw e;
          failed.add(Number(pos));
        }
      }
    }),
  );
  const events: RxStorageChangeEvent<Stored<T>>[] = [];
  for (let i = 0; i < stored.length; i++) {
    if (failed.has(i)) continue;
    events.push({ documentId: unique[i]!.id, operation: 'INSERT', documentData: stored[i]!, previousDocumentData: undefined });
  }
  if (events.length > 0) {
    const last = events[events.length - 1]!;
    const bulk = { id: randomToken(10), events, checkpoint: { id: last.documentId, lwt: meta.lwt }, context: CONTEXT };
    if ('emit' in changes$) changes$.emit(bulk);
    else changes$.next(bulk);
  }
  if (failed.size > 0) await putDocs(collection, [...failed].map((i) => unique[i]!));
}

/** A key RxDB's Dexie storage renames (a `.`-separated part starting with `|`: dexie-helper's `dexieReplaceIfStartsWithPipe`). */
const renamedKey = (key: string) => key.startsWith('|') || key.includes('.|');

function hasRenamedKey(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(hasRenamedKey);
  for (const key of Object.keys(value)) {
    if (renamedKey(key) || hasRenamedKey((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/**
 * The row the Dexie table stores for `doc`: exactly RxDB's `fromStorageToDexie` (boolean index
 * fields as '1'/'0', keys starting with `|` renamed), which deep-copies every document to rename
 * keys a mirror row never has (issue 33: its copies were ≈ 2 % of the worker's first-mirror CPU,
 * before their garbage). Without such a key it is one shallow copy with the top-level boolean
 * index fields encoded; anything else (a renamed key, a nested boolean index) goes through RxDB's.
 * IndexedDB clones the row anyway, so sharing nested objects with `doc` is harmless.
 */
export function toDexieRow(booleanIndexes: readonly string[], doc: Record<string, unknown>): Record<string, unknown> {
  if (booleanIndexes.some((idx) => idx.includes('.') || renamedKey(idx)) || hasRenamedKey(doc)) return fromStorageToDexie(booleanIndexes as string[], doc as RxDocumentData<Record<string, unknown>>);
  const row = { ...doc };
  for (const idx of booleanIndexes) row[idx] = doc[idx] ? '1' : '0';
  return row;
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
  dexieDb?: Dexie;
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
