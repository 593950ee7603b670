import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { drainOutbox, syncLockName, type LockManagerLike } from '../sync/background-sync.ts';
import { createOutboxEntry } from '../sync/outbox.ts';
import type { OutboxEntry } from '../sync/ports.ts';
import { createFakeClock, fakeToken, jsonResponse, scriptedTransport, type ScriptStep } from '../sync/testing.ts';
import { backgroundOutboxPorts } from './background-outbox.ts';
import { mirrorStorage, openMirrorDatabase } from './db.ts';
import { RxOutboxStore } from './outbox-store.ts';
import { useReceiptStoreOptions } from './receipt-store.ts';
import { SessionStore } from './session-store.ts';
import { makeTransaction, signedInAdmin } from './test-fixtures.ts';

/**
 * The service worker's background delivery over the real stores on fake-indexeddb: the outbox a
 * tab wrote into its mirror database, the session it stored, delivered with the session's token,
 * the entry's Idempotency-Key, its If-Match and the device id; what the next tab finds.
 */
const admin = signedInAdmin();
const TOKEN = fakeToken(['default', 'low-risk']);
const E1 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

afterEach(() => useReceiptStoreOptions(undefined));

async function device(steps: ScriptStep[], opts: { expired?: boolean } = {}) {
  const idb = new IDBFactory();
  const storage = mirrorStorage({ indexedDB: idb, IDBKeyRange });
  useReceiptStoreOptions({ indexedDB: idb, IDBKeyRange });
  const sessionStore = new SessionStore({ indexedDB: idb, IDBKeyRange });
  await sessionStore.set({
    token: TOKEN, session: { user: admin.user, business: admin.business, scopes: ['default'] },
    db_name: admin.dbName, expired: opts.expired ?? false, saved_at: 1,
  });
  const txn = makeTransaction();
  const entry: OutboxEntry = {
    ...createOutboxEntry({ id: E1, command: 'transaction.code', args: { transaction_id: txn.id, patch: { memo: 'offline' } }, now: 1 }),
    base_seq: 7,
  };
  // A tab queued the command offline and was closed.
  const tab = await openMirrorDatabase({ name: admin.dbName, storage, multiInstance: false });
  await new RxOutboxStore(tab).put(entry);
  await tab.close();

  const transport = scriptedTransport(steps);
  const locked: string[] = [];
  const locks: LockManagerLike = { request: (name, _o, cb) => (locked.push(name), cb()) };
  const ports = backgroundOutboxPorts({ sessionStore, transport, clock: createFakeClock(), baseUrl: 'http://api.test', locks, storage });
  /** What the next tab finds in its outbox. */
  const nextTab = async () => {
    const db = await openMirrorDatabase({ name: admin.dbName, storage, multiInstance: false });
    try {
      return await new RxOutboxStore(db).list();
    } finally {
      await db.close();
    }
  };
  /** The entries the service worker kept `done` with the server's answer. */
  const delivered = async () => {
    const db = await openMirrorDatabase({ name: admin.dbName, storage, multiInstance: false });
    try {
      return await new RxOutboxStore(db).delivered();
    } finally {
      await db.close();
    }
  };
  return { ports, transport, locked, txn, sessionStore, nextTab, delivered };
}

describe('background outbox (service worker side)', () => {
  it('delivers the stored outbox with the stored session, key, base and device; the next tab finds nothing to send', async () => {
    const answer = { ...makeTransaction(), memo: 'offline', change_seq: 12 };
    const d = await device([jsonResponse(200, answer)]);
    expect(await drainOutbox(d.ports, 60_000)).toBe('drained');
    expect(d.locked).toEqual([syncLockName(admin.dbName)]);
    const [req] = d.transport.requests;
    expect(req?.url).toBe(`http://api.test/v1/auth/transactions/${d.txn.id}`);
    expect(req?.headers['ramp-id-token']).toBe(TOKEN);
    expect(req?.headers['idempotency-key']).toBe(E1);
    expect(req?.headers['if-match']).toBe('"7"');
    expect(req?.headers['x-ledgerline-device']).toBe(await d.sessionStore.deviceId());
    expect(await d.nextTab()).toEqual([]);
    // Kept done with the server's row, for the next open to show (delivered-commands.test.ts).
    expect((await d.delivered()).map((e) => [e.id, e.state, (e.answer as { memo?: unknown } | null)?.memo])).toEqual([[E1, 'done', 'offline']]);
  });

  it('a 401 leaves the command pending and marks the stored session expired (the next open asks to sign in)', async () => {
    const d = await device([jsonResponse(401, { error_v2: { message: 'Sign in again.', error_code: 'AUTH_7003' } })]);
    expect(await drainOutbox(d.ports, 60_000)).toBe('signed_out');
    expect((await d.nextTab()).map((e) => [e.id, e.state])).toEqual([[E1, 'pending']]);
    await expect.poll(async () => (await d.sessionStore.get())?.expired).toBe(true);
  });

  it('an expired session delivers nothing', async () => {
    const d = await device([], { expired: true });
    expect(await drainOutbox(d.ports, 60_000)).toBe('idle');
    expect(d.transport.requests).toEqual([]);
    expect(d.locked).toEqual([]);
    expect((await d.nextTab()).map((e) => e.state)).toEqual(['pending']);
  });
});
