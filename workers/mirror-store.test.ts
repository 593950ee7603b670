import { afterEach, describe, expect, it } from 'vitest';
import type { Change } from '../schema/sync-feed.ts';
import type { Transaction } from '../schema/entities/transaction.ts';
import type { OutboxEntry } from '../sync/ports.ts';
import { createOutboxEntry, transition } from '../sync/outbox-machine.ts';
import type { MirrorDatabase } from './db.ts';
import { getDocs } from './bulk-write.ts';
import { OutboxIndex } from './outbox-index.ts';
import { LEAD_ROWS, RxMirrorStore } from './mirror-store.ts';
import { serverRow, showRow } from './collections/transactions.ts';
import { refKey } from './db.ts';
import { makeDepartment, makeTransaction, makeTransactions, openTestDatabase, testUuid } from './test-fixtures.ts';

const txnChange = (t: Transaction): Change => ({ collection: 'transactions', seq: t.change_seq, id: t.id, deleted: false, doc: t });
const GL = testUuid(5, 1);

let db: MirrorDatabase | null = null;
afterEach(async () => {
  await db?.close();
  db = null;
});

async function setup() {
  db = await openTestDatabase();
  const index = new OutboxIndex();
  const invalid: string[] = [];
  const store = new RxMirrorStore(db, index, { onInvalidRow: (_c, id) => invalid.push(id) });
  return { db, index, store, invalid };
}

const stored = async (d: MirrorDatabase, id: string) => (await getDocs(d.transactions, [id])).get(id);

function codeEntry(ids: string[], patch: Record<string, unknown>, n = 1): OutboxEntry {
  return ids.length === 1
    ? createOutboxEntry({ id: testUuid(9, n), command: 'transaction.code', args: { transaction_id: ids[0], patch }, now: 1000 + n })
    : createOutboxEntry({ id: testUuid(9, n), command: 'transaction.bulkCode', args: { transaction_ids: ids, patch }, now: 1000 + n });
}

