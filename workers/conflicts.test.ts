import { describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { errorBody, type ErrorV2 } from '../schema/errors.ts';
import type { Change } from '../schema/sync-feed.ts';
import type { Transaction } from '../schema/entities/transaction.ts';
import { transition } from '../sync/outbox-machine.ts';
import type { Transport } from '../sync/ports.ts';
import { fakeToken, jsonResponse } from '../sync/testing.ts';
import { mirrorStorage, openMirrorDatabase } from './db.ts';
import { RxOutboxStore } from './outbox-store.ts';
import { SessionStore } from './session-store.ts';
import { makeTransaction, seedMirrorDb, signedInAdmin, testUuid } from './test-fixtures.ts';
import { signedInWorker, testDevice } from './testing/signed-in-worker.ts';
import { mirrorDevice, outboxOver } from './testing/mirror-device.ts';

/**
 * Issue 24 (no silent overwrite), the worker's side: an edit carries the version of the row it
 * was made against (If-Match) and the device's id; a 409 CONFLICT keeps the server's details on
 * the entry (across a reload), rolls the edit back and holds no younger edit; the conflict
 * drawer's choice is one new command with If-Match = the conflict's current_version (Keep mine)
 * or nothing at all (Keep theirs), and the conflicted entry is resolved exactly once.
 */
const ACTOR = { user_id: testUuid(2, 1), business_id: testUuid(0xb, 1) };
const TXN = testUuid(1, 1);
const GL_NEW = testUuid(5, 7);
const DEVICE = '6f1c1f6e-3b7a-4d2b-9c57-0d6b3c1f7a10';
const ALEX = { user_id: testUuid(2, 9), name: 'Alex Kim' };

function device(name: string) {
  const idb = new IDBFactory();
  return { idb, open: mirrorDevice(name, ACTOR, idb) };
}

const put = (doc: Transaction): Change => ({ collection: 'transactions', seq: doc.change_seq, id: doc.id, deleted: false, doc });

const conflict409 = (fields: { field: string; server_value: unknown; your_value: unknown }[], current: number): ErrorV2 => ({
  error_v2: {
    ...errorBody('CONFLICT').error_v2,
    conflicts: fields.map((f) => ({ ...f, changed_by: ALEX, changed_at: '2026-11-28T14:02:00.000Z' })),
    current_version: current,
  },
});

describe('an edit carries its base version', () => {
  it('If-Match is the mirror row’s change_seq, the same for two queued edits of the row (not bumped by the first’s confirm); the device header is constant', async () => {
    const { open } = device('conflict-base');
    const rt = await open();
    const row = makeTransaction({ id: TXN, change_seq: 41, memo: 'Lunch' });
    await rt.mirror.applyChanges([put(row)], { seq: 41, epoch: 'e' });

    await rt.commands.run('transaction.code', { transaction_id: TXN, patch: { memo: 'Team lunch' } });
    await rt.commands.run('transaction.code', { transaction_id: TXN, patch: { gl_account_id: GL_NEW } });
    expect(rt.outboxIndex.entries().map((e) => e.base_seq)).toEqual([41, 41]);

    const net = outboxOver(rt, [
      jsonResponse(200, { ...row, memo: 'Team lunch', change_seq: 42 }),
      jsonResponse(200, { ...row, memo: 'Team lunch', gl_account_id: GL_NEW, change_seq: 43 }),
    ], { device: () => DEVICE });
    net.outbox.kick();
    await net.outbox.whenIdle();
    expect(net.transport.requests.map((r) => [r.method, r.headers['if-match'], r.headers['x-ledgerline-device']])).toEqual([
      ['PATCH', '"41"', DEVICE],
      ['PATCH', '"41"', DEVICE],
    ]);
    // A command queued after the confirm is made against the row the server answered.
    await rt.commands.run('transaction.code', { transaction_id: TXN, patch: { memo: 'Client lunch' } });
    expect(rt.outboxIndex.entries().at(-1)?.base_seq).toBe(43);
  });

  it('an entry stored without a base (before issue 24, or a create) is sent without If-Match', async () => {
    const { open } = device('conflict-nobase');
    const rt = await open();
    const row = makeTransaction({ id: TXN, change_seq: 5 });
    await rt.mirror.applyChanges([put(row)], { seq: 5, epoch: 'e' });
    await rt.commands.run('transaction.code', { transaction_id: TXN, patch: { memo: 'x' } });
    const [entry] = rt.outboxIndex.entries();
    const { base_seq, ...old } = entry!;
    expect(base_seq).toBe(5);
    await rt.outboxStore.put(old);
    const net = outboxOver(rt, [jsonResponse(200, { ...row, memo: 'x', change_seq: 6 })], { device: () => DEVICE });
    net.outbox.kick();
    await net.outbox.whenIdle();
    expect(net.transport.requests[0]!.headers['if-match']).toBeUndefined();
  });
});

describe('a 409 CONFLICT', () => {
  it('puts the entry in conflict with the server’s details (kept across a reload), rolls it back, and lets a younger edit of another field go', async () => {
    const { open } = device('conflict-409');
    const rt = await open();
    const row = makeTransaction({ id: TXN, change_seq: 10, memo: 'Lunch' });
    await rt.mirror.applyChanges([put(row)], { seq: 10, epoch: 'e' });
    await rt.commands.run('transaction.code', { transaction_id: TXN, patch: { memo: 'Mine' } });
    await rt.commands.run('transaction.code', { transaction_id: TXN, patch: { gl_account_id: GL_NEW } });
    expect(await rt.get('transactions', TXN)).toMatchObject({ memo: 'Mine', gl_account_id: GL_NEW, pending: 'pending' });

    const body = conflict409([{ field: 'memo', server_value: 'Theirs', your_value: 'Mine' }], 12);
    const net = outboxOver(rt, [
      jsonResponse(409, body),
      jsonResponse(200, { ...row, memo: 'Theirs', gl_account_id: GL_NEW, change_seq: 13 }),
    ], { device: () => DEVICE });
    net.outbox.kick();
    await net.outbox.whenIdle();
    // Both were sent: the conflict held nothing back.
    expect(net.transport.requests.map((r) => r.body)).toEqual([{ memo: 'Mine' }, { gl_account_id: GL_NEW }]);
    const [left] = rt.outboxIndex.entries();
    expect(left).toMatchObject({ state: 'conflict', base_seq: 10, last_error: body.error_v2 });
    const shown = await rt.get('transactions', TXN);
    expect(shown).toMatchObject({ memo: 'Theirs', gl_account_id: GL_NEW, pending: 'conflict', failure: { command_id: left!.id, conflict: true } });
    await rt.close();

    const again = await open();
    expect(again.outboxIndex.entries()).toEqual([expect.objectContaining({ id: left!.id, state: 'conflict', last_error: body.error_v2 })]);
    expect(await again.get('transactions', TXN)).toMatchObject({ memo: 'Theirs', failure: { conflict: true } });
  });

  it('another 409 (not CONFLICT) still holds younger edits of the row', async () => {
    const { open } = device('conflict-other409');
    const rt = await open();
    const row = makeTransaction({ id: TXN, change_seq: 10 });
    await rt.mirror.applyChanges([put(row)], { seq: 10, epoch: 'e' });
    await rt.commands.run('transaction.code', { transaction_id: TXN, patch: { memo: 'a' } });
    await rt.commands.run('transaction.code', { transaction_id: TXN, patch: { memo: 'b' } });
    const net = outboxOver(rt, [jsonResponse(409, errorBody('ACCOUNTING_7301'))], { device: () => DEVICE });
    net.outbox.kick();
    await net.outbox.whenIdle();
    expect(net.transport.requests).toHaveLength(1);
    expect(rt.outboxIndex.entries().map((e) => e.state)).toEqual(['conflict', 'pending']);
  });
});

describe('resolving a conflict (DataApi.resolveConflict)', () => {
  const { user, business, identity, dbName } = signedInAdmin();
  const transport: Transport = async (input) => {
    const url = new URL(String(input));
    if (url.pathname === '/v1/public/sign-in') return jsonResponse(200, { id_token: fakeToken(['default']), mfa_required: false });
    if (url.pathname === '/v1/auth/identity') return jsonResponse(200, { identity, user, business });
    if (url.pathname === '/v1/auth/feature_flags') return jsonResponse(200, { flags: {} });
    return jsonResponse(404, errorBody('REQUEST_7004'));
  };

  /** A device whose mirror holds the row (memo 'Theirs' at seq 12) and one conflicted edit (memo and location mine, memo in conflict). */
  async function conflicted() {
    const idb = new IDBFactory();
    const [seeded] = await seedMirrorDb(idb, dbName, [makeTransaction({ id: TXN, change_seq: 12, memo: 'Theirs' })], 'Meals');
    const db = await openMirrorDatabase({ name: dbName, storage: mirrorStorage({ indexedDB: idb, IDBKeyRange }), multiInstance: false });
    const id = testUuid(0xc, 1);
    const location = testUuid(6, 3);
    const queued = { id, command: 'transaction.code' as const, args: { transaction_id: TXN, patch: { memo: 'Mine', location_id: location } }, entity_ids: [TXN],
      created_at: 1, attempts: 1, state: 'sending' as const, not_before: 0, maybe_sent: false, last_error: null, step_up_scope: null, base_seq: 10 };
    const refused = transition(queued, { type: 'conflict', error: conflict409([{ field: 'memo', server_value: 'Theirs', your_value: 'Mine' }], 12).error_v2 }, 2);
    await new RxOutboxStore(db).put(refused);
    await db.close();
    const dev = testDevice({ transport, idb });
    const service = dev.make();
    await service.init({ baseUrl: 'http://api.test' });
    await service.signIn(user.email, 'demo-password-1');
    return { service, id, location, seeded: seeded! };
  }

  it('Keep mine queues exactly one command (the kept memo and the unnamed field) with If-Match = current_version, and the conflict is gone', async () => {
    const { service, id, location } = await conflicted();
    expect(await service.get('transactions', TXN)).toMatchObject({ memo: 'Theirs', location_id: null, failure: { command_id: id, conflict: true } });
    const [first, second] = await Promise.all([service.resolveConflict(id, { memo: 'mine' }), service.resolveConflict(id, { memo: 'mine' })]);
    expect(first).toMatchObject({ ok: true, queued: expect.any(String) });
    expect(second).toMatchObject({ ok: false, error: { error_code: 'REQUEST_7004' } });
    const outbox = await service.outbox();
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({
      id: first.ok ? first.queued : '', command: 'transaction.code', state: 'pending', base_seq: 12,
      args: { transaction_id: TXN, patch: { memo: 'Mine', location_id: location } },
    });
    // The optimistic view: mine on top of the server's row, pending, no failure.
    expect(await service.get('transactions', TXN)).toMatchObject({ memo: 'Mine', location_id: location, pending: 'pending', failure: null });
    expect(await service.resolveConflict(id, { memo: 'mine' })).toMatchObject({ ok: false });
  });

  it('Keep theirs re-queues only what was not in conflict; theirs with nothing else left sends nothing', async () => {
    const { service, id, location } = await conflicted();
    expect(await service.resolveConflict(id, { memo: 'theirs' })).toMatchObject({ ok: true, queued: expect.any(String) });
    const [only] = await service.outbox();
    expect(only).toMatchObject({ base_seq: 12, args: { patch: { location_id: location } } });
    expect((only!.args as { patch: object }).patch).not.toHaveProperty('memo');
    expect(await service.get('transactions', TXN)).toMatchObject({ memo: 'Theirs', location_id: location, pending: 'pending' });
  });

  it('Keep theirs on every field of a memo-only edit drops the entry: nothing queued, the server’s row shows', async () => {
    const idb = new IDBFactory();
    await seedMirrorDb(idb, dbName, [makeTransaction({ id: TXN, change_seq: 12, memo: 'Theirs' })], 'Meals');
    const db = await openMirrorDatabase({ name: dbName, storage: mirrorStorage({ indexedDB: idb, IDBKeyRange }), multiInstance: false });
    const id = testUuid(0xc, 2);
    await new RxOutboxStore(db).put({
      id, command: 'transaction.code', args: { transaction_id: TXN, patch: { memo: 'Mine' } }, entity_ids: [TXN], created_at: 1, attempts: 1,
      state: 'conflict', not_before: 0, maybe_sent: false, step_up_scope: null, base_seq: 10,
      last_error: conflict409([{ field: 'memo', server_value: 'Theirs', your_value: 'Mine' }], 12).error_v2,
    });
    await db.close();
    const service = testDevice({ transport, idb }).make();
    await service.init({ baseUrl: 'http://api.test' });
    await service.signIn(user.email, 'demo-password-1');
    expect(await service.resolveConflict(id, { memo: 'theirs' })).toEqual({ ok: true, queued: null });
    expect(await service.outbox()).toEqual([]);
    expect(await service.get('transactions', TXN)).toMatchObject({ memo: 'Theirs', pending: null, failure: null });
  });
});

describe('the device id', () => {
  it('is made once per browser profile and kept (every tab, every reload)', async () => {
    const idb = new IDBFactory();
    const a = new SessionStore({ indexedDB: idb, IDBKeyRange });
    const b = new SessionStore({ indexedDB: idb, IDBKeyRange });
    const [x, y] = await Promise.all([a.deviceId(), b.deviceId()]);
    expect(x).toMatch(/^[0-9a-f-]{36}$/);
    expect(y).toBe(x);
    await a.clear();
    expect(await new SessionStore({ indexedDB: idb, IDBKeyRange }).deviceId()).toBe(x);
  });
});

describe('vendors and people (direct calls)', () => {
  const VENDOR = testUuid(0xe, 1);
  const PERSON = testUuid(2, 5);

  it('send If-Match with the version the UI showed and the device id; a 409 CONFLICT comes back with its details', async () => {
    const conflict = conflict409([{ field: 'email', server_value: 'ap@theirs.test', your_value: 'ap@mine.test' }], 31);
    const { service, sent } = await signedInWorker({
      calls: /^\/v1\/auth\/(vendors|businesses\/users)\//,
      record: (req) => `${req.method} ${req.path} ${req.headers.get('if-match')} ${req.headers.get('x-ledgerline-device') ? 'device' : 'none'}`,
      route: () => jsonResponse(409, conflict),
    });
    const vendor = await service.updateVendor(VENDOR, { email: 'ap@mine.test' }, 30);
    expect(vendor).toMatchObject({ ok: false, error: { error_code: 'CONFLICT', current_version: 31, conflicts: [{ field: 'email', changed_by: ALEX }] } });
    const person = await service.updateUser(PERSON, { department_id: null }, 7);
    expect(person).toMatchObject({ ok: false, error: { error_code: 'CONFLICT' } });
    expect(sent).toEqual([`PATCH /v1/auth/vendors/${VENDOR} "30" device`, `PATCH /v1/auth/businesses/users/${PERSON} "7" device`]);
  });
});
