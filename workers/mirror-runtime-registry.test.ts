import { afterEach, describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { ENTITIES, MIRRORED_COLLECTIONS, QUERIED_COLLECTIONS, type QueriedCollection } from '../schema/collections.ts';
import type { Change } from '../schema/sync-feed.ts';
import { LOAD_ORDER } from './collection-feed.ts';
import { openMirrorDatabase, mirrorStorage } from './db.ts';
import { MirrorRuntime } from './mirror-runtime.ts';
import { RxMirrorStore } from './mirror-store.ts';
import { OutboxIndex } from './outbox-index.ts';
import { sampleRows } from './test-fixtures.ts';

/**
 * The runtime is driven by the registry: whatever QUERIED_COLLECTIONS lists (transactions today,
 * reimbursements and more once registered) is loaded at open, followed on its change stream and
 * reported by its own name, with no code naming it. Rows come from `sampleRows` (the definition's
 * schema), so a newly registered collection is covered without a test of its own.
 */
const runtimes: MirrorRuntime[] = [];
afterEach(async () => {
  for (const rt of runtimes.splice(0)) await rt.close();
});

const changesOf = (collection: QueriedCollection, rows: { id: string; change_seq: number }[]): Change[] =>
  rows.map((r) => ({ collection, seq: r.change_seq, id: r.id, deleted: false, doc: r }) as Change);

/** Every row of the collection, in its default sort, with no filter. */
function all<C extends QueriedCollection>(rt: MirrorRuntime, collection: C) {
  return rt.query(collection, { filter: {}, sort: ENTITIES[collection].query.sorts[0], offset: 0, limit: 10_000 } as never);
}

describe('MirrorRuntime over the registry', () => {
  it('samples a valid row for every mirrored collection (what the tests below rely on)', () => {
    for (const c of MIRRORED_COLLECTIONS) expect(sampleRows(c, 3).map((r) => (r as { id: string }).id)).toHaveLength(3);
  });

  it('loads every queried collection in load order, transactions (the first page) first', () => {
    expect([...LOAD_ORDER].sort()).toEqual([...QUERIED_COLLECTIONS].sort());
    expect(LOAD_ORDER[0]).toBe('transactions');
  });

  it.each(QUERIED_COLLECTIONS.map((c) => [c]))('%s: stored rows load at open, change-stream writes and deletes follow', async (collection) => {
    const idb = new IDBFactory();
    const storage = () => mirrorStorage({ indexedDB: idb, IDBKeyRange });
    const name = `rt-registry-${collection}`;
    type Row = { id: string; change_seq: number };
    const stored = sampleRows(collection, 30, 0xa) as unknown as Row[];
    const later = sampleRows(collection, 5, 0xb) as unknown as Row[];
    const db = await openMirrorDatabase({ name, storage: storage(), multiInstance: false });
    await new RxMirrorStore(db, new OutboxIndex()).applyChanges(changesOf(collection, stored), { seq: 30, epoch: 'e' });
    await db.close();

    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const changed: string[][] = [];
    const rt = await MirrorRuntime.open({
      name, storage: storage(), multiInstance: false, defer: (fn) => fn(), beforeLoad: () => gate,
      onDataChanged: (names) => changed.push(names),
    });
    runtimes.push(rt);
    // Before the load: a stored row is read from its own RxDB collection.
    expect(await rt.get(collection, stored[4]!.id)).toMatchObject({ id: stored[4]!.id, deleted: false, pending: null });
    release();
    await rt.ready;
    expect(changed).toContainEqual(expect.arrayContaining([collection]));

    // After the reload: every stored row is in the collection's engine.
    const loaded = await all(rt, collection);
    expect(loaded.total).toBe(30);
    expect(new Set(loaded.rows.map((r) => r.id))).toEqual(new Set(stored.map((r) => r.id)));
    expect(loaded.rows[0]).not.toHaveProperty('occurred_desc');

    // A write to its RxDB collection reaches its engine through the change stream.
    changed.length = 0;
    const seq = (r: { change_seq: number }) => 30 + r.change_seq;
    await rt.mirror.applyChanges(changesOf(collection, later.map((r) => ({ ...r, change_seq: seq(r) }))), { seq: 35, epoch: 'e' });
    await rt.mirror.applyChanges([{ collection, seq: 36, id: stored[0]!.id, deleted: true, doc: null } as Change], { seq: 36, epoch: 'e' });
    expect(changed).toContainEqual([collection]);
    const after = await all(rt, collection);
    expect(after.total).toBe(34);
    const ids = new Set(after.rows.map((r) => r.id));
    for (const r of later) expect(ids.has(r.id)).toBe(true);
    expect(ids.has(stored[0]!.id)).toBe(false);
    expect(await rt.get(collection, later[2]!.id)).toMatchObject({ id: later[2]!.id });
    expect(await rt.get(collection, stored[0]!.id)).toBeNull();
  });
});