describe('RxMirrorStore.applyChanges', () => {
  it('writes rows of several collections, then the checkpoint; tombstones remove', async () => {
    const { db, store } = await setup();
    const rows = makeTransactions(1200, 5);
    const dept = makeDepartment(1, 'Engineering');
    await store.applyChanges(
      [...rows.map(txnChange), { collection: 'departments', seq: 2000, id: dept.id, deleted: false, doc: dept }],
      { seq: 2000, epoch: 'e1' },
    );
    expect(await db.transactions.count().exec()).toBe(1200);
    expect((await getDocs(db.refs, [refKey('departments', dept.id)])).get(refKey('departments', dept.id))?.row).toMatchObject({ id: dept.id, name: 'Engineering' });
    expect(await store.getCheckpoint()).toEqual({ seq: 2000, epoch: 'e1' });
    // The first mirror's progress and completion are stored with the checkpoint.
    await store.applyChanges([], { seq: 2000, epoch: 'e1', mirrored: false, first: { loaded: 1201, total: 5000 } });
    expect(await store.getCheckpoint()).toEqual({ seq: 2000, epoch: 'e1', first: { loaded: 1201, total: 5000 } });
    await store.applyChanges([], { seq: 2000, epoch: 'e1', mirrored: true });
    expect(await store.getCheckpoint()).toEqual({ seq: 2000, epoch: 'e1', mirrored: true });
    const first = await stored(db, rows[0]!.id);
    expect(first?.occurred_desc).toBe(-Date.parse(rows[0]!.occurred_at));

    await store.applyChanges([{ collection: 'transactions', seq: 2001, id: rows[0]!.id, deleted: true, doc: null }], { seq: 2001, epoch: 'e1' });
    expect(await stored(db, rows[0]!.id)).toBeUndefined();
    expect(await db.transactions.count().exec()).toBe(1199);
  });

  it('stores a first mirror\'s first batch up to its newest transactions (the reference rows before them included) in a write of their own, ahead of the rest; later batches in one', async () => {
    const { db, store } = await setup();
    const rows = makeTransactions(LEAD_ROWS + 50, 5);
    const dept = makeDepartment(1, 'Engineering');
    const bulks: string[][] = [];
    const sub = db.transactions.eventBulks$.subscribe((b) => bulks.push(b.events.map((e) => e.documentId)));
    // Which writes happened in which order: the department (a name the rows show) goes with the lead, not after it.
    const order: string[] = [];
    const watchTxns = db.transactions.eventBulks$.subscribe((b) => order.push(`transactions ${b.events.length}`));
    const watchRefs = db.refs.eventBulks$.subscribe((b) => order.push(`refs ${b.events.length}`));
    const changes = [{ collection: 'departments', seq: 9000, id: dept.id, deleted: false, doc: dept } as Change, ...rows.map(txnChange)];
    const first = { seq: 0, epoch: 'e1', mirrored: false, first: { loaded: changes.length, total: 5000 }, backfill: { top: 9000, stage: 'queried' as const, before: 1 } };
    await store.applyChanges(changes, first);
    expect(bulks.map((b) => b.length)).toEqual([LEAD_ROWS, 50]);
    expect(bulks[0]).toEqual(rows.slice(0, LEAD_ROWS).map((r) => r.id));
    expect(order.indexOf('refs 1')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('refs 1')).toBeLessThan(order.indexOf('transactions 50'));
    watchTxns.unsubscribe();
    watchRefs.unsubscribe();
    expect(await db.transactions.count().exec()).toBe(LEAD_ROWS + 50);
    expect((await store.getCheckpoint()).first).toEqual({ loaded: changes.length, total: 5000 });
    // The next batch of the walk is stored in one write.
    bulks.length = 0;
    const more = makeTransactions(LEAD_ROWS + 50, 7).map(txnChange);
    await store.applyChanges(more, { ...first, first: { loaded: changes.length + more.length, total: 5000 } });
    expect(bulks.map((b) => b.length)).toEqual([LEAD_ROWS + 50]);
    sub.unsubscribe();
  });

  it('is idempotent: applying the same batch again (a crash before the checkpoint) changes nothing', async () => {
    const { db, store } = await setup();
    const rows = makeTransactions(50, 2);
    const batch = [...rows.map(txnChange), { collection: 'transactions' as const, seq: 60, id: rows[1]!.id, deleted: true, doc: null }];
    await store.applyChanges(batch, { seq: 60, epoch: 'e' });
    const updated = { ...rows[0]!, memo: 'server memo', change_seq: 61 };
    await store.applyChanges([...batch, txnChange(updated)], { seq: 61, epoch: 'e' });
    await store.applyChanges([...batch, txnChange(updated)], { seq: 61, epoch: 'e' });
    expect(await db.transactions.count().exec()).toBe(49);
    expect((await stored(db, rows[0]!.id))?.memo).toBe('server memo');
  });

  it('skips rows that fail their schema or carry another id, and never pollutes prototypes', async () => {
    const { db, store, invalid } = await setup();
    const good = makeTransaction({ id: testUuid(1, 1) });
    const hostile = JSON.parse(`{"__proto__": {"polluted": true}, ${JSON.stringify(makeTransaction({ id: testUuid(1, 2), tracking: {} })).slice(1)}`);
    hostile.tracking = JSON.parse('{"__proto__": {"polluted": true}}');
    const changes: Change[] = [
      txnChange(good),
      { collection: 'transactions', seq: 2, id: testUuid(1, 2), deleted: false, doc: hostile },
      { collection: 'transactions', seq: 3, id: testUuid(1, 3), deleted: false, doc: { ...good, id: testUuid(1, 3), amount: 'ten' } },
      { collection: 'transactions', seq: 4, id: testUuid(1, 4), deleted: false, doc: { ...good } },
    ];
    await store.applyChanges(changes, { seq: 4, epoch: 'e' });
    expect(invalid).toEqual([testUuid(1, 3), testUuid(1, 4)]);
    expect(await db.transactions.count().exec()).toBe(2);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const row = await stored(db, testUuid(1, 2));
    expect(Object.getPrototypeOf(row?.tracking)).toBe(Object.prototype);
  });
});

