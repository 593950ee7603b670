import { getQueryMatcher, getSortComparator, type FilledMangoQuery, type PreparedQuery, type RxDocumentData } from 'rxdb';
import { fromDexieToStorage } from 'rxdb/plugins/storage-dexie';
import type { Dexie, Table } from 'dexie';

/**
 * Queries over a `floor` store (mirror-storage.ts, issue 33): the store keeps the primary key and
 * the schema's indexes without RxDB's `_deleted` prefix, so RxDB's planner (which only plans on
 * `_deleted`-prefixed indexes) cannot walk it. These answer RxDB's `query` and `count` with the
 * same results: every document the selector matches (tombstones included, as storage queries
 * see them: RxQuery adds `_deleted: false`), sorted, then skip and limit.
 *
 * - A sort the store has an index for (its fields in order, one direction, optionally followed by
 *   the primary key in that direction: IndexedDB orders an index's equal keys by primary key)
 *   walks that index with a cursor and stops at skip + limit: the cold start's first page.
 * - Anything else reads the table by primary-key pages (`getAll`), matches, sorts and slices: a
 *   full walk, as RxDB's own query does when no index fits. The mirror itself only runs the first
 *   page (indexed) and its count (a fallback when the checkpoint has none), plus RxDB's opening
 *   and migration reads.
 */
export interface FloorState {
  dexieDb: Dexie;
  dexieTable: Table<Record<string, unknown>, string>;
  booleanIndexes: string[];
}

type Doc = RxDocumentData<unknown>;
type Direction = 'asc' | 'desc';
const PAGE = 2_000;

/** The Dexie index (name and direction) whose order is the query's sort, if the store has one. */
export function indexForSort(sort: readonly Record<string, Direction>[], indexes: readonly string[], primary: string): { index: string; dir: Direction } | null {
  const fields = sort.map((s) => Object.keys(s)[0]!);
  const dirs = sort.map((s) => Object.values(s)[0]!);
  const dir = dirs[0] ?? 'asc';
  if (dirs.some((d) => d !== dir)) return null;
  const own = fields[fields.length - 1] === primary ? fields.slice(0, -1) : fields;
  if (own.length === 0) return { index: ':id', dir };
  const name = own.length === 1 ? own[0]! : `[${own.join('+')}]`;
  return indexes.includes(name) ? { index: name, dir } : null;
}

/** Walks one index (or the primary key) in order, keeping matches, until `wanted` are kept. */
async function walkIndex(state: FloorState, index: string, dir: Direction, match: (d: Doc) => boolean, wanted: number): Promise<Doc[]> {
  const rows: Doc[] = [];
  await state.dexieDb.transaction('r', state.dexieTable, async (tx) => {
    const store = (tx as unknown as { idbtrans: IDBTransaction }).idbtrans.objectStore('docs');
    const source = index === ':id' ? store : store.index(index);
    const req = source.openCursor(null, dir === 'asc' ? 'next' : 'prev');
    await new Promise<void>((resolve, reject) => {
      req.onerror = () => reject(req.error);
      req.onsuccess = () => {
        const cursor = req.result;
        if (!cursor) return resolve();
        const doc = fromDexieToStorage(state.booleanIndexes, cursor.value) as Doc;
        if (match(doc)) rows.push(doc);
        if (rows.length >= wanted) return resolve();
        cursor.continue();
      };
    });
  });
  return rows;
}

/** Calls `each` with every stored document, by primary-key pages (getAll; no cursor per row). */
async function scanAll(state: FloorState, each: (d: Doc) => void): Promise<void> {
  let after: string | null = null;
  for (;;) {
    const range = after === null ? state.dexieTable.orderBy(':id') : state.dexieTable.where(':id').above(after);
    const raw: Record<string, unknown>[] = await range.limit(PAGE).toArray();
    for (const r of raw) each(fromDexieToStorage(state.booleanIndexes, r) as Doc);
    if (raw.length < PAGE) return;
    after = String(raw[raw.length - 1]!.id);
  }
}

/** The documents that match, in primary-key order. */
async function matching(state: FloorState, match: (d: Doc) => boolean): Promise<Doc[]> {
  const rows: Doc[] = [];
  await scanAll(state, (d) => {
    if (match(d)) rows.push(d);
  });
  return rows;
}

export async function floorQuery(state: FloorState, prepared: PreparedQuery<unknown>, indexes: readonly string[], primary: string): Promise<{ documents: Doc[] }> {
  const query = prepared.query as FilledMangoQuery<unknown>;
  const schema = { primaryKey: primary } as never;
  const match = getQueryMatcher(schema, query) as (d: Doc) => boolean;
  const skip = query.skip ?? 0;
  const limit = typeof query.limit === 'number' ? query.limit : Infinity;
  const walk = indexForSort(query.sort as Record<string, Direction>[], indexes, primary);
  if (walk && limit !== Infinity) {
    const rows = await walkIndex(state, walk.index, walk.dir, match, skip + limit);
    return { documents: rows.slice(skip) };
  }
  const rows = await matching(state, match);
  rows.sort(getSortComparator(schema, query) as (a: Doc, b: Doc) => number);
  return { documents: rows.slice(skip, skip + limit) };
}

export async function floorCount(state: FloorState, prepared: PreparedQuery<unknown>, primary: string): Promise<number> {
  const match = getQueryMatcher({ primaryKey: primary } as never, prepared.query as FilledMangoQuery<unknown>) as (d: Doc) => boolean;
  let n = 0;
  await scanAll(state, (d) => {
    if (match(d)) n++;
  });
  return n;
}

/** Purges tombstones older than `before` (RxDB's cleanup; it walks `_meta.lwt`, which a floor store has not). */
export async function floorCleanup(state: FloorState, before: number): Promise<void> {
  const old = await matching(state, (d) => d._deleted && d._meta.lwt < before);
  await state.dexieTable.bulkDelete(old.map((d) => String((d as unknown as { id: string }).id)));
}
