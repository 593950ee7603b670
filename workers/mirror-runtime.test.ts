import { afterEach, describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { Change } from '../schema/sync-feed.ts';
import { compareTransactions } from '../schema/transaction-query.ts';
import { openMirrorDatabase, type MirrorDatabase, mirrorStorage } from './db.ts';
import { RxOutboxStore } from './outbox-store.ts';
import { createOutboxEntry } from '../sync/outbox-machine.ts';
import type { Transaction } from '../schema/entities/transaction.ts';
import { MirrorRuntime } from './mirror-runtime.ts';
import { OutboxIndex } from './outbox-index.ts';
import { RxMirrorStore } from './mirror-store.ts';
import { makeTransactions, testUuid } from './test-fixtures.ts';

const runtimes: MirrorRuntime[] = [];
afterEach(async () => {
  for (const rt of runtimes.splice(0)) await rt.close();
});

/** A seeded mirror, reopened with the engine load held until `release()`. */
async function seeded(n: number, before?: (db: MirrorDatabase, rows: Transaction[]) => Promise<void>) {
  const idb = new IDBFactory();
  const storage = () => mirrorStorage({ indexedDB: idb, IDBKeyRange });
  const rows = makeTransactions(n, 8);
  const db = await openMirrorDatabase({ name: 'rt-test', storage: storage(), multiInstance: false });
  const changes = rows.map((t): Change => ({ collection: 'transactions', seq: t.change_seq, id: t.id, deleted: false, doc: t }));
  await new RxMirrorStore(db, new OutboxIndex()).applyChanges(changes, { seq: n, epoch: 'e' });
  await before?.(db, rows);
  await db.close();
  let release = () => undefined as void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const rt = await MirrorRuntime.open({ name: 'rt-test', storage: storage(), multiInstance: false, defer: (fn) => fn(), beforeLoad: () => gate });
  runtimes.push(rt);
  return { rt, rows, release };
}

describe('MirrorRuntime cold start', () => {
  it('answers the default first page from the occurred_desc index before the engine has loaded', async () => {
    const { rt, rows, release } = await seeded(400);
    const early = await rt.queryTransactions({ filter: {}, sort: 'occurred_desc', offset: 0, limit: 25 });
    expect(rt.isReady).toBe(false);
    const newest = [...rows].sort(compareTransactions('occurred_desc')).slice(0, 25).map((r) => r.id);
    expect(early.total).toBe(400);
    expect(early.rows.map((r) => r.id)).toEqual(newest);
    expect(early.rows[0]).toMatchObject({ deleted: false, pending: null });
    expect(early.rows[0]).not.toHaveProperty('occurred_desc');

    // A filtered query waits for the engine instead, and then agrees with the fast path.
    release();
    const filtered = await rt.queryTransactions({ filter: { amount_min: 0 }, sort: 'occurred_desc', offset: 0, limit: 5 });
    expect(filtered.total).toBe(rows.filter((r) => r.amount >= 0).length);
    expect(filtered.rows.every((r) => r.amount >= 0)).toBe(true);
    const late = await rt.queryTransactions({ filter: {}, sort: 'occurred_desc', offset: 0, limit: 25 });
    expect(late.rows.map((r) => r.id)).toEqual(newest);
  });

  it('answers a query of another collection once its own rows are loaded, not every collection\'s', async () => {
    const { rt, release } = await seeded(6000);
    release();
    const claims = await rt.query('reimbursements', { filter: { statuses: ['DRAFT'] }, sort: 'date_desc', offset: 0, limit: 5 });
    expect(claims.total).toBe(0);
    // The 6,000 transactions (three load pages) are still loading: the claims did not wait for them.
    expect(rt.isReady).toBe(false);
    await rt.ready;
    const all = await rt.queryTransactions({ filter: { amount_min: -1e12 }, sort: 'occurred_desc', offset: 0, limit: 1 });
    expect(all.total).toBe(6000);
  });

  it('lets the first page read finish before the engine load goes on', async () => {
    const { rt, release } = await seeded(400);
    const first = rt.queryTransactions({ filter: {}, sort: 'occurred_desc', offset: 0, limit: 25 });
    release();
    // The load yields to the pending read at every page, so it cannot have finished first.
    expect((await first).rows).toHaveLength(25);
    expect(rt.isReady).toBe(false);
    await rt.ready;
    expect(rt.isReady).toBe(true);
  });

  it('shows stored pending commands on the fast-path first page too', async () => {
    const gl = testUuid(5, 3);
    let newestId = '';
    const { rt, release } = await seeded(50, async (db, rows) => {
      newestId = [...rows].sort(compareTransactions('occurred_desc'))[0]!.id;
      await new RxOutboxStore(db).put(
        createOutboxEntry({ id: crypto.randomUUID(), command: 'transaction.code', args: { transaction_id: newestId, patch: { gl_account_id: gl } }, now: 1 }),
      );
    });
    const page = await rt.queryTransactions({ filter: {}, sort: 'occurred_desc', offset: 0, limit: 1 });
    expect(rt.isReady).toBe(false);
    expect(page.rows[0]).toMatchObject({ id: newestId, gl_account_id: gl, pending: 'pending' });
    release();
  });
});

describe('MirrorRuntime cold-start total', () => {
  it('answers the first page total from the count saved with the checkpoint, kept across batches', async () => {
    const idb = new IDBFactory();
    const storage = () => mirrorStorage({ indexedDB: idb, IDBKeyRange });
    const rt = await MirrorRuntime.open({ name: 'rt-count', storage: storage(), multiInstance: false, defer: (fn) => fn() });
    await rt.ready;
    const rows = makeTransactions(40, 11);
    const put = (part: Transaction[]) => part.map((t): Change => ({ collection: 'transactions', seq: t.change_seq, id: t.id, deleted: false, doc: t }));
    await rt.mirror.applyChanges(put(rows.slice(0, 25)), { seq: 25, epoch: 'e' });
    // Rows again (updates, not new rows), new rows, and a delete.
    const gone: Change = { collection: 'transactions', seq: 41, id: rows[0]!.id, deleted: true, doc: null };
    await rt.mirror.applyChanges([...put(rows.slice(20)), gone], { seq: 41, epoch: 'e' });
    expect(await rt.mirror.storedCount()).toBe(39);
    await rt.close();

    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const cold = await MirrorRuntime.open({ name: 'rt-count', storage: storage(), multiInstance: false, defer: (fn) => fn(), beforeLoad: () => gate });
    runtimes.push(cold);
    const first = await cold.queryTransactions({ filter: {}, sort: 'occurred_desc', offset: 0, limit: 10 });
    expect(cold.isReady).toBe(false);
    expect(first.total).toBe(39);
    expect(first.rows).toHaveLength(10);
    // An empty catch-up pull while the engine loads keeps the count (the puller reads the
    // checkpoint first); a batch with rows in it drops it, as its effect is not known yet.
    await cold.mirror.getCheckpoint();
    await cold.mirror.applyChanges([], { seq: 41, epoch: 'e' });
    expect(await cold.mirror.storedCount()).toBe(39);
    await cold.mirror.applyChanges(put([makeTransactions(1, 12)[0]!]), { seq: 42, epoch: 'e' });
    expect(await cold.mirror.storedCount()).toBeNull();
    release();
    await cold.ready;
    expect((await cold.queryTransactions({ filter: {}, sort: 'occurred_desc', offset: 0, limit: 10 })).total).toBe(40);
  });

  it('counts the stored rows when no count was saved (a mirror written before counts were kept)', async () => {
    const { rt, release } = await seeded(30);
    expect(await rt.mirror.storedCount()).toBeNull();
    expect((await rt.queryTransactions({ filter: {}, sort: 'occurred_desc', offset: 0, limit: 5 })).total).toBe(30);
    release();
  });
});

describe('MirrorRuntime text indexing', () => {
  it('indexes in the gaps between feed batches, not during them', async () => {
    const idb = new IDBFactory();
    const rt = await MirrorRuntime.open({
      name: 'rt-index',
      storage: mirrorStorage({ indexedDB: idb, IDBKeyRange }),
      multiInstance: false,
      defer: (fn) => fn(),
    });
    runtimes.push(rt);
    await rt.ready;
    const rows = makeTransactions(60, 9);
    const batch = (part: Transaction[]) => part.map((t): Change => ({ collection: 'transactions', seq: t.change_seq, id: t.id, deleted: false, doc: t }));
    const first = rt.mirror.applyChanges(batch(rows.slice(0, 30)), { seq: 30, epoch: 'e' });
    const second = rt.mirror.applyChanges(batch(rows.slice(30)), { seq: 60, epoch: 'e' });
    await first;
    // The second batch is still queued: the first one's rows wait to be indexed.
    expect(rt.engines.transactions.searchBacklog).toBe(30);
    await second;
    await rt.mirror.idle();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(rt.engines.transactions.searchBacklog).toBe(0);
    expect((await rt.queryTransactions({ filter: { q: rows[0]!.merchant_name }, sort: 'occurred_desc', offset: 0, limit: 60 })).total).toBeGreaterThan(0);
  });
});

describe('MirrorRuntime generic reads', () => {
  it('query(collection, q) and get(collection, id) answer as the transaction calls do', async () => {
    const { rt, rows, release } = await seeded(60);
    release();
    await rt.ready;
    const q = { filter: { amount_min: 0 }, sort: 'amount_desc' as const, offset: 5, limit: 10 };
    const generic = await rt.query('transactions', q);
    const specific = await rt.queryTransactions(q);
    expect({ ...generic, took_ms: 0 }).toEqual({ ...specific, took_ms: 0 });
    expect(generic.rows).toHaveLength(10);
    expect(await rt.get('transactions', rows[3]!.id)).toEqual(await rt.getTransaction(rows[3]!.id));
    expect(await rt.get('transactions', rows[3]!.id)).toMatchObject({ id: rows[3]!.id, deleted: false, pending: null, failure: null });
    expect(await rt.get('transactions', testUuid(1, 99_999))).toBeNull();
  });
});