describe('RxMirrorStore and optimistic rows', () => {
  async function withPending() {
    const ctx = await setup();
    const overlay: string[][] = [];
    const collections = new Set<string>();
    const store = new RxMirrorStore(ctx.db, ctx.index, {
      onOverlayChanged: (refs) => (collections.add(refs.collection), overlay.push([...refs.ids])),
    });
    const rows = makeTransactions(20, 3).map((r) => ({ ...r, gl_account_id: null, memo: 'server' }));
    await store.applyChanges(rows.map(txnChange), { seq: 20, epoch: 'e' });
    const entry = codeEntry([rows[0]!.id, rows[1]!.id], { gl_account_id: GL, memo: 'mine' });
    ctx.index.put(entry);
    const shown = async (id: string) => showRow(ctx.index, (await stored(ctx.db, id))!);
    return { ...ctx, store, overlay, collections, rows, entry, shown };
  }

  it('stores only the server version; the command is applied over it when read', async () => {
    const { db, rows, shown } = await withPending();
    expect(serverRow((await stored(db, rows[0]!.id))!)).toEqual(rows[0]);
    const row = await shown(rows[0]!.id);
    expect(row).toMatchObject({ gl_account_id: GL, memo: 'mine' });
    expect(row.server).toEqual(rows[0]);
  });

  it('rebases a newer server row under the pending command', async () => {
    const { store, rows, shown } = await withPending();
    const newer = { ...rows[0]!, amount: 777, memo: 'server 2', change_seq: 30 };
    await store.applyChanges([txnChange(newer)], { seq: 30, epoch: 'e' });
    const row = await shown(rows[0]!.id);
    expect(row).toMatchObject({ amount: 777, memo: 'mine', gl_account_id: GL });
    expect(row.server).toEqual(newer);
  });

  it('rolls back to exactly the server version and re-applies on retry', async () => {
    const { store, index, rows, entry, shown, overlay, collections } = await withPending();
    const failed = transition(transition(entry, { type: 'send' }, 2000), { type: 'rejected', error: { message: 'No', error_code: 'REQUEST_7001' } }, 2001);
    await store.rollback(failed);
    index.put(failed);
    expect(overlay).toEqual([entry.entity_ids]);
    expect([...collections]).toEqual(['transactions']);
    const row = await shown(rows[0]!.id);
    expect(serverRow(row)).toEqual(rows[0]);
    expect(row.server).toBeUndefined();
    index.put(transition(failed, { type: 'retry', newKey: testUuid(9, 99) }, 2002));
    expect(await shown(rows[0]!.id)).toMatchObject({ memo: 'mine' });
  });

  it('takes one command off and keeps a later one on top of the server row', async () => {
    const { index, rows, entry, shown } = await withPending();
    index.put(codeEntry([rows[0]!.id], { department_id: testUuid(3, 1) }, 2));
    index.remove(entry.id);
    expect(await shown(rows[0]!.id)).toMatchObject({ memo: 'server', gl_account_id: null, department_id: testUuid(3, 1) });
  });

  it('confirms a single command by storing the row the server returned', async () => {
    const { db, store, index, rows } = await withPending();
    const single = codeEntry([rows[5]!.id], { memo: 'solo' }, 3);
    index.put(single);
    const returned = { ...rows[5]!, memo: 'solo', change_seq: 50, updated_at: '2026-02-01T00:00:00.000Z' };
    await store.confirm({ ...single, state: 'done' }, returned);
    expect(serverRow((await stored(db, rows[5]!.id))!)).toEqual(returned);
  });

  it('keeps a confirmed answer over an older version of the row the feed delivers after it (a batch read before the write committed)', async () => {
    const { db, store, index, rows, shown } = await withPending();
    const single = codeEntry([rows[6]!.id], { memo: 'fixed' }, 4);
    index.put(single);
    const returned = { ...rows[6]!, memo: 'fixed', change_seq: 50 };
    await store.confirm({ ...single, state: 'done' }, returned);
    index.remove(single.id);
    // The feed's batch through seq 45 (its row of seq 45 has no memo yet) lands after the answer.
    await store.applyChanges([txnChange({ ...rows[6]!, memo: null, change_seq: 45 }), txnChange({ ...rows[8]!, memo: 'other', change_seq: 44 })], { seq: 45, epoch: 'e' });
    expect(await shown(rows[6]!.id)).toMatchObject({ memo: 'fixed', change_seq: 50 });
    expect((await stored(db, rows[8]!.id))?.memo).toBe('other');
    // Once the feed has passed the answer's seq, its rows are stored again as they come.
    await store.applyChanges([txnChange({ ...rows[6]!, memo: 'fixed', change_seq: 50 })], { seq: 50, epoch: 'e' });
    await store.applyChanges([txnChange({ ...rows[6]!, memo: 'later', change_seq: 51 })], { seq: 51, epoch: 'e' });
    expect((await stored(db, rows[6]!.id))?.memo).toBe('later');
  });

  it('keeps a confirmed bulk command applied until the feed delivers its seq', async () => {
    const { store, index, rows, entry, shown, overlay, collections } = await withPending();
    await store.confirm({ ...entry, state: 'done' }, { updated: 2, change_seq: 40 });
    index.remove(entry.id);
    expect(await shown(rows[1]!.id)).toMatchObject({ memo: 'mine', gl_account_id: GL });
    await store.applyChanges([txnChange({ ...rows[7]!, change_seq: 39 })], { seq: 39, epoch: 'e' });
    expect(await shown(rows[1]!.id)).toMatchObject({ memo: 'mine' });
    const delivered = rows.slice(0, 2).map((r, i) => ({ ...r, gl_account_id: GL, memo: 'mine', change_seq: 39 + i }));
    await store.applyChanges(delivered.map(txnChange), { seq: 40, epoch: 'e' });
    expect(overlay.at(-1)).toEqual(entry.entity_ids);
    expect([...collections]).toEqual(['transactions']);
    const row = await shown(rows[1]!.id);
    expect(serverRow(row)).toEqual(delivered[1]);
    expect(row.server).toBeUndefined();
  });

  it('stores the first mirror\'s walk cursor with the batch, reads it back after a reload, and forgets it once the walk ends', async () => {
    const { db, store } = await setup();
    const rows = makeTransactions(3, 7);
    const backfill = { top: 900, stage: 'queried' as const, before: 880 };
    await store.applyChanges(rows.map(txnChange), { seq: 0, epoch: 'e1', mirrored: false, first: { loaded: 3, total: 50 }, backfill });
    // A reload: a new store over the same database resumes the walk where it was.
    const reloaded = new RxMirrorStore(db, new OutboxIndex());
    expect(await reloaded.getCheckpoint()).toEqual({ seq: 0, epoch: 'e1', first: { loaded: 3, total: 50 }, backfill });
    await reloaded.applyChanges([], { seq: 900, epoch: 'e1', mirrored: false, first: { loaded: 3, total: 50 } });
    expect(await reloaded.getCheckpoint()).toEqual({ seq: 900, epoch: 'e1', first: { loaded: 3, total: 50 } });
    // An unreadable cursor is none: the walk starts again from the top (rows are upserts, nothing breaks).
    await db.meta.upsert({ id: 'checkpoint', value: { seq: 0, epoch: 'e1', backfill: { top: 'x' } } });
    expect(await reloaded.getCheckpoint()).toEqual({ seq: 0, epoch: 'e1' });
  });

  it('reset drops every mirrored row and the checkpoint (the first mirror is to be made again)', async () => {
    const { db, store } = await withPending();
    await store.applyChanges([], { seq: 41, epoch: 'e', mirrored: true });
    await store.reset();
    expect(await db.transactions.count().exec()).toBe(0);
    expect(await store.getCheckpoint()).toEqual({ seq: 0, epoch: null });
  });
});
