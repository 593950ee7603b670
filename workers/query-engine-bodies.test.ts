import { describe, expect, it } from 'vitest';
import type { Transaction } from '../schema/entities/transaction.ts';
import { TRANSACTION_SORTS, type TransactionFilter, type TransactionSort } from '../schema/transaction-query.ts';
import { createTransactionEngine, toEngineRow } from './collections/transactions.ts';
import { makeTransactions, seededRandom, testUuid } from './test-fixtures.ts';
import { FILTERS, NAMES, reference, textOf } from './testing/engine-reference.ts';

describe('QueryEngine with row bodies out of the heap (issue 33): columns, an LRU of bodies, the rest read back', () => {
  /** An engine keeping `bodies` bodies over a store holding every row, read back as MirrorRuntime.query does. */
  const setup = (n = 600, bodies = 20) => {
    const rows = makeTransactions(n, 7, { users: 2 }).map(toEngineRow);
    const store = new Map(rows.map((r) => [r.id, r]));
    const engine = createTransactionEngine(textOf, { bodies });
    engine.upsertMany(rows);
    const page = (filter: TransactionFilter, sort: TransactionSort, offset = 0, limit = 1e6) => {
      const ticket = engine.ticket();
      const p = engine.page({ filter, sort, offset, limit });
      const read = p.ids.filter((_, i) => p.rows[i] === undefined).map((id) => ({ ...store.get(id)! }));
      engine.hold(read, ticket);
      const byId = new Map(read.map((r) => [r.id, r]));
      return { total: p.total, rows: p.ids.map((id, i) => p.rows[i] ?? byId.get(id)!) };
    };
    return { rows, store, engine, page };
  };

  it.each(FILTERS)('%s: every sort agrees with the reference, holding no more than its LRU', (_name, filter) => {
    const { rows, engine, page } = setup();
    for (const sort of TRANSACTION_SORTS) {
      const got = page(filter, sort);
      const want = reference(rows, filter, sort);
      expect(got.rows.map((r) => r.id), sort).toEqual(want);
      expect(got.total).toBe(want.length);
      expect(engine.matchingIds(filter)).toEqual(reference(rows, filter, 'occurred_desc'));
    }
    expect(engine.bodiesInMemory).toBeLessThanOrEqual(20);
  });

  it('says which reads need every body instead of answering from some', () => {
    const { engine } = setup();
    expect(engine.keepsBodies).toBe(false);
    expect(() => engine.query({ filter: {}, sort: 'occurred_desc', offset: 0, limit: 100 })).toThrow(/not in memory/);
    expect(() => engine.matchingRows({})).toThrow(/keeps 20 in memory/);
    expect(() => engine.reindexWhere(() => true)).toThrow(/keeps 20 in memory/);
    // A page inside what it holds is answered in full.
    const held = engine.page({ filter: {}, sort: 'occurred_desc', offset: 0, limit: 100 }).rows.filter((r) => r !== undefined).length;
    expect(held).toBeLessThanOrEqual(20);
  });

  it('re-sorts a row whose body was evicted, from the keys it stored (no old body to compare with)', () => {
    const { rows, engine, page } = setup();
    for (const sort of TRANSACTION_SORTS) page({}, sort, 0, 1);
    const old = rows[3]!;
    expect(engine.get(old.id)).toBeUndefined();
    const changed = { ...old, amount: 99_999_999, merchant_name: 'Aardwolf Tours', occurred_at: '2031-01-01T00:00:00.000Z', occurred_desc: -Date.parse('2031-01-01T00:00:00.000Z') };
    engine.upsertMany([changed]);
    for (const sort of ['amount_desc', 'occurred_desc', 'merchant_asc'] as const) expect(page({}, sort, 0, 1).rows[0]?.id, sort).toBe(changed.id);
    expect(engine.get(changed.id)).toEqual(changed);
  });

  it('keeps every order exact through random upserts, moves and removals with 8 bodies in memory', () => {
    const rand = seededRandom(11);
    const pool = makeTransactions(800, 9).map(toEngineRow);
    const engine = createTransactionEngine(textOf, { bodies: 8 });
    const live = new Map<string, Transaction>();
    for (let step = 0; step < 150; step++) {
      const op = rand();
      if (op < 0.5) {
        const batch = Array.from({ length: 1 + Math.floor(rand() * 100) }, () => {
          const r = pool[Math.floor(rand() * pool.length)]!;
          if (rand() > 0.3) return r;
          const at = Date.UTC(2025, 0, 1 + (step % 28));
          return { ...r, amount: Math.floor(rand() * 1000), merchant_name: rand() < 0.5 ? r.merchant_name : `M${step}`, occurred_at: new Date(at).toISOString(), occurred_desc: -at };
        });
        engine.upsertMany(batch);
        for (const r of batch) live.set(r.id, r);
      } else if (op < 0.7) {
        const ids = Array.from({ length: 1 + Math.floor(rand() * 60) }, () => pool[Math.floor(rand() * pool.length)]!.id);
        engine.removeMany(ids);
        for (const id of ids) live.delete(id);
      } else {
        const sort = TRANSACTION_SORTS[Math.floor(rand() * TRANSACTION_SORTS.length)]!;
        const p = engine.page({ filter: {}, sort, offset: 0, limit: 1e9 });
        expect(p.ids, `step ${step} ${sort}`).toEqual(reference([...live.values()], {}, sort));
      }
      expect(engine.bodiesInMemory).toBeLessThanOrEqual(8);
    }
  });

  it('holds what keepBodies and pin say, whatever the LRU evicts, and lets pinned bodies go when released', () => {
    const { rows, engine, page } = setup();
    const edited = new Set([rows[0]!.id]);
    engine.keepBodies((r) => edited.has(r.id));
    engine.upsertMany([{ ...rows[0]!, memo: 'edited offline' }]);
    const release = engine.pin([rows[1]!.id]);
    engine.hold([rows[1]!], engine.ticket());
    page({}, 'occurred_desc');
    expect(engine.get(rows[0]!.id)?.memo).toBe('edited offline');
    expect(engine.get(rows[1]!.id)?.id).toBe(rows[1]!.id);
    release();
    page({}, 'amount_desc');
    expect(engine.get(rows[1]!.id)).toBeUndefined();
    expect(engine.get(rows[0]!.id)?.memo).toBe('edited offline');
  });

  it('never lets a body read back before a newer row was stored replace it (tickets)', () => {
    const { rows, engine } = setup();
    const ticket = engine.ticket();
    const stale = { ...rows[5]! };
    const newer = { ...rows[5]!, memo: 'newer' };
    engine.upsertMany([newer]);
    engine.hold([stale], ticket);
    expect(engine.get(newer.id)?.memo).toBe('newer');
    engine.upsertMany([{ ...stale, memo: 'older read' }], ticket);
    expect(engine.get(newer.id)?.memo).toBe('newer');
    engine.retext([{ ...stale, merchant_name: 'Stale Name Co' }], ticket);
    expect(engine.page({ filter: { q: 'stale name' }, sort: 'occurred_desc', offset: 0, limit: 5 }).total).toBe(0);
  });

  it('finds the rows a renamed reference may name from its columns, and re-texts them from bodies read back', () => {
    const { rows, engine, store } = setup();
    engine.indexSome(1e6);
    const user = testUuid(2, 2);
    const naming = engine.idsNaming(new Set([user]));
    expect(new Set(naming)).toEqual(new Set(rows.filter((r) => r.user_id === user).map((r) => r.id)));
    NAMES[user] = 'Katherine Johnson';
    try {
      const ticket = engine.ticket();
      expect(engine.retext(naming.map((id) => store.get(id)!), ticket)).toBe(naming.length);
      expect(engine.page({ filter: { q: 'katherine' }, sort: 'occurred_desc', offset: 0, limit: 1 }).total).toBe(naming.length);
      expect(engine.page({ filter: { q: "o'brien" }, sort: 'occurred_desc', offset: 0, limit: 1 }).total).toBe(0);
    } finally {
      NAMES[user] = "Conan O'Brien";
    }
  });

  it('totals from its declared money columns, and refuses fields it has no columns for', async () => {
    const { TRANSACTION_SPEND_MONEY } = await import('./handlers/queries.ts');
    const { rows, engine } = setup();
    const full = createTransactionEngine(textOf);
    full.upsertMany(rows);
    expect(engine.totals({ missing_coding: true }, TRANSACTION_SPEND_MONEY)).toEqual(full.totals({ missing_coding: true }, TRANSACTION_SPEND_MONEY));
    expect(() => engine.totals({}, { amount: 'change_seq', currency: 'currency' } as never)).toThrow(/not among the engine's money columns/);
  });
});
