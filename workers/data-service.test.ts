import { describe, expect, it } from 'vitest';
import { IDBKeyRange, type IDBFactory } from 'fake-indexeddb';
import { errorBody } from '../schema/errors.ts';
import { createOutboxEntry, transition } from '../sync/outbox-machine.ts';
import { fakeToken, flush, jsonResponse } from '../sync/testing.ts';
import type { Transport } from '../sync/ports.ts';
import { openMirrorDatabase, mirrorStorage } from './db.ts';
import { RxOutboxStore } from './outbox-store.ts';
import { BUSINESS_ID, makeTransactions, seedMirrorDb, testUuid, signedInAdmin } from './test-fixtures.ts';
import { testDevice } from './testing/signed-in-worker.ts';
import type { BusinessSessionInfo } from './contracts/session.ts';

const { user: USER, business: BUSINESS, identity: IDENTITY, dbName: DB_NAME } = signedInAdmin();
const GL = testUuid(5, 1);

/** Answers the two calls sign-in makes; the sync engine is off in these tests. */
const serverTransport: Transport = async (input, init) => {
  const url = new URL(String(input));
  if (url.pathname === '/v1/public/sign-in') {
    const body = JSON.parse(String(init?.body)) as { password: string };
    return body.password === 'demo-password-1'
      ? jsonResponse(200, { id_token: fakeToken(['default', 'low-risk']), mfa_required: false })
      : jsonResponse(401, errorBody('AUTH_7001'));
  }
  if (url.pathname === '/v1/auth/identity') return jsonResponse(200, { identity: IDENTITY, user: USER, business: BUSINESS });
  if (url.pathname === '/v1/auth/users/current/step-up') {
    return jsonResponse(200, { id_token: fakeToken(['default', 'sensitive']), expires_at: new Date(Date.now() + 300_000).toISOString() });
  }
  return jsonResponse(404, errorBody('REQUEST_7004'));
};

const device = () => testDevice({ transport: serverTransport });

const seedMirror = (idb: IDBFactory, rows = makeTransactions(300, 4)) => seedMirrorDb(idb, DB_NAME, rows, 'Meals and Entertainment');

describe('DataService session', () => {
  it('starts signed out, refuses a wrong password with the server message, signs in and remembers it', async () => {
    const { make } = device();
    const service = make();
    expect(await service.init({ baseUrl: 'http://api.test' })).toBeNull();
    expect((await service.status()).phase).toBe('signed_out');

    const wrong = await service.signIn(USER.email, 'nope');
    expect(wrong).toEqual({ ok: false, error: expect.objectContaining({ error_code: 'AUTH_7001', message: 'The email or password is incorrect.' }) });

    const ok = await service.signIn(USER.email, 'demo-password-1');
    expect(ok).toMatchObject({ ok: true, mfa_required: false, session: { user: { id: USER.id }, business: { id: BUSINESS_ID } } });
    expect((await service.session())?.scopes).toEqual(['default', 'low-risk']);
    await service.dispose();

    // A reload while offline: signed in from the stored session, no request needed.
    const again = make();
    await again.setOnline(false);
    expect((await again.init({ baseUrl: 'http://api.test' }) as BusinessSessionInfo | null)?.user.id).toBe(USER.id);
    expect((await again.status()).phase).toBe('offline');
  });
});

