import { describe, expect, it } from 'vitest';
import type { Transaction } from '../schema/entities/transaction.ts';
import { TRANSACTION_SORTS, type TransactionFilter } from '../schema/transaction-query.ts';
import { createTransactionEngine, PLAIN_MONEY, toEngineRow, TRANSACTION_SPEND_MONEY } from './collections/transactions.ts';
import { makeTransaction, makeTransactions, seededRandom, testUuid } from './test-fixtures.ts';
import { FILTERS, reference, textOf } from './testing/engine-reference.ts';

type Engine = ReturnType<typeof createTransactionEngine>;
const BODIES = 30;
const engine = (): Engine => createTransactionEngine(textOf, { bodies: BODIES });
const EXTRA_FILTERS: [string, TransactionFilter][] = [
  ['new merchant text', { q: 'newco' }],
  ['changed memo text', { q: 'zephyr' }],
  ['new merchant, exactly', { merchant: 'Newco 3' }],
];

/** What a reader can ask of an engine, every answer (ids in order, totals, select-all, naming) for every filter and sort. */
function answers(e: Engine) {
  const out: Record<string, unknown> = { size: e.size, naming: e.idsNaming(new Set([testUuid(2, 1), testUuid(5, 2)])).sort() };
  for (const [name, filter] of [...FILTERS, ...EXTRA_FILTERS]) {
    for (const sort of TRANSACTION_SORTS) {
      const page = e.page({ filter, sort, offset: 0, limit: 1e6 });
      out[`${name}/${sort}`] = { ids: page.ids, total: page.total };
      // A later page of a cached result (the walk resumed).
      out[`${name}/${sort}/later`] = e.page({ filter, sort, offset: 7, limit: 5 }).ids;
    }
    out[`${name}/ids`] = e.matchingIds(filter);
    out[`${name}/spend`] = e.totals(filter, TRANSACTION_SPEND_MONEY as never);
    out[`${name}/plain`] = e.totals(filter, PLAIN_MONEY as never);
  }
  out.selection = e.totalsOf([testUuid(1, 3), testUuid(1, 4), testUuid(1, 999_999)], TRANSACTION_SPEND_MONEY as never);
  return out;
}

/** A random workload over `rows` (kept as the store would: id → the row now), applied to every engine given. */
function workload(seed: number, rows: Map<string, Transaction>, engines: Engine[], firstNew: number) {
  const rand = seededRandom(seed);
  const live = [...rows.keys()];
  const changed: Transaction[] = [];
  for (let i = 0; i < 150; i++) {
    const row = rows.get(live[Math.floor(rand() * live.length)]!)!;
    const k = Math.floor(rand() * 6);
    changed.push({
      ...row,
      amount: k === 0 ? row.amount + 1 + Math.floor(rand() * 5000) : row.amount,
      merchant_name: k === 1 ? `Newco ${Math.floor(rand() * 5)}` : row.merchant_name,
      memo: k === 2 ? `refund ${i} zephyr` : row.memo,
      gl_account_id: k === 3 ? (row.gl_account_id ? null : testUuid(5, 2)) : row.gl_account_id,
      occurred_at: k === 4 ? new Date(Date.parse(row.occurred_at) + 3_600_000).toISOString() : row.occurred_at,
      state: k === 5 ? 'DECLINED' : row.state,
      currency: k === 5 && rand() < 0.5 ? 'EUR' : row.currency,
      receipt_ids: k === 2 ? [testUuid(8, i + 1)] : row.receipt_ids,
    });
  }
  const removed = live.filter(() => rand() < 0.04);
  const added = Array.from({ length: 40 }, (_, i) =>
    makeTransaction({ id: testUuid(6, firstNew + i), merchant_name: i % 2 ? 'Newco 1' : 'Uber', amount: 100 * i, user_id: testUuid(2, 2), occurred_at: `2025-0${1 + (i % 9)}-1${i % 10}T08:00:00.000Z` }),
  );
  for (const row of [...changed, ...added]) rows.set(row.id, row);
  for (const id of removed) rows.delete(id);
  for (const e of engines) {
    e.upsertMany(changed.map(toEngineRow));
    e.removeMany(removed);
    e.upsertMany(added.slice(0, 20).map(toEngineRow));
    e.upsertMany(added.slice(20).map(toEngineRow));
  }
}

