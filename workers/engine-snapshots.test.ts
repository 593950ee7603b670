import { describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { Change, MirroredCollection } from '../schema/sync-feed.ts';
import type { TransactionFilter, TransactionSort } from '../schema/transaction-query.ts';
import type { MirrorRuntime } from './mirror-runtime.ts';
import type { CollectionFeed } from './collection-feed.ts';
import { clearMirroredRows } from './db.ts';
import { EngineSnapshotStore } from './engine-snapshot-store.ts';
import { BUSINESS_ID, makeTransaction, makeTransactions, makeUser, testUuid } from './test-fixtures.ts';
import { commandId, entryOf, mirrorDevice } from './testing/mirror-device.ts';

/**
 * Issue 33: the transactions engine restored from its snapshot after a restart (engine-snapshots.ts),
 * exact whatever happened after the snapshot was taken: rows the feed changed or removed, a
 * confirmed command, a pending one, a renamed reference, a crash between the journal and the write.
 */
const ACTOR = { user_id: testUuid(2, 1), business_id: BUSINESS_ID };
const N = 600;
const USERS = [makeUser(1, 'Ada', 'Lovelace'), makeUser(2, 'Grace', 'Hopper'), makeUser(3, 'Alan', 'Turing')];
const put = <T extends { id: string }>(collection: MirroredCollection, doc: T, seq: number): Change => ({ collection, seq, id: doc.id, deleted: false, doc });
const gone = (id: string, seq: number): Change => ({ collection: 'transactions', seq, id, deleted: true, doc: null }) as Change;

/** A device whose first mirror completed (the leader then takes its snapshot). */
async function mirrored(name: string, opts: { bodies?: number } = {}) {
  const idb = new IDBFactory();
  const open = mirrorDevice(name, ACTOR, idb, opts);
  const rt = await open();
  const rows = makeTransactions(N, 12, { users: 3 });
  const changes = [...USERS.map((u, i) => put('users', u, i + 1)), ...rows.map((t, i) => put('transactions', t, USERS.length + i + 1))];
  await rt.mirror.applyChanges(changes, { seq: N + 3, epoch: 'e', mirrored: true });
  expect(await rt.snapshots.capture()).toBe(true);
  return { idb, open, rt, rows, engineDb: () => new EngineSnapshotStore(`${name}-engine`, { indexedDB: idb, IDBKeyRange }) };
}

const QUERIES: [TransactionFilter, TransactionSort][] = [
  [{}, 'occurred_desc'], [{}, 'merchant_asc'], [{ q: 'ada' }, 'amount_desc'], [{ q: 'lovelace' }, 'occurred_asc'],
  [{ q: 'zebra' }, 'occurred_desc'], [{ q: 'byron' }, 'occurred_desc'], [{ missing_coding: true }, 'amount_asc'],
  [{ user_ids: [testUuid(2, 2)], states: ['CLEARED'] }, 'occurred_desc'],
];

/** Every query's rows as shown (ids, memo, amount, pending mark) and total. */
async function answers(rt: MirrorRuntime) {
  const out: unknown[] = [];
  for (const [filter, sort] of QUERIES) {
    const page = await rt.queryTransactions({ filter, sort, offset: 0, limit: 1e6 });
    out.push({ filter, sort, total: page.total, rows: page.rows.map((r) => [r.id, r.memo, r.amount, r.pending]) });
  }
  out.push(rt.engines.transactions.totals({}, { amount: 'amount', currency: 'currency' }));
  return out;
}

/** The same device restarted without its snapshot: every stored row loaded, as before issue 33. */
async function fullLoad(open: () => Promise<MirrorRuntime>, rt: MirrorRuntime) {
  await rt.snapshots.drop();
  await rt.close();
  const again = await open();
  expect(again.snapshots.lastRestore).toEqual({ restored: false, rowsRead: 0 });
  return again;
}

describe('the transactions engine restored from its snapshot after a restart (issue 33)', () => {
  it('restores without reading any row back and answers exactly as before the restart', async () => {
    const { open, rt } = await mirrored('snap-restart');
    const before = await answers(rt);
    await rt.close();
    const again = await open();
    expect(again.snapshots.lastRestore).toEqual({ restored: true, rowsRead: 0 });
    expect(again.engines.transactions.size).toBe(N);
    expect(await answers(again)).toEqual(before);
    expect(await again.getTransaction(testUuid(1, 5))).toMatchObject({ id: testUuid(1, 5), pending: null });
  });

  it('reads the bodies it keeps back in the background after the restore (its LRU starts empty)', async () => {
    const { open, rt, rows } = await mirrored('snap-warm');
    await rt.close();
    const again = await open();
    const engine = again.engines.transactions;
    expect(engine.bodiesInMemory).toBeLessThan(N);
    const read = await again.snapshots.warming;
    expect(read).toBeGreaterThan(0);
    expect(engine.bodiesInMemory).toBe(N);
    for (const row of rows) expect(engine.get(row.id)).toMatchObject({ id: row.id, memo: row.memo, amount: row.amount });
  });

  it('keeps the newest bodies it can when not all fit, read back by id after the restore', async () => {
    const { open, rt, rows } = await mirrored('snap-warm-newest', { bodies: 200 });
    await rt.close();
    const again = await open();
    const engine = again.engines.transactions;
    expect(await again.snapshots.warming).toBeGreaterThan(0);
    const newest = engine.matchingIds({}).slice(0, 200);
    for (const id of newest) expect(engine.get(id)).toMatchObject({ id, memo: rows.find((r) => r.id === id)!.memo });
    // The LRU holds its capacity; beyond it, only the held (the signed-in person's own rows).
    const own = rows.filter((r) => r.user_id === ACTOR.user_id).length;
    expect(engine.bodiesInMemory).toBeLessThanOrEqual(200 + own);
  });

  it.each([
    ['every matching row (a report, a bulk command)', async (rt: MirrorRuntime) => rt.matchingRows('transactions', {})],
    ['an export, page by page', async (rt: MirrorRuntime) => {
      await rt.bodiesFor('transactions', N);
      const rows: { id: string }[] = [];
      for (let offset = 0; offset < N; offset += 100) rows.push(...(await rt.queryTransactions({ filter: {}, sort: 'occurred_desc', offset, limit: 100 })).rows);
      return rows;
    }],
  ])('%s right after the restore hurries the warm-up and waits for it, not reading the rows twice', async (name, readAll) => {
    const { open, rt, rows } = await mirrored(`snap-warm-join-${name.length}`);
    await rt.close();
    const again = await open();
    const feed = (again as unknown as { feedOf: Record<'transactions', CollectionFeed> }).feedOf.transactions;
    const scan = feed.scan.bind(feed);
    let stored = 0;
    let scanned = 0;
    const byId = feed.stored.bind(feed);
    feed.stored = async (ids) => ((stored += ids.length), byId(ids));
    feed.scan = async function* (pageSize) {
      for await (const page of scan(pageSize)) yield ((scanned += page.length), page);
    };
    const read = await readAll(again);
    expect(read).toHaveLength(N);
    const byRow = new Map(read.map((r) => [r.id, r as { memo?: unknown }]));
    for (const row of rows) expect(byRow.get(row.id)?.memo).toBe(row.memo);
    // The warm-up had finished when the answer came (no 1 s wait before it), and read every body once.
    const done = await Promise.race([again.snapshots.warming!.then(() => 'warm'), new Promise((r) => setTimeout(() => r('waiting'), 0))]);
    expect(done).toBe('warm');
    expect(scanned).toBe(N);
    expect(stored).toBe(0);
  });

  it('shows rows the feed changed, removed or added after the snapshot, a confirmed command and a pending one', async () => {
    const { open, rt, rows } = await mirrored('snap-changes');
    const [a, b, d, e] = [rows[3]!, rows[4]!, rows[5]!, rows[6]!];
    const c = makeTransaction({ id: testUuid(6, 1), merchant_name: 'Zebra Cafe', user_id: testUuid(2, 1), change_seq: N + 12 });
    await rt.mirror.applyChanges([put('transactions', { ...a, amount: 123_456, memo: 'zebra crossing', change_seq: N + 10 }, N + 10), gone(b.id, N + 11), put('transactions', c, N + 12)], { seq: N + 12, epoch: 'e', mirrored: true });
    // A command confirmed with the row as stored (the outbox's confirm, then the entry goes).
    const { result } = await rt.commands.run('transaction.code', { transaction_id: d.id, patch: { memo: 'zebra confirmed' } });
    const entry = await entryOf(rt, commandId(result));
    await rt.mirror.confirm(entry, { ...d, memo: 'zebra confirmed', change_seq: N + 20 });
    await rt.outboxStore.remove(entry.id);
    // A command still pending.
    await rt.commands.run('transaction.code', { transaction_id: e.id, patch: { memo: 'zebra pending' } });
    await expect.poll(async () => (await rt.queryTransactions({ filter: { q: 'zebra' }, sort: 'occurred_desc', offset: 0, limit: 10 })).total).toBe(4);
    const before = await answers(rt);
    await rt.close();

    const again = await open();
    // Only the journaled rows (a, b, c, d) and the one the outbox names (e) were looked up: four are stored.
    expect(again.snapshots.lastRestore).toEqual({ restored: true, rowsRead: 4 });
    expect(await answers(again)).toEqual(before);
    const zebra = await again.queryTransactions({ filter: { q: 'zebra' }, sort: 'occurred_desc', offset: 0, limit: 10 });
    expect(Object.fromEntries(zebra.rows.map((r) => [r.id, [r.memo, r.pending]]))).toEqual({
      [a.id]: ['zebra crossing', null], [c.id]: [c.memo, null], [d.id]: ['zebra confirmed', null], [e.id]: ['zebra pending', 'pending'],
    });
    expect(await again.getTransaction(b.id)).toBeNull();
    expect(again.engines.transactions.size).toBe(N);
    // What a restart without the snapshot (every stored row loaded) answers.
    expect(await answers(await fullLoad(open, again))).toEqual(before);
  });

  it('finds rows by a reference name changed after the snapshot, never by the old one', async () => {
    const { open, rt, rows } = await mirrored('snap-rename');
    const ada = rows.filter((r) => r.user_id === USERS[0]!.id).length;
    await rt.mirror.applyChanges([put('users', { ...USERS[0]!, last_name: 'Byron' }, N + 10)], { seq: N + 10, epoch: 'e', mirrored: true });
    await expect.poll(async () => (await rt.queryTransactions({ filter: { q: 'byron' }, sort: 'occurred_desc', offset: 0, limit: 1 })).total).toBe(ada);
    const before = await answers(rt);
    await rt.close();
    const again = await open();
    expect(again.snapshots.lastRestore?.restored).toBe(true);
    const count = async (q: string) => (await again.queryTransactions({ filter: { q }, sort: 'occurred_desc', offset: 0, limit: 1 })).total;
    expect(await count('byron')).toBe(ada);
    expect(await count('lovelace')).toBe(0);
    expect(await answers(again)).toEqual(before);
  });

  it('is safe after a crash between the journal append and the row write: the row is read back as stored', async () => {
    const { open, rt, rows } = await mirrored('snap-crash');
    const before = await answers(rt);
    // What RxMirrorStore does before a write; the write itself never happens (the tab died).
    await rt.snapshots.append([rows[7]!.id, testUuid(6, 9)]);
    await rt.close();
    const again = await open();
    expect(again.snapshots.lastRestore).toEqual({ restored: true, rowsRead: 1 });
    expect(await answers(again)).toEqual(before);
    expect(await again.getTransaction(testUuid(6, 9))).toBeNull();
  });

  it('ignores a snapshot of an older format, and one of a mirror emptied since, loading every row instead', async () => {
    const { open, rt, engineDb } = await mirrored('snap-format');
    const before = await answers(rt);
    await rt.close();
    const db = engineDb();
    const { record } = await db.read();
    await db.write({ ...record!, format: record!.format - 1 });
    db.close();
    const again = await open();
    expect(again.snapshots.lastRestore).toEqual({ restored: false, rowsRead: 0 });
    expect(await answers(again)).toEqual(before);
    expect((await engineDb().read()).record).toBeNull();
    // A new one, then the mirror emptied without the store (as a layout change at open does): its checkpoint is behind the snapshot's.
    expect(await again.snapshots.capture()).toBe(true);
    await clearMirroredRows(again.db);
    await again.close();
    const emptied = await open();
    expect(emptied.snapshots.lastRestore).toEqual({ restored: false, rowsRead: 0 });
    expect(emptied.engines.transactions.size).toBe(0);
    // A reset (download again) drops the snapshot with the rows.
    await emptied.mirror.applyChanges([put('transactions', makeTransaction(), 1)], { seq: 1, epoch: 'e', mirrored: true });
    expect(await emptied.snapshots.capture()).toBe(true);
    expect((await engineDb().read()).record).not.toBeNull();
    await emptied.mirror.reset();
    expect((await engineDb().read()).record).toBeNull();
  });
});