describe('DataService queries and optimistic coding', () => {
  async function signedIn() {
    const dev = device();
    const rows = await seedMirror(dev.idb);
    const service = dev.make();
    await service.init({ baseUrl: 'http://api.test' });
    await service.signIn(USER.email, 'demo-password-1');
    return { ...dev, rows, service };
  }

  it('answers pages newest first with totals, and text search over coding names', async () => {
    const { service, rows } = await signedIn();
    const page = await service.queryTransactions({ filter: {}, sort: 'occurred_desc', offset: 0, limit: 20 });
    const newest = [...rows].sort((a, b) => (a.occurred_at < b.occurred_at ? 1 : -1)).slice(0, 20).map((r) => r.id);
    expect(page.total).toBe(300);
    expect(page.rows.map((r) => r.id)).toEqual(newest);
    expect(page.rows[0]).toMatchObject({ pending: null, failure: null, deleted: false });
    expect(page.rows[0]).not.toHaveProperty('occurred_desc');
    expect((await service.queryTransactions({ filter: { q: 'meals' }, sort: 'occurred_desc', offset: 0, limit: 5 })).total).toBe(0);
  });

  it('refuses, offline, to code a transaction exported to accounting, saying how to unlock it (issue 12)', async () => {
    const dev = device();
    const rows = makeTransactions(20, 4).map((t, i) => (i === 0 ? { ...t, accounting_synced_at: '2026-11-02T10:00:00.000Z' } : t));
    await seedMirror(dev.idb, rows);
    const service = dev.make();
    await service.init({ baseUrl: 'http://api.test' });
    await service.signIn(USER.email, 'demo-password-1');
    expect((await service.getTransaction(rows[0]!.id))?.accounting_synced_at).toBe('2026-11-02T10:00:00.000Z');
    const refused = await service.codeTransactions([rows[0]!.id, rows[1]!.id], { gl_account_id: GL });
    expect(refused).toMatchObject({ ok: false });
    expect(JSON.stringify(refused)).toMatch(/exported to your accounting system.*Mark it as not synced/);
    expect(await service.outbox()).toEqual([]);
    // An unsynced row codes as before.
    expect(await service.codeTransactions([rows[1]!.id], { gl_account_id: GL })).toMatchObject({ ok: true, affected: 1 });
  });

  it('codes one row with transaction.code and many with one transaction.bulkCode, durably and at once', async () => {
    const { service, rows, clock } = await signedIn();
    const changed: string[][] = [];
    await service.subscribe(() => undefined, (c) => changed.push(c));

    const one = await service.codeTransactions([rows[0]!.id], { gl_account_id: GL });
    const many = await service.codeTransactions(rows.slice(1, 101).map((r) => r.id), { gl_account_id: GL, memo: 'offsite' });
    expect(one).toMatchObject({ ok: true, affected: 1 });
    expect(many).toMatchObject({ ok: true, affected: 100 });

    const outbox = await service.outbox();
    expect(outbox.map((e) => [e.command, e.entity_ids.length, e.state])).toEqual([
      ['transaction.code', 1, 'pending'],
      ['transaction.bulkCode', 100, 'pending'],
    ]);
    const view = await service.getTransaction(rows[5]!.id);
    expect(view).toMatchObject({ gl_account_id: GL, memo: 'offsite', pending: 'pending' });
    // The engine shows the edit before the row rewrite lands; the search index too.
    expect((await service.queryTransactions({ filter: { q: 'meals offsite' }, sort: 'occurred_desc', offset: 0, limit: 500 })).total).toBe(100);
    expect((await service.status()).pending).toBe(2);
    await clock.advance(50);
    expect(changed.flat()).toContain('transactions');
  });

  it('runs any command by name through DataApi.run (codeTransactions is the same path)', async () => {
    const { service, rows } = await signedIn();
    const one = await service.run('transaction.code', { transaction_id: rows[0]!.id, patch: { memo: 'via run' } });
    const many = await service.run('transaction.bulkCode', { transaction_ids: [rows[1]!.id, rows[2]!.id, rows[1]!.id], patch: { memo: 'both' } });
    expect(one).toMatchObject({ ok: true, affected: 1 });
    expect(many).toMatchObject({ ok: true, affected: 2 });
    expect((await service.outbox()).map((e) => [e.command, e.entity_ids.length])).toEqual([
      ['transaction.code', 1],
      ['transaction.bulkCode', 2],
    ]);
    expect(await service.getTransaction(rows[2]!.id)).toMatchObject({ memo: 'both', pending: 'pending' });
    await service.signOut();
    expect(await service.run('transaction.code', { transaction_id: rows[0]!.id, patch: { memo: 'x' } })).toMatchObject({
      ok: false,
      error: { error_code: 'AUTH_7002' },
    });
  });

  it('refuses an invalid patch or unknown ids with §5 messages and queues nothing', async () => {
    const { service } = await signedIn();
    const bad = await service.codeTransactions(['not-a-uuid'], { gl_account_id: GL });
    expect(bad).toMatchObject({ ok: false, error: { error_code: 'REQUEST_7001' } });
    const unknown = await service.codeTransactions([testUuid(1, 99_999)], { memo: 'x' });
    expect(unknown).toMatchObject({ ok: false, error: { error_code: 'REQUEST_7004' } });
    expect(await service.outbox()).toEqual([]);
  });

  it('keeps pending edits across a reload, including an entry written by another tab or before a crash', async () => {
    const { service, rows, make, idb } = await signedIn();
    await service.codeTransactions([rows[0]!.id, rows[1]!.id], { memo: 'kept' });
    await service.dispose();

    // An entry in the outbox that no row write ever followed (another tab, or a crash).
    const db = await openMirrorDatabase({ name: DB_NAME, storage: mirrorStorage({ indexedDB: idb, IDBKeyRange }), multiInstance: false });
    await new RxOutboxStore(db).put(
      createOutboxEntry({ id: crypto.randomUUID(), command: 'transaction.code', args: { transaction_id: rows[2]!.id, patch: { memo: 'crash' } }, now: Date.now() }),
    );
    await db.close();

    const reloaded = make();
    await reloaded.setOnline(false);
    await reloaded.init({ baseUrl: 'http://api.test' });
    expect(await reloaded.getTransaction(rows[0]!.id)).toMatchObject({ memo: 'kept', pending: 'pending' });
    const matches = await reloaded.matchingIds({ q: 'crash' });
    expect(matches).toEqual([rows[2]!.id]);
    expect((await reloaded.outbox()).length).toBe(2);
  });

  it('discards a pending edit back to the server row', async () => {
    const { service, rows } = await signedIn();
    const res = await service.codeTransactions([rows[3]!.id], { memo: 'oops' });
    if (!res.ok) throw new Error('coding failed');
    await service.discardCommand(res.command_id);
    expect(await service.getTransaction(rows[3]!.id)).toMatchObject({ memo: rows[3]!.memo, pending: null });
    expect(await service.outbox()).toEqual([]);
  });

  it('signs out: forgets the session, keeps a mirror with unsent edits, deletes a clean one', async () => {
    const { service, rows, idb } = await signedIn();
    const count = async () => {
      const db = await openMirrorDatabase({ name: DB_NAME, storage: mirrorStorage({ indexedDB: idb, IDBKeyRange }), multiInstance: false });
      const n = await db.transactions.count().exec();
      await db.close();
      return n;
    };
    await service.codeTransactions([rows[0]!.id], { memo: 'unsent' });
    await service.setOnline(false);
    await service.signOut();
    expect(await service.session()).toBeNull();
    expect((await service.status()).phase).toBe('signed_out');
    expect(await service.queryTransactions({ filter: {}, sort: 'occurred_desc', offset: 0, limit: 1 })).toMatchObject({ total: 0 });
    expect(await count()).toBe(300);

    await service.signIn(USER.email, 'demo-password-1');
    expect(await service.getTransaction(rows[0]!.id)).toMatchObject({ memo: 'unsent', pending: 'pending' });
    await service.discardCommand((await service.outbox())[0]!.id);
    await service.signOut();
    expect(await count()).toBe(0);
  });

  it('retries a refused edit from any tab: the entry is pending again and the row shows it', async () => {
    const { service, rows, idb, make } = await signedIn();
    const res = await service.codeTransactions([rows[4]!.id], { memo: 'second try' });
    if (!res.ok) throw new Error('coding failed');
    // What the leader's outbox records for a 4xx (written here straight to the shared store).
    const db = await openMirrorDatabase({ name: DB_NAME, storage: mirrorStorage({ indexedDB: idb, IDBKeyRange }), multiInstance: false });
    const store = new RxOutboxStore(db);
    const sent = transition((await store.get(res.command_id))!, { type: 'send' }, Date.now());
    await store.put(transition(sent, { type: 'rejected', error: { message: 'GL account is inactive', error_code: 'REQUEST_7001' } }, Date.now()));
    await db.close();

    await service.dispose();
    const reloaded = make();
    await reloaded.init({ baseUrl: 'http://api.test' });
    expect(await reloaded.getTransaction(rows[4]!.id)).toMatchObject({
      memo: rows[4]!.memo,
      pending: 'failed',
      failure: { command_id: res.command_id, message: 'GL account is inactive' },
    });
    await reloaded.retryCommand(res.command_id);
    await flush(); // the outbox change event reaches the index on a later turn
    expect(await reloaded.getTransaction(rows[4]!.id)).toMatchObject({ memo: 'second try', pending: 'pending', failure: null });
    const [entry] = await reloaded.outbox();
    expect(entry).toMatchObject({ state: 'pending' });
    expect(entry!.idempotency_key).not.toBe(res.command_id);
  });

  it('a step-up retries every command the outbox parked as needs_step_up, keeping its key', async () => {
    const { service, rows, idb, make } = await signedIn();
    const res = await service.codeTransactions([rows[5]!.id], { memo: 'sensitive edit' });
    if (!res.ok) throw new Error('coding failed');
    // What the leader's outbox records when the scope gate parks a command.
    const db = await openMirrorDatabase({ name: DB_NAME, storage: mirrorStorage({ indexedDB: idb, IDBKeyRange }), multiInstance: false });
    const store = new RxOutboxStore(db);
    const sending = transition((await store.get(res.command_id))!, { type: 'send' }, Date.now());
    const parked = transition(sending, { type: 'step_up', scope: 'sensitive', error: errorBody('AUTH_7016').error_v2 }, Date.now());
    await store.put(parked);
    await db.close();

    await service.dispose();
    const reloaded = make();
    await reloaded.init({ baseUrl: 'http://api.test' });
    await expect.poll(async () => (await reloaded.outbox())[0]?.state).toBe('needs_step_up');
    expect(await reloaded.stepUp({ password: 'demo-password-1' })).toEqual({ ok: true });
    await expect.poll(async () => (await reloaded.outbox())[0]?.state).toBe('pending');
    expect((await reloaded.outbox())[0]?.idempotency_key ?? res.command_id).toBe(res.command_id);
  });
});

