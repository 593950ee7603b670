import { afterEach, describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { Change, MirroredCollection } from '../schema/sync-feed.ts';
import { compareTransactions } from '../schema/transaction-query.ts';
import { aggregateReport } from '../schema/reports.ts';
import { mirrorStorage } from './db.ts';
import { MirrorRuntime } from './mirror-runtime.ts';
import { reportHandlers } from './handlers/reports.ts';
import type { WorkerContext } from './worker-context.ts';
import { makeTransactions, makeUser, testUuid } from './test-fixtures.ts';

/**
 * Issue 33, row bodies out of the heap: the mirror's transactions engine keeps columns and at
 * most `bodies` bodies (a runtime option: BODIES here; plus those with outbox entries); pages, the drawer, commands,
 * reports and reference renames read the rest back from IndexedDB. A mirror larger than the LRU
 * exercises every one of those paths.
 */
const runtimes: MirrorRuntime[] = [];
afterEach(async () => {
  for (const rt of runtimes.splice(0)) await rt.close();
});

/** The runtime's LRU here (the browser's is sized by memory: `transactionBodies()`). */
const BODIES = 500;
const N = BODIES * 2 + 100;
const put = (collection: MirroredCollection, doc: { id: string }, seq: number): Change => ({ collection, seq, id: doc.id, deleted: false, doc });

async function mirror(actor?: { user_id: string; business_id: string }) {
  const idb = new IDBFactory();
  const rt = await MirrorRuntime.open({ name: 'bodies-test', storage: mirrorStorage({ indexedDB: idb, IDBKeyRange }), multiInstance: false, defer: (fn) => fn(), actor, bodies: BODIES });
  runtimes.push(rt);
  const rows = makeTransactions(N, 12, { users: 3 });
  const users = [makeUser(1, 'Ada', 'Lovelace'), makeUser(2, 'Grace', 'Hopper'), makeUser(3, 'Alan', 'Turing')];
  await rt.ready;
  await rt.mirror.applyChanges([...users.map((u, i) => put('users', u, i + 1)), ...rows.map((t, i) => put('transactions', t, users.length + i + 1))], { seq: N + 3, epoch: 'e' });
  await expect.poll(() => rt.engines.transactions.size).toBe(N);
  return { rt, rows, users };
}

const newest = (rows: { id: string; occurred_at: string; amount: number; merchant_name: string }[]) => [...rows].sort(compareTransactions('occurred_desc' as never) as never);

describe('the transactions engine keeps columns and an LRU of bodies, reading the rest from IndexedDB', () => {
  it('answers every page as shown, holding no more bodies than its LRU', async () => {
    const { rt, rows } = await mirror();
    const engine = rt.engines.transactions;
    expect(engine.keepsBodies).toBe(false);
    const order = newest(rows).map((r) => r.id);
    for (const offset of [0, 600, N - 50]) {
      const page = await rt.queryTransactions({ filter: {}, sort: 'occurred_desc', offset, limit: 50 });
      expect(page.total).toBe(N);
      expect(page.rows.map((r) => r.id)).toEqual(order.slice(offset, offset + 50));
      for (const row of page.rows) expect(row).toMatchObject({ ...rows.find((r) => r.id === row.id), pending: null });
    }
    expect(engine.bodiesInMemory).toBeLessThanOrEqual(BODIES);
    // The drawer's row, not in memory, is read back (and then held in the LRU).
    const gone = order.find((id) => engine.get(id) === undefined)!;
    expect(await rt.get('transactions', gone)).toMatchObject({ ...rows.find((r) => r.id === gone), pending: null });
    expect(engine.get(gone)).toBeDefined();
  });

  it("keeps the signed-in person's own rows in memory (the missing items read them all on every change), the rest in the LRU", async () => {
    const owner = makeTransactions(1, 12, { users: 3 })[0]!;
    const { rt, rows } = await mirror({ user_id: owner.user_id, business_id: owner.business_id });
    const engine = rt.engines.transactions;
    const own = rows.filter((r) => r.user_id === owner.user_id);
    expect(own.length).toBeGreaterThan(100);
    expect(own.length).toBeLessThan(N / 2);
    // Paging through every row evicts what the LRU can: never the person's own rows.
    for (let offset = 0; offset < N; offset += 100) await rt.queryTransactions({ filter: {}, sort: 'amount_desc', offset, limit: 100 });
    for (const r of own) expect(engine.get(r.id)?.id).toBe(r.id);
    const others = rows.filter((r) => r.user_id !== owner.user_id);
    expect(others.filter((r) => engine.get(r.id) !== undefined).length).toBeLessThanOrEqual(BODIES);
    expect(engine.bodiesInMemory).toBeLessThanOrEqual(BODIES + own.length);
  });

  it('codes rows whose bodies were evicted: checks pass, filters and totals follow at once, the rows stay held while pending', async () => {
    const { rt, rows } = await mirror();
    const engine = rt.engines.transactions;
    const uncoded = rows.filter((r) => r.gl_account_id === null).slice(0, 40);
    expect(uncoded.filter((r) => engine.get(r.id) === undefined).length).toBeGreaterThan(10);
    const before = (await rt.queryTransactions({ filter: { missing_coding: true }, sort: 'occurred_desc', offset: 0, limit: 1 })).total;
    const gl = testUuid(5, 9);
    const { result } = await rt.commands.run('transaction.bulkCode', { transaction_ids: uncoded.map((r) => r.id), patch: { gl_account_id: gl } });
    expect(result.ok).toBe(true);
    expect((await rt.queryTransactions({ filter: { missing_coding: true }, sort: 'occurred_desc', offset: 0, limit: 1 })).total).toBe(before - 40);
    const coded = await rt.queryTransactions({ filter: { gl_account_ids: [gl] }, sort: 'occurred_desc', offset: 0, limit: 100 });
    expect(coded.rows.map((r) => r.id).sort()).toEqual(uncoded.map((r) => r.id).sort());
    expect(coded.rows.every((r) => r.pending === 'pending' && r.gl_account_id === gl)).toBe(true);
    // Paging through everything evicts what it can, never a row with a command on it.
    for (let offset = 0; offset < N; offset += 100) await rt.queryTransactions({ filter: {}, sort: 'amount_desc', offset, limit: 100 });
    for (const r of uncoded) expect(engine.get(r.id)?.gl_account_id).toBe(gl);
  });

  it('refreshes a row another tab queued a command on, its body read back', async () => {
    const { rt, rows } = await mirror();
    const engine = rt.engines.transactions;
    const target = rows.find((r) => engine.get(r.id) === undefined && r.gl_account_id === null)!;
    const { createOutboxEntry } = await import('../sync/outbox-machine.ts');
    // Written straight to the outbox, as a follower tab does: this runtime sees only the change event.
    await rt.outboxStore.putMany([createOutboxEntry({ id: 'other-tab-1', command: 'transaction.code', args: { transaction_id: target.id, patch: { memo: 'from the other tab' } }, now: Date.now() })]);
    await expect.poll(() => engine.get(target.id)?.memo).toBe('from the other tab');
    expect((await rt.queryTransactions({ filter: { q: 'other tab' }, sort: 'occurred_desc', offset: 0, limit: 5 })).rows.map((r) => r.id)).toEqual([target.id]);
  });

  it('reports over every matching row, the evicted ones read back page by page', async () => {
    const { rt, rows } = await mirror();
    const ctx = { host: { runtime: rt } } as unknown as WorkerContext;
    const query = { collection: 'transactions' as const, time_grain: 'span' as const, dimension: 'department' as const, measure: 'count' as const };
    const answer = await reportHandlers(ctx).report(query);
    expect(answer.scanned).toBe(N);
    const byKey = (a: { key: string | null }, b: { key: string | null }) => String(a.key).localeCompare(String(b.key));
    expect([...answer.rows].sort(byKey)).toEqual([...aggregateReport(rows, query)].sort(byKey));
  });

  it('re-texts the rows naming a renamed person, from bodies read back', async () => {
    const { rt, rows, users } = await mirror();
    const ada = rows.filter((r) => r.user_id === users[0]!.id).length;
    const search = async (q: string) => (await rt.queryTransactions({ filter: { q }, sort: 'occurred_desc', offset: 0, limit: 5 })).total;
    expect(await search('lovelace')).toBe(ada);
    const renamed = { ...users[0]!, last_name: 'Byron' };
    await rt.mirror.applyChanges([put('users', renamed, N + 10)], { seq: N + 10, epoch: 'e' });
    await expect.poll(() => search('byron')).toBe(ada);
    expect(await search('lovelace')).toBe(0);
  });
});
