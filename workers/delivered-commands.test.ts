import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import type { Change } from '../schema/sync-feed.ts';
import { drainOutbox, type LockManagerLike } from '../sync/background-sync.ts';
import { createOutboxEntry } from '../sync/outbox.ts';
import type { OutboxEntry } from '../sync/ports.ts';
import { createFakeClock, fakeToken, jsonResponse, scriptedTransport, type ScriptStep } from '../sync/testing.ts';
import type { Transaction } from '../schema/entities/transaction.ts';
import { backgroundOutboxPorts } from './background-outbox.ts';
import { mirrorStorage, openMirrorDatabase } from './db.ts';
import { MirrorRuntime } from './mirror-runtime.ts';
import { RxOutboxStore } from './outbox-store.ts';
import { useReceiptStoreOptions } from './receipt-store.ts';
import { SessionStore } from './session-store.ts';
import { makeTransaction, signedInAdmin, testUuid } from './test-fixtures.ts';

/**
 * Issue 26: the service worker delivers a command with no tab open and writes no mirror rows. The
 * next open, offline, must still show the change (not the row it replaced): the delivered entry
 * is kept `done` with the server's answer and confirmed by the opening tab, until the feed brings
 * the change. On fake-indexeddb, through the real stores, runtime and background delivery.
 */
const admin = signedInAdmin();
const TOKEN = fakeToken(['default', 'low-risk']);
const E1 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const A = makeTransaction({ id: testUuid(1, 1), change_seq: 7, memo: null });
const B = makeTransaction({ id: testUuid(1, 2), change_seq: 8, memo: null });
const runtimes: MirrorRuntime[] = [];

afterEach(async () => {
  useReceiptStoreOptions(undefined);
  await Promise.all(runtimes.splice(0).map((rt) => rt.close()));
});

const changes = (...rows: Transaction[]): Change[] => rows.map((t) => ({ collection: 'transactions', seq: t.change_seq, id: t.id, deleted: false, doc: t }));

/** A tab mirrored A and B (feed through seq 8), queued `entry` offline and was closed; the service worker then delivers it. */
async function deliveredInBackground(entry: OutboxEntry, answer: ScriptStep) {
  const idb = new IDBFactory();
  const storage = () => mirrorStorage({ indexedDB: idb, IDBKeyRange });
  useReceiptStoreOptions({ indexedDB: idb, IDBKeyRange });
  const sessionStore = new SessionStore({ indexedDB: idb, IDBKeyRange });
  await sessionStore.set({
    token: TOKEN, session: { user: admin.user, business: admin.business, scopes: ['default'] },
    db_name: admin.dbName, expired: false, saved_at: 1,
  });
  const tab = await MirrorRuntime.open({ name: admin.dbName, storage: storage(), multiInstance: false, defer: (fn) => fn() });
  await tab.ready;
  await tab.mirror.getCheckpoint();
  await tab.mirror.applyChanges(changes(A, B), { seq: 8, epoch: 'e' });
  await tab.outboxStore.put(entry);
  await tab.close();

  const transport = scriptedTransport([answer]);
  const locks: LockManagerLike = { request: (_n, _o, cb) => cb() };
  const ports = backgroundOutboxPorts({ sessionStore, transport, clock: createFakeClock(), baseUrl: 'http://api.test', locks, storage: storage() });
  expect(await drainOutbox(ports, 60_000)).toBe('drained');
  expect(transport.requests).toHaveLength(1);

  /** The next open, offline: the runtime alone, no sync engine. */
  const open = async () => {
    const rt = await MirrorRuntime.open({ name: admin.dbName, storage: storage(), multiInstance: false, defer: (fn) => fn() });
    runtimes.push(rt);
    await rt.ready;
    return rt;
  };
  /** The stored outbox, every state: through the open runtime's store (a second open of the database would close the runtime's). */
  const stored = async (rt?: MirrorRuntime) => {
    const db = rt ? null : await openMirrorDatabase({ name: admin.dbName, storage: storage(), multiInstance: false });
    const store = rt ? rt.outboxStore : new RxOutboxStore(db!);
    try {
      return [...(await store.list()), ...(await store.delivered())].map((e) => [e.id, e.state]);
    } finally {
      await db?.close();
    }
  };
  /** Stores an entry while no tab is open. */
  const putClosed = async (e: OutboxEntry) => {
    const db = await openMirrorDatabase({ name: admin.dbName, storage: storage(), multiInstance: false });
    await new RxOutboxStore(db).put(e);
    await db.close();
  };
  return { open, stored, putClosed };
}

