import { getPrimaryFieldOfPrimaryKey, getQueryPlan, type DexieSettings, type FilledMangoQuery, type PreparedQuery, type RxJsonSchema, type RxStorage, type RxStorageInstance } from 'rxdb';
import { getDexieStoreSchema, getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { floorCleanup, floorCount, floorQuery, type FloorState } from './floor-query.ts';
import { addQuietRows } from './quiet-rows.ts';
import type { Dexie, Table } from 'dexie';

/**
 * The mirror's storage: RxDB's Dexie storage, with the mirrored collections' IndexedDB stores
 * kept to the indexes we read (issue 13).
 *
 * RxDB's Dexie storage gives every store two indexes on `_meta.lwt` (`[_meta.lwt+id]` for
 * `getChangedDocumentsSince`, `_meta.lwt` for `cleanup`) on top of the primary key, `[_deleted+id]`
 * and the schema's own. The mirror uses neither: the server's change feed is its replication and
 * its cleanup, rows are read by primary key or by the schema's indexes. Every index is written
 * per row, so at 100k rows those two cost IndexedDB about 15 % of its CPU on a first mirror
 * (docs/performance.md). A lean store is declared without them:
 *
 * - Dexie's `onCreate` hook (a documented storage setting, called before the store layout is
 *   declared) filters the layout of a lean collection's `docs` table;
 * - any query RxDB planned on a dropped index (e.g. a sort by `_meta.lwt`) is planned again
 *   over the lean schema, so it walks an index that exists (correct, only not index-sorted);
 * - `cleanup` (purging old tombstones, which RxDB's Dexie storage does through `_meta.lwt`)
 *   walks the deleted rows through `[_deleted+id]` instead.
 *
 * Which stores are lean is decided per (collection, schema version) by the caller: a schema
 * version names its own IndexedDB database (`rxdb-dexie-<db>--<version>--<collection>`), so a
 * store created with every index (an older version, kept until RxDB's migration drops it) is
 * never treated as lean, and the layout never changes under an existing database.
 */

/** Dexie's names for the two indexes a lean store leaves out. */
const DROPPED_DEXIE_INDEXES = new Set(['[_meta.lwt+id]', '_meta.lwt']);
const DOCS_TABLE = 'docs';

/**
 * How a store is declared: `full` as RxDB makes it; `lean` without the `_meta.lwt` indexes
 * (schema versions 4–18); `floor` (issue 33) with the floor's indexes only: the primary key and
 * each schema index without RxDB's `_deleted` prefix and primary-key suffix (`occurred_desc`,
 * not `[_deleted+occurred_desc+id]`), and no `[_deleted+id]`. Queries on a floor store are
 * answered here (`floorQuery`), never by RxDB's planner, which only knows `_deleted`-prefixed indexes.
 */
export type StoreLayout = 'full' | 'lean' | 'floor';
export type LayoutPicker = (collectionName: string, schemaVersion: number) => StoreLayout;

/** `rxdb-dexie-<database>--<version>--<collection>`, as rxdb's dexie-helper names it. */
function parseDexieDbName(name: string): { collection: string; version: number } | null {
  const match = /--(\d+)--([^]+)$/.exec(name);
  return match ? { version: Number(match[1]), collection: match[2]! } : null;
}

function layoutParts(layout: string): string[] {
  return layout.split(',').map((part) => part.trim()).filter((part) => part !== '');
}

/** A Dexie store layout ("id, [_deleted+id], …") without the dropped indexes. */
export function leanStoreLayout(layout: string): string {
  return layoutParts(layout).filter((part) => !DROPPED_DEXIE_INDEXES.has(part)).join(', ');
}

/** The fields of a Dexie index name: `[a+b]` → [a, b], `a` → [a]. */
function fieldsOf(part: string): string[] {
  return part.startsWith('[') ? part.slice(1, -1).split('+') : [part];
}

/**
 * The floor's layout of a Dexie store: the primary key (first), then each RxDB index without its
 * `_deleted` prefix and primary-key suffix; `[_deleted+id]` and the `_meta.lwt` indexes go.
 */
export function floorStoreLayout(layout: string): string {
  const [primary, ...rest] = layoutParts(layout);
  const out = [primary!];
  for (const part of rest) {
    if (DROPPED_DEXIE_INDEXES.has(part)) continue;
    let fields = fieldsOf(part);
    if (fields[0] === '_deleted') fields = fields.slice(1);
    if (fields[fields.length - 1] === primary) fields = fields.slice(0, -1);
    if (fields.length === 0) continue;
    const name = fields.length === 1 ? fields[0]! : `[${fields.join('+')}]`;
    if (!out.includes(name)) out.push(name);
  }
  return out.join(', ');
}

/** Declares the `docs` table in `shape`: wraps the database's `version(n).stores(layout)` before rxdb calls it. */
function declareShaped(db: Dexie, shape: (layout: string) => string): void {
  const version = db.version.bind(db);
  db.version = ((n: number) => {
    const v = version(n);
    const stores = v.stores.bind(v);
    v.stores = (layout: Record<string, string | null>) => {
      const docs = layout[DOCS_TABLE];
      return stores(typeof docs === 'string' ? { ...layout, [DOCS_TABLE]: shape(docs) } : layout);
    };
    return v;
  }) as Dexie['version'];
}

function indexName(fields: readonly string[]): string {
  return fields.length === 1 ? fields[0]! : `[${fields.join('+')}]`;
}

/** The schema a lean store answers to: RxDB's internal `['_meta.lwt', id]` index left out. */
function leanSchema<T>(schema: RxJsonSchema<T>): RxJsonSchema<T> {
  const indexes = (schema.indexes ?? []).filter((index) => !DROPPED_DEXIE_INDEXES.has(indexName(typeof index === 'string' ? [index] : index)));
  return { ...schema, indexes };
}

/** The prepared query, planned again over the lean schema when RxDB chose a dropped index. */
function replanned<T>(lean: RxJsonSchema<T>, prepared: PreparedQuery<T>): PreparedQuery<T> {
  if (!DROPPED_DEXIE_INDEXES.has(indexName(prepared.queryPlan.index))) return prepared;
  const query = { ...prepared.query } as FilledMangoQuery<T>;
  delete query.index;
  return { query, queryPlan: getQueryPlan(lean as never, query) } as PreparedQuery<T>;
}

interface DexieState {
  dexieDb: Dexie;
  dexieTable: Table<Record<string, unknown>, string>;
}

function leanInstance(instance: RxStorageInstance<unknown, unknown, DexieSettings>, params: { schema: RxJsonSchema<unknown> }): void {
  const schema = leanSchema(params.schema);
  const query = instance.query.bind(instance);
  const count = instance.count.bind(instance);
  instance.query = (prepared) => query(replanned(schema, prepared));
  instance.count = (prepared) => count(replanned(schema, prepared));
  instance.cleanup = async (minimumDeletedTime) => {
    const state = (await instance.internals) as DexieState;
    const before = Date.now() - minimumDeletedTime;
    await state.dexieDb.transaction('rw', state.dexieTable, async () => {
      // Dexie stores `_deleted` as '1'/'0' (an IndexedDB key cannot be a boolean).
      const deleted = await state.dexieTable.where('[_deleted+id]').between(['1', ''], ['1', '\uffff'], true, true).toArray();
      const old = deleted.filter((d) => (d._meta as { lwt: number }).lwt < before).map((d) => String(d.id));
      await state.dexieTable.bulkDelete(old);
    });
    return true;
  };
}

/** A floor store's queries, counts and cleanup, answered by floor-query.ts. */
function floorInstance(instance: RxStorageInstance<unknown, unknown, DexieSettings>, params: { schema: RxJsonSchema<unknown> }): void {
  const state = () => instance.internals as unknown as Promise<FloorState>;
  const primary = getPrimaryFieldOfPrimaryKey(params.schema.primaryKey as never) as string;
  const indexes = layoutParts(floorStoreLayout(getDexieStoreSchema(params.schema))).slice(1);
  instance.query = async (prepared) => floorQuery(await state(), prepared, indexes, primary) as never;
  instance.count = async (prepared) => ({ count: await floorCount(await state(), prepared, primary), mode: 'slow' });
  instance.cleanup = async (minimumDeletedTime) => {
    await floorCleanup(await state(), Date.now() - minimumDeletedTime);
    return true;
  };
}

/**
 * RxDB's Dexie storage with each store declared as `layout` picks. `settings` are the Dexie
 * settings (tests pass fake-indexeddb's `indexedDB` and `IDBKeyRange`).
 */
export function getMirrorStorage(layout: LayoutPicker, settings: DexieSettings = {}): RxStorage<unknown, DexieSettings> {
  const layoutOfDb = (name: string): StoreLayout => {
    const parsed = parseDexieDbName(name);
    return parsed === null ? 'full' : layout(parsed.collection, parsed.version);
  };
  const dexie = getRxStorageDexie({
    ...settings,
    onCreate: async (db, name) => {
      const shape = layoutOfDb(name);
      if (shape === 'lean') declareShaped(db, leanStoreLayout);
      if (shape === 'floor') declareShaped(db, floorStoreLayout);
      await settings.onCreate?.(db, name);
    },
  });
  return {
    name: dexie.name,
    rxdbVersion: dexie.rxdbVersion,
    async createStorageInstance(params) {
      const instance = (await dexie.createStorageInstance(params)) as RxStorageInstance<unknown, unknown, DexieSettings>;
      const shape = layout(params.collectionName, params.schema.version);
      if (shape === 'lean') leanInstance(instance, params as { schema: RxJsonSchema<unknown> });
      if (shape === 'floor') floorInstance(instance, params as { schema: RxJsonSchema<unknown> });
      // A first mirror's rows reach other tabs as ids (quiet-rows.ts), not as RxDB's broadcast copies.
      addQuietRows(instance, params);
      return instance;
    },
  } as RxStorage<unknown, DexieSettings>;
}
