import { afterEach, describe, expect, it, vi } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { Change, MirroredCollection } from '../schema/sync-feed.ts';
import { REPORT_SPECS, aggregateReport, type ReportQuery } from '../schema/reports.ts';
import { mirrorStorage } from './db.ts';
import { MirrorRuntime } from './mirror-runtime.ts';
import { reportHandlers } from './handlers/reports.ts';
import type { WorkerContext } from './worker-context.ts';
import { makeTransactions, testUuid } from './test-fixtures.ts';

/**
 * Issue 33: through the real runtime, over a mirror larger than the transactions engine's LRU, a
 * transactions report reads no row body from IndexedDB (the engine's columns answer it) and
 * equals `aggregateReport` over the rows as shown, pending commands included; a report by a
 * tracking category still reads the bodies it does not hold.
 */
const runtimes: MirrorRuntime[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const rt of runtimes.splice(0)) await rt.close();
});

/** The runtime's LRU here (a runtime option), so most bodies are out of memory. */
const BODIES = 500;
const N = BODIES * 2 + 100;
const put = (collection: MirroredCollection, doc: { id: string }, seq: number): Change => ({ collection, seq, id: doc.id, deleted: false, doc });
const CURRENCIES = ['USD', 'EUR', 'GBP'];

async function mirror() {
  const rt = await MirrorRuntime.open({ name: 'report-columns-test', storage: mirrorStorage({ indexedDB: new IDBFactory(), IDBKeyRange }), multiInstance: false, defer: (fn) => fn(), bodies: BODIES });
  runtimes.push(rt);
  const rows = makeTransactions(N, 13, { users: 3 }).map((t, i) => ({
    ...t,
    currency: CURRENCIES[i % 3]!,
    state: i % 11 === 0 ? ('DECLINED' as const) : t.state,
    card_id: testUuid(7, 1 + (i % 5)),
  }));
  await rt.ready;
  await rt.mirror.applyChanges(rows.map((t, i) => put('transactions', t, i + 1)), { seq: N, epoch: 'e' });
  await expect.poll(() => rt.engines.transactions.size).toBe(N);
  const ctx = { host: { runtime: rt } } as unknown as WorkerContext;
  // Every read of stored transactions' bodies (feed.stored → getDocs) goes through this.
  const reads = vi.spyOn(rt.db.transactions.storageInstance, 'findDocumentsById');
  return { rt, rows, report: reportHandlers(ctx).report, reads };
}

describe('transaction reports through the runtime, over the columns (issue 33)', () => {
  it('reads no body for any dimension the columns hold, and equals the body path', async () => {
    const { rt, rows, report, reads } = await mirror();
    const engine = rt.engines.transactions;
    const out = rows.filter((r) => engine.get(r.id) === undefined).map((r) => r.id);
    expect(out.length).toBeGreaterThan(N - BODIES - 1);
    reads.mockClear();
    for (const dimension of REPORT_SPECS.transactions.dimensions.filter((d) => d !== 'tracking_category')) {
      const q: ReportQuery = { collection: 'transactions', time_grain: 'month', dimension, measure: 'sum', filters: { states: ['CLEARED', 'PENDING', 'DECLINED'] } };
      const answer = await report(q);
      expect(answer.rows, dimension).toEqual(aggregateReport(rows.filter((r) => r.state !== 'REVERSED'), q));
      expect(answer.scanned).toBe(rows.filter((r) => r.state !== 'REVERSED').length);
    }
    expect(reads).not.toHaveBeenCalled();
    // Nothing was read back into the LRU either.
    expect(out.filter((id) => engine.get(id) !== undefined)).toEqual([]);
  });

  it('includes pending commands on rows whose bodies are out, still reading none', async () => {
    const { rt, rows, report, reads } = await mirror();
    const engine = rt.engines.transactions;
    const recoded = rows.filter((r) => engine.get(r.id) === undefined && r.state !== 'DECLINED').slice(0, 60);
    const department = testUuid(3, 9);
    const { result } = await rt.commands.run('transaction.bulkCode', { transaction_ids: recoded.map((r) => r.id), patch: { department_id: department } });
    expect(result.ok).toBe(true);
    const shown = rows.map((r) => (recoded.includes(r) ? { ...r, department_id: department } : r));
    reads.mockClear();
    const q: ReportQuery = { collection: 'transactions', time_grain: 'quarter', dimension: 'department', measure: 'count' };
    const answer = await report(q);
    expect(answer.rows).toEqual(aggregateReport(shown, q));
    expect(answer.rows.filter((r) => r.key === department).reduce((n, r) => n + r.count, 0)).toBe(recoded.length);
    expect(reads).not.toHaveBeenCalled();
  });

  it('reads the bodies it does not hold for a report by a tracking category', async () => {
    const { rows, report, reads } = await mirror();
    reads.mockClear();
    const q: ReportQuery = { collection: 'transactions', time_grain: 'span', dimension: 'tracking_category', tracking_category_id: testUuid(6, 1), measure: 'average' };
    const answer = await report(q);
    expect(answer.rows).toEqual(aggregateReport(rows, q));
    expect(answer.scanned).toBe(N);
    expect(reads).toHaveBeenCalled();
  });
});
