import { describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { Change } from '../../schema/sync-feed.ts';
import { flush } from '../../sync/testing.ts';
import type { Transport } from '../../sync/ports.ts';
import { CHECKPOINT_ID, openMirrorDatabase, mirrorStorage } from '../db.ts';
import { RxMirrorStore } from '../mirror-store.ts';
import { OutboxIndex } from '../outbox-index.ts';
import { makeGlAccount, makeTransactions, signedInAdmin } from '../test-fixtures.ts';
import { signInOnly, startWorker } from '../testing/signed-in-worker.ts';

const { user: USER, dbName: DB_NAME } = signedInAdmin();

const transport = signInOnly(['default', 'low-risk']);

/** A device whose first mirror is complete: 120 transactions and one GL account. */
async function mirroredDevice() {
  const idb = new IDBFactory();
  const storage = mirrorStorage({ indexedDB: idb, IDBKeyRange });
  const rows = makeTransactions(120, 5);
  const db = await openMirrorDatabase({ name: DB_NAME, storage, multiInstance: false });
  const gl = makeGlAccount(1, 'Travel');
  const changes: Change[] = [
    { collection: 'gl_accounts', seq: 1, id: gl.id, deleted: false, doc: gl },
    ...rows.map((t, i): Change => ({ collection: 'transactions', seq: i + 2, id: t.id, deleted: false, doc: t })),
  ];
  await new RxMirrorStore(db, new OutboxIndex()).applyChanges(changes, { seq: rows.length + 1, epoch: 'e', mirrored: true });
  await db.close();
  const service = await startWorker({ transport, idb, storage });
  await service.signIn(USER.email, 'demo-password-1');
  return { service, rows, storage };
}

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200 && !(await check()); i++) await flush();
  expect(await check()).toBe(true);
}

describe('Totals through the API (handlers/queries.ts)', () => {
  it('totals the whole filtered result and a selection, per currency', async () => {
    const { service, rows } = await mirroredDevice();
    const usd = rows.reduce((sum, t) => sum + t.amount, 0);
    expect(await service.totals('transactions', { filter: {}, sort: 'amount_desc' })).toMatchObject({ count: 120, sums: [{ currency: 'USD', amount: usd, count: 120 }] });
    const pending = rows.filter((t) => t.state === 'PENDING');
    expect(await service.totals('transactions', { filter: { states: ['PENDING'] } })).toMatchObject({ count: pending.length });
    expect(await service.selectionTotals('transactions', [rows[0]!.id, rows[1]!.id])).toMatchObject({
      count: 2, sums: [{ currency: 'USD', amount: rows[0]!.amount + rows[1]!.amount, count: 2 }],
    });
    expect(await service.totals('reimbursements', { filter: {} })).toMatchObject({ count: 0, sums: [] });
  });
});

describe('Offline data (Settings): rows, last sync, download again', () => {
  it('counts the rows per collection and knows when the mirror was last written', async () => {
    const { service } = await mirroredDevice();
    const data = await service.offlineData();
    expect(data.rows).toMatchObject({ transactions: 120, reimbursements: 0, gl_accounts: 1, departments: 0 });
    expect(data.waiting).toBe(0);
    expect(data.last_synced_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await service.status()).mirrored).toBe(true);
  });

  it('empties the mirrored rows and rewinds the checkpoint, so the first mirror runs from zero', async () => {
    const { service, storage } = await mirroredDevice();
    expect(await service.downloadAgain()).toEqual({ ok: true });
    await until(async () => (await service.queryTransactions({ filter: {}, sort: 'occurred_desc', offset: 0, limit: 5 })).total === 0);
    expect((await service.offlineData()).rows).toMatchObject({ transactions: 0, gl_accounts: 0 });
    await until(async () => (await service.status()).mirrored === false);
    await service.dispose();
    const db = await openMirrorDatabase({ name: DB_NAME, storage, multiInstance: false });
    expect((await db.meta.findOne(CHECKPOINT_ID).exec())?.toJSON().value).toMatchObject({ seq: 0, epoch: null });
    await db.close();
  });

  it('refuses while changes wait to sync, and keeps them and every row', async () => {
    const { service, rows } = await mirroredDevice();
    const coded = await service.codeTransactions([rows[0]!.id, rows[1]!.id], { memo: 'kept' });
    expect(coded.ok).toBe(true);
    const answer = await service.downloadAgain();
    expect(answer).toMatchObject({ ok: false, reason: 'waiting', waiting: 1 });
    expect(answer.ok === false && answer.message).toContain('1 change on this device has not synced yet');
    expect((await service.outbox()).length).toBe(1);
    expect((await service.offlineData()).rows.transactions).toBe(120);
    expect((await service.getTransaction(rows[0]!.id))?.memo).toBe('kept');
  });

  it('refuses offline: nothing would come back', async () => {
    const { service } = await mirroredDevice();
    await service.setOnline(false);
    expect(await service.downloadAgain()).toMatchObject({ ok: false, reason: 'offline' });
    expect((await service.offlineData()).rows.transactions).toBe(120);
  });
});

describe('online from evidence (sync/reachability.ts): the server answering, not navigator.onLine', () => {
  /** A network whose server may be down (no answer) or hidden behind a captive portal. */
  function network() {
    const net = { mode: 'up' as 'up' | 'down' | 'portal', probes: 0 };
    const transport: Transport = async (input, init) => {
      if (new URL(String(input)).pathname === '/v1/') net.probes++;
      if (net.mode === 'down') throw new TypeError('Failed to fetch');
      if (net.mode === 'portal') return new Response('<html>Sign in to the Wi-Fi</html>', { headers: { 'content-type': 'text/html' } });
      return transport_(input, init);
    };
    return { net, transport };
  }
  const transport_ = transport;
  const reach = async (service: Awaited<ReturnType<typeof startWorker>>) => {
    const s = await service.status();
    return { online: s.online, reachable: s.reachable };
  };

  it('the online event probes: offline until the server answers; silent or a portal is "can\'t reach", not online', async () => {
    const { net, transport } = network();
    const service = await startWorker({ transport });
    expect(await reach(service)).toEqual({ online: true, reachable: undefined });
    await service.setOnline(false);
    expect(await reach(service)).toEqual({ online: false, reachable: undefined });

    net.mode = 'down';
    await service.setOnline(true);
    expect(net.probes).toBe(1);
    await until(async () => (await reach(service)).reachable === false);
    expect(await reach(service)).toEqual({ online: false, reachable: false });

    // A request that gets the portal's page is no answer from Ledgerline either; one that gets an answer is.
    net.mode = 'portal';
    await service.setOnline(false);
    await service.setOnline(true);
    await until(async () => (await reach(service)).reachable === false);
    net.mode = 'up';
    await service.setOnline(false);
    await service.setOnline(true);
    expect((await reach(service)).online).toBe(false);
    await until(async () => (await reach(service)).online);
    expect(await reach(service)).toEqual({ online: true, reachable: undefined });
  });

  it('a request failing without an answer marks the server unreachable; the next answer brings it back', async () => {
    const { net, transport } = network();
    const service = await startWorker({ transport });
    net.mode = 'down';
    await service.signIn(USER.email, 'demo-password-1');
    expect(await reach(service)).toMatchObject({ online: false, reachable: false });
    net.mode = 'up';
    await service.signIn(USER.email, 'demo-password-1');
    expect(await reach(service)).toMatchObject({ online: true, reachable: undefined });
    expect(net.probes).toBe(0);
  });
});