describe('engine snapshot and restore (issue 33)', () => {
  const setup = () => {
    const rows = new Map(makeTransactions(1500, 5, { users: 3, departments: 3 }).map((r) => [r.id, r]));
    const original = engine();
    const list = [...rows.values()];
    original.upsertMany(list.slice(0, 700).map(toEngineRow));
    original.upsertMany(list.slice(700).map(toEngineRow));
    // Two orders built (kept in the snapshot), the others built on first use after the restore.
    original.page({ filter: {}, sort: 'amount_desc', offset: 0, limit: 1 });
    original.page({ filter: {}, sort: 'merchant_asc', offset: 0, limit: 1 });
    workload(1, rows, [original], 1);
    // Part of the text still waiting for the index: the snapshot indexes it.
    original.upsertMany([...rows.values()].slice(0, 300).map((r) => toEngineRow({ ...r, memo: `${r.memo ?? ''} quartz` })));
    for (const r of [...rows.values()].slice(0, 300)) rows.set(r.id, { ...r, memo: `${r.memo ?? ''} quartz` });
    original.indexSome(100);
    return { rows, original };
  };

  it('restores into a fresh engine that answers every query exactly as the original, and the reference', () => {
    const { rows, original } = setup();
    // Through structured clone, as IndexedDB keeps it.
    const restored = engine();
    restored.restore(structuredClone(original.snapshot()));
    expect(restored.bodiesInMemory).toBe(0);
    const want = answers(original);
    expect(answers(restored)).toEqual(want);
    for (const [name, filter] of [...FILTERS, ...EXTRA_FILTERS, ['quartz', { q: 'quartz' }] as const]) {
      for (const sort of TRANSACTION_SORTS) {
        expect(restored.page({ filter, sort, offset: 0, limit: 1e6 }).ids, `${name}/${sort}`).toEqual(reference([...rows.values()], filter, sort));
      }
    }
  });

  it('stays equal to the original through later upserts, removals and new rows (free slots reused)', () => {
    const { rows, original } = setup();
    const restored = engine();
    restored.restore(structuredClone(original.snapshot()));
    workload(2, rows, [original, restored], 100);
    expect(answers(restored)).toEqual(answers(original));
    workload(3, rows, [original, restored], 200);
    restored.indexSome(1e6);
    expect(answers(restored)).toEqual(answers(original));
    for (const sort of TRANSACTION_SORTS) {
      expect(restored.page({ filter: { q: 'newco' }, sort, offset: 0, limit: 1e6 }).ids).toEqual(reference([...rows.values()], { q: 'newco' }, sort));
    }
    // A snapshot of the restored engine restores too.
    const again = engine();
    again.restore(structuredClone(restored.snapshot()));
    expect(answers(again)).toEqual(answers(original));
  });

  it('refuses another format and a malformed snapshot, leaving the engine empty; an engine keeping every body has none', () => {
    const { original } = setup();
    const snapshot = original.snapshot();
    const other = engine();
    expect(() => other.restore({ ...snapshot, format: snapshot.format + 1 })).toThrow(/format/);
    expect(other.size).toBe(0);
    expect(() => other.restore({ ...snapshot, slots: snapshot.slots + 1 })).toThrow();
    expect(other.size).toBe(0);
    expect(other.page({ filter: {}, sort: 'occurred_desc', offset: 0, limit: 10 }).total).toBe(0);
    expect(() => createTransactionEngine(textOf).snapshot()).toThrow(/keeping some bodies/);
  });
});