describe('commands the service worker delivered, at the next open', () => {
  it('a row answer (transaction.code): the next offline open shows the change, and the answer row is stored', async () => {
    const entry = createOutboxEntry({ id: E1, command: 'transaction.code', args: { transaction_id: A.id, patch: { memo: 'offline' } }, now: 1 });
    const d = await deliveredInBackground(entry, jsonResponse(200, { ...A, memo: 'offline', change_seq: 12 }));
    const rt = await d.open();
    await expect.poll(async () => (await rt.get('transactions', A.id))?.memo).toBe('offline');
    const row = await rt.get('transactions', A.id);
    expect(row?.pending).toBeNull();
    expect(row?.change_seq).toBe(12);
    expect(rt.outboxIndex.counts().pending).toBe(0);
    // The row is stored: the done entry has nothing left to do.
    await rt.close();
    runtimes.length = 0;
    await expect.poll(d.stored).toEqual([]);
    const again = await d.open();
    expect((await again.get('transactions', A.id))?.memo).toBe('offline');
  });

  it('a change seq answer (bulk coding): shown over the older rows across reopens until the feed passes that seq', async () => {
    const entry = createOutboxEntry({ id: E1, command: 'transaction.bulkCode', args: { transaction_ids: [A.id, B.id], patch: { memo: 'bulk' } }, now: 1 });
    const d = await deliveredInBackground(entry, jsonResponse(200, { updated: 2, change_seq: 20 }));
    expect(await d.stored()).toEqual([[E1, 'done']]);
    let rt = await d.open();
    await expect.poll(async () => (await rt.get('transactions', B.id))?.memo).toBe('bulk');
    expect((await rt.get('transactions', A.id))?.memo).toBe('bulk');
    expect((await rt.get('transactions', A.id))?.pending).toBeNull();
    expect(rt.outboxIndex.counts().pending).toBe(0);

    // Reopened before any pull: still shown.
    await rt.close();
    runtimes.length = 0;
    rt = await d.open();
    await expect.poll(async () => (await rt.get('transactions', A.id))?.memo).toBe('bulk');

    // A pull that has not reached seq 20 yet (someone else's change at 15) keeps it.
    await rt.mirror.getCheckpoint();
    await rt.mirror.applyChanges(changes({ ...A, change_seq: 15, merchant_name: 'Elsewhere' }), { seq: 15, epoch: 'e' });
    await expect.poll(async () => (await rt.get('transactions', A.id))?.merchant_name).toBe('Elsewhere');
    expect((await rt.get('transactions', A.id))?.memo).toBe('bulk');
    expect(await d.stored(rt)).toEqual([[E1, 'done']]);

    // The feed brings seq 20 (A carries the bulk memo, B was changed again after it): the overlay
    // and the stored entry go, every row is the server's.
    await rt.mirror.applyChanges(changes({ ...A, change_seq: 19, memo: 'bulk' }, { ...B, change_seq: 21, memo: 'later' }), { seq: 21, epoch: 'e' });
    await expect.poll(async () => (await rt.get('transactions', B.id))?.memo).toBe('later');
    await expect.poll(() => d.stored(rt)).toEqual([]);
    expect((await rt.get('transactions', A.id))?.memo).toBe('bulk');
  });

  it('a delivered change the mirror already holds (a crash kept the entry past its feed) is dropped at open, not shown over newer rows', async () => {
    const entry = createOutboxEntry({ id: E1, command: 'transaction.bulkCode', args: { transaction_ids: [A.id], patch: { memo: 'bulk' } }, now: 1 });
    const d = await deliveredInBackground(entry, jsonResponse(200, { updated: 1, change_seq: 20 }));
    const [done] = await (async () => {
      const rt = await d.open();
      const kept = await rt.outboxStore.delivered();
      await rt.mirror.getCheckpoint();
      await rt.mirror.applyChanges(changes({ ...A, change_seq: 25, memo: 'newer' }), { seq: 25, epoch: 'e' });
      await expect.poll(() => d.stored(rt)).toEqual([]);
      await rt.close();
      runtimes.length = 0;
      return kept;
    })();
    await d.putClosed(done!);
    const rt = await d.open();
    await expect.poll(() => d.stored(rt)).toEqual([]);
    expect((await rt.get('transactions', A.id))?.memo).toBe('newer');
  });
});
