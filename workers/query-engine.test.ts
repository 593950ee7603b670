import { describe, expect, it } from 'vitest';
import type { Transaction } from '../schema/entities/transaction.ts';
import { TRANSACTION_SORTS, type TransactionFilter } from '../schema/transaction-query.ts';
import { createTransactionEngine, toEngineRow } from './collections/transactions.ts';
import { makeTransaction, makeTransactions, seededRandom, testUuid } from './test-fixtures.ts';
import { FILTERS, NAMES, reference, textOf } from './testing/engine-reference.ts';

describe('QueryEngine agrees with the shared filter, sort and text semantics', () => {
  const rows = makeTransactions(3000, 7, { users: 3, departments: 3 });
  const engine = createTransactionEngine(textOf);
  engine.upsertMany(rows.slice(0, 1000));
  engine.upsertMany(rows.slice(1000));
  engine.indexSome(2500); // part indexed, part searched by scan: both paths at once

  for (const [name, filter] of FILTERS) {
    for (const sort of TRANSACTION_SORTS) {
      it(`${name} / ${sort}`, () => {
        const expected = reference(rows, filter, sort);
        const page = engine.query({ filter, sort, offset: 0, limit: 100_000 });
        expect(page.total).toBe(expected.length);
        expect(page.rows.map((r) => r.id)).toEqual(expected);
      });
    }
  }

  it('pages with offset and limit, clamping an offset past the end', () => {
    const expected = reference(rows, { q: 'ada' }, 'amount_desc');
    const page = engine.query({ filter: { q: 'ada' }, sort: 'amount_desc', offset: 40, limit: 25 });
    expect(page.rows.map((r) => r.id)).toEqual(expected.slice(40, 65));
    const past = engine.query({ filter: { q: 'ada' }, sort: 'amount_desc', offset: 1e9, limit: 25 });
    expect(past).toMatchObject({ rows: [], total: expected.length, offset: expected.length });
  });

  it('matchingIds returns every match newest first', () => {
    expect(engine.matchingIds({ missing_coding: true })).toEqual(reference(rows, { missing_coding: true }, 'occurred_desc'));
  });
});

describe('QueryEngine incremental updates', () => {
  const setup = () => {
    const rows = makeTransactions(500, 3, { users: 2 });
    const engine = createTransactionEngine(textOf);
    engine.upsertMany(rows);
    // Build every order first so updates go through the incremental path.
    for (const sort of TRANSACTION_SORTS) engine.query({ filter: {}, sort, offset: 0, limit: 1 });
    engine.indexSome(1e6);
    return { rows, engine };
  };

  it('re-sorts a row whose sort key changed and finds it by its new text', () => {
    const { rows, engine } = setup();
    const changed = { ...rows[10]!, amount: 99_999_999, merchant_name: 'Zzyzx Tours', occurred_at: '2030-01-01T00:00:00.000Z' };
    engine.upsertMany([changed]);
    for (const sort of ['amount_desc', 'occurred_desc'] as const) {
      expect(engine.query({ filter: {}, sort, offset: 0, limit: 1 }).rows[0]?.id).toBe(changed.id);
    }
    expect(engine.query({ filter: {}, sort: 'merchant_asc', offset: 499, limit: 1 }).rows[0]?.id).toBe(changed.id);
    expect(engine.query({ filter: { q: 'zzyzx' }, sort: 'occurred_desc', offset: 0, limit: 10 }).rows.map((r) => r.id)).toEqual([changed.id]);
    expect(engine.query({ filter: { q: rows[10]!.merchant_name }, sort: 'occurred_desc', offset: 0, limit: 1e6 }).rows.map((r) => r.id)).not.toContain(changed.id);
  });

  it('reflects a coding change in filters and cached pages at once', () => {
    const { rows, engine } = setup();
    const before = engine.query({ filter: { missing_coding: true }, sort: 'occurred_desc', offset: 0, limit: 1e6 }).total;
    const uncoded = rows.filter((r) => r.gl_account_id === null).slice(0, 5);
    engine.upsertMany(uncoded.map((r) => ({ ...r, gl_account_id: testUuid(5, 2) })));
    expect(engine.query({ filter: { missing_coding: true }, sort: 'occurred_desc', offset: 0, limit: 1 }).total).toBe(before - 5);
    const travel = engine.query({ filter: { q: 'travel' }, sort: 'occurred_desc', offset: 0, limit: 1e6 }).rows.map((r) => r.id);
    for (const r of uncoded) expect(travel).toContain(r.id);
  });

  it('removes rows from every order and from search', () => {
    const { rows, engine } = setup();
    const gone = rows.slice(0, 50).map((r) => r.id);
    engine.removeMany(gone);
    expect(engine.size).toBe(450);
    for (const sort of TRANSACTION_SORTS) {
      const ids = engine.query({ filter: {}, sort, offset: 0, limit: 1e6 }).rows.map((r) => r.id);
      expect(ids).toHaveLength(450);
      expect(ids.filter((id) => gone.includes(id))).toEqual([]);
    }
    expect(engine.get(gone[0]!)).toBeUndefined();
    // A freed slot is reused by a new row without leaking the old row's text.
    engine.upsertMany([makeTransaction({ id: testUuid(1, 9999), merchant_name: 'Quokka Cafe' })]);
    expect(engine.query({ filter: { q: 'quokka' }, sort: 'occurred_desc', offset: 0, limit: 5 }).total).toBe(1);
  });

  it('re-derives search text when a referenced name changes', () => {
    const { engine } = setup();
    const user = testUuid(2, 1);
    const total = engine.query({ filter: { user_ids: [user] }, sort: 'occurred_desc', offset: 0, limit: 1 }).total;
    NAMES[user] = 'Grace Hopper';
    try {
      expect(engine.reindexWhere((r) => r.user_id === user)).toBe(total);
      expect(engine.query({ filter: { q: 'grace hop' }, sort: 'occurred_desc', offset: 0, limit: 1 }).total).toBe(total);
      expect(engine.query({ filter: { q: 'lovelace' }, sort: 'occurred_desc', offset: 0, limit: 1 }).total).toBe(0);
    } finally {
      NAMES[user] = 'Ada Lovelace';
    }
  });

  it('keeps a new merchant name in merchant order', () => {
    const { engine } = setup();
    engine.upsertMany([makeTransaction({ id: testUuid(1, 8888), merchant_name: 'Aaardvark Supplies' })]);
    expect(engine.query({ filter: {}, sort: 'merchant_asc', offset: 0, limit: 1 }).rows[0]?.merchant_name).toBe('Aaardvark Supplies');
  });
});

describe('QueryEngine at 20k rows', () => {
  it('answers text searches from its index once built, without reading every row’s text again', () => {
    // Speed itself is the benchmark's (npm run bench: search p95); here, what makes it fast: once
    // indexed, a query reads no row's text (the index holds it), and its answer is the reference's.
    let reads = 0;
    const counted = (t: Transaction) => {
      reads += 1;
      return textOf(t);
    };
    const engine = createTransactionEngine(counted);
    const source = makeTransactions(20_000, 11, { users: 2 });
    const rows = source.map(toEngineRow);
    for (let i = 0; i < rows.length; i += 2000) engine.upsertMany(rows.slice(i, i + 2000));
    while (engine.indexSome(5000) > 0);
    for (const q of ['sta', 'uber ada', 'meals', 'delta travel', 'o', 'lunch', 'hil', 'zoom conan']) {
      reads = 0;
      const got = engine.query({ filter: { q }, sort: 'occurred_desc', offset: 0, limit: 50 });
      expect(reads, q).toBe(0);
      expect(got.rows.map((r) => r.id), q).toEqual(reference(source, { q }, 'occurred_desc').slice(0, 50));
    }
  });
});

describe('QueryEngine under random updates', () => {
  it('keeps every order complete and duplicate-free through upserts, moves and removals', () => {
    const rand = seededRandom(3);
    const pool = makeTransactions(2000, 5).map(toEngineRow);
    const engine = createTransactionEngine(textOf);
    const live = new Map<string, Transaction>();
    const pick = () => pool[Math.floor(rand() * pool.length)]!;
    for (let step = 0; step < 300; step++) {
      const op = rand();
      if (op < 0.5) {
        const batch = Array.from({ length: 1 + Math.floor(rand() * 300) }, () => {
          const r = pick();
          if (rand() > 0.3) return r;
          return { ...r, amount: Math.floor(rand() * 1000), merchant_name: rand() < 0.5 ? r.merchant_name : `M${step}`, occurred_at: new Date(Date.UTC(2025, 0, 1 + (step % 28))).toISOString(), occurred_desc: -Date.UTC(2025, 0, 1 + (step % 28)) };
        });
        engine.upsertMany(batch);
        for (const r of batch) live.set(r.id, r);
      } else if (op < 0.7) {
        const ids = Array.from({ length: 1 + Math.floor(rand() * 200) }, () => pick().id);
        engine.removeMany(ids);
        for (const id of ids) live.delete(id);
      } else {
        const sort = TRANSACTION_SORTS[Math.floor(rand() * TRANSACTION_SORTS.length)]!;
        const ids = engine.query({ filter: {}, sort, offset: 0, limit: 1e9 }).rows.map((r) => r.id);
        expect(ids, `step ${step} ${sort}`).toEqual(reference([...live.values()], {}, sort));
      }
    }
  });
});

describe('QueryEngine totals (count and sum per currency over the whole result)', () => {
  const MONEY = { amount: 'amount', currency: 'currency' } as const;
  const CURRENCIES = ['USD', 'EUR', 'JPY'];
  const rows = makeTransactions(2000, 11, { users: 3, departments: 3 }).map((t, i) => ({ ...t, currency: CURRENCIES[i % 7 === 0 ? 1 : i % 11 === 0 ? 2 : 0]! }));
  const engine = createTransactionEngine(textOf);
  engine.upsertMany(rows.map(toEngineRow));

  /** The obvious implementation the engine must agree with. */
  function expected(filter: TransactionFilter, over = rows) {
    const ids = new Set(reference(over, filter, 'occurred_desc'));
    const sums = new Map<string, { amount: number; count: number }>();
    for (const t of over) {
      if (!ids.has(t.id)) continue;
      const s = sums.get(t.currency) ?? { amount: 0, count: 0 };
      s.amount += t.amount;
      s.count++;
      sums.set(t.currency, s);
    }
    return { count: ids.size, sums: Object.fromEntries(sums) };
  }
  const asMap = (t: { count: number; sums: { currency: string; amount: number; count: number }[] }) => ({
    count: t.count,
    sums: Object.fromEntries(t.sums.map((s) => [s.currency, { amount: s.amount, count: s.count }])),
  });

  it.each(FILTERS)('%s: over every matching row, per currency', (_name, filter) => {
    const totals = engine.totals(filter, MONEY);
    expect(asMap(totals)).toEqual(expected(filter));
    // Most rows first; the count is the page query's total, not a page's length.
    expect(totals.sums.map((s) => s.count)).toEqual([...totals.sums.map((s) => s.count)].sort((a, b) => b - a));
    expect(totals.count).toBe(engine.query({ filter, sort: 'amount_desc', offset: 0, limit: 10 }).total);
  });

  it('has three currencies in the unfiltered result, and nothing for no match', () => {
    expect(engine.totals({}, MONEY).sums.map((s) => s.currency)).toEqual(['USD', 'EUR', 'JPY']);
    expect(engine.totals({ q: 'zzzz' }, MONEY)).toEqual({ count: 0, sums: [] });
  });

  it('a currency filter (issue 25) leaves that currency alone in the totals, fewer rows than every currency', () => {
    for (const currency of CURRENCIES) {
      const totals = engine.totals({ currency }, MONEY);
      const mine = rows.filter((t) => t.currency === currency);
      expect(totals.sums.map((s) => s.currency)).toEqual([currency]);
      expect(totals.count).toBe(mine.length);
      expect(totals.sums[0]!.amount).toBe(mine.reduce((a, t) => a + t.amount, 0));
      expect(totals.count).toBeLessThan(rows.length);
      expect(engine.query({ filter: { currency }, sort: 'occurred_desc', offset: 0, limit: 1e9 }).rows.every((r) => r.currency === currency)).toBe(true);
    }
    expect(engine.totals({ currency: 'CHF' }, MONEY)).toEqual({ count: 0, sums: [] });
  });

  it('is cached per query version and follows a change', () => {
    const filter: TransactionFilter = { user_ids: [testUuid(2, 1)] };
    const first = engine.totals(filter, MONEY, 'occurred_desc');
    expect(engine.totals(filter, MONEY, 'occurred_desc')).toBe(first);
    const row = rows.find((t) => t.user_id === testUuid(2, 1) && t.currency === 'USD')!;
    engine.upsertMany([toEngineRow({ ...row, amount: row.amount + 100 })]);
    const after = engine.totals(filter, MONEY, 'occurred_desc');
    expect(after).not.toBe(first);
    expect(after.sums.find((s) => s.currency === 'USD')!.amount).toBe(first.sums.find((s) => s.currency === 'USD')!.amount + 100);
    engine.upsertMany([toEngineRow(row)]);
  });

  it('follows rows arriving and leaving with no filter (the result is the live sort order itself)', () => {
    const growing = createTransactionEngine(textOf);
    expect(growing.totals({}, MONEY)).toEqual({ count: 0, sums: [] });
    growing.upsertMany(rows.slice(0, 10).map(toEngineRow));
    expect(growing.totals({}, MONEY).count).toBe(10);
    growing.upsertMany(rows.slice(10, 30).map(toEngineRow));
    expect(growing.totals({}, MONEY).count).toBe(30);
    growing.removeMany([rows[0]!.id]);
    expect(asMap(growing.totals({}, MONEY))).toEqual(expected({ user_ids: undefined }, rows.slice(1, 30)));
    // A row changing currency moves between sums; a selection sees it too.
    const moved = { ...rows[1]!, currency: 'GBP' };
    growing.upsertMany([toEngineRow(moved)]);
    expect(asMap(growing.totals({}, MONEY))).toEqual(expected({}, [moved, ...rows.slice(2, 30)]));
    expect(growing.totalsOf([moved.id, rows[0]!.id], MONEY)).toEqual({ count: 1, sums: [{ currency: 'GBP', amount: moved.amount, count: 1 }] });
  });

  it('sums spend only (issue 25): declined and reversed rows are counted apart per currency, never summed', async () => {
    const { TRANSACTION_SPEND_MONEY } = await import('./handlers/queries.ts');
    const STATES = ['PENDING', 'CLEARED', 'DECLINED', 'REVERSED'] as const;
    const mixed = rows.map((t, i) => ({ ...t, state: STATES[(i * 7) % 4]! }));
    const spend = createTransactionEngine(textOf);
    spend.upsertMany(mixed.map(toEngineRow));
    for (const [, filter] of FILTERS) {
      const ids = new Set(reference(mixed, filter, 'occurred_desc'));
      const want = new Map<string, { amount: number; count: number; excluded: number }>();
      for (const t of mixed) {
        if (!ids.has(t.id)) continue;
        const s = want.get(t.currency) ?? { amount: 0, count: 0, excluded: 0 };
        if (t.state === 'PENDING' || t.state === 'CLEARED') {
          s.amount += t.amount;
          s.count++;
        } else s.excluded++;
        want.set(t.currency, s);
      }
      const got = spend.totals(filter, TRANSACTION_SPEND_MONEY);
      expect(got.count).toBe(ids.size);
      expect(got.excluded).toBe([...want.values()].reduce((a, s) => a + s.excluded, 0));
      expect(Object.fromEntries(got.sums.map((s) => [s.currency, { amount: s.amount, count: s.count, excluded: s.excluded }]))).toEqual(Object.fromEntries(want));
    }
    // A declined row turning cleared moves into the sum; a selection of only declined rows sums nothing.
    const declined = mixed.find((t) => t.state === 'DECLINED' && t.currency === 'USD')!;
    const before = spend.totals({}, TRANSACTION_SPEND_MONEY).sums.find((s) => s.currency === 'USD')!;
    spend.upsertMany([toEngineRow({ ...declined, state: 'CLEARED' })]);
    const after = spend.totals({}, TRANSACTION_SPEND_MONEY).sums.find((s) => s.currency === 'USD')!;
    expect(after).toEqual({ currency: 'USD', amount: before.amount + declined.amount, count: before.count + 1, excluded: before.excluded! - 1 });
    const reversed = mixed.find((t) => t.state === 'REVERSED' && t.currency === 'USD')!;
    expect(spend.totalsOf([reversed.id], TRANSACTION_SPEND_MONEY)).toEqual({ count: 1, excluded: 1, sums: [{ currency: 'USD', amount: 0, count: 0, excluded: 1 }] });
  });

  it('totals a selection by ids, skipping unknown ids', () => {
    const picked = [rows[1]!, rows[7]!, rows[11]!]; // USD, EUR, JPY
    const totals = engine.totalsOf([...picked.map((t) => t.id), testUuid(9, 9)], MONEY);
    expect(totals.count).toBe(3);
    expect(asMap(totals).sums).toEqual(
      Object.fromEntries(picked.map((t) => [t.currency, { amount: t.amount, count: 1 }])),
    );
    expect(engine.totalsOf([], MONEY)).toEqual({ count: 0, sums: [] });
  });

  it('keeps the totals of 100k rows exact through each change (typed-array money columns, no stale cached answer)', () => {
    const big = createTransactionEngine(() => '');
    const many = makeTransactions(100_000, 3);
    big.upsertMany(many.map(toEngineRow));
    big.totals({}, MONEY); // builds the money columns once
    for (let i = 0; i < 5; i++) {
      big.upsertMany([toEngineRow({ ...many[i]!, amount: many[i]!.amount + 1 })]); // a new version: no cached answer
      const totals = big.totals({}, MONEY);
      expect(totals.count).toBe(100_000);
      expect(totals.sums[0]!.amount).toBe(many.reduce((a, t) => a + t.amount, 0) + i + 1);
    }
    // How fast: the benchmark's figure, not a timed assertion here.
  }, 60_000);
});

describe('QueryEngine early exit (issue 33): a page of a many-match text query before its whole order', () => {
  it('serves pages, ids and the total exactly as the reference, whatever the order they are asked in', () => {
    const source = makeTransactions(3000, 17, { users: 2 });
    const engine = createTransactionEngine(textOf);
    engine.upsertMany(source.map(toEngineRow));
    while (engine.indexSome(1000) > 0);
    for (const [filter, sort] of [[{ q: 'e' }, 'occurred_desc'], [{ q: 'a', missing_coding: false }, 'amount_asc'], [{ q: 'ada e' }, 'merchant_asc']] as const) {
      const want = reference(source, filter, sort);
      expect(want.length, JSON.stringify(filter)).toBeGreaterThan(3000 / 8);
      const first = engine.query({ filter, sort, offset: 0, limit: 50 });
      expect(first.total).toBe(want.length);
      expect(first.rows.map((r) => r.id)).toEqual(want.slice(0, 50));
      const later = engine.query({ filter, sort, offset: 300, limit: 50 });
      expect(later.rows.map((r) => r.id)).toEqual(want.slice(300, 350));
      expect(engine.query({ filter, sort, offset: 100, limit: 50 }).rows.map((r) => r.id)).toEqual(want.slice(100, 150));
      const last = engine.query({ filter, sort, offset: want.length - 10, limit: 50 });
      expect(last.rows.map((r) => r.id)).toEqual(want.slice(-10));
    }
    // Ids after a first page only (the walk resumed to the end).
    engine.query({ filter: { q: 'e' }, sort: 'occurred_desc', offset: 0, limit: 50 });
    expect(engine.matchingIds({ q: 'e' })).toEqual(reference(source, { q: 'e' }, 'occurred_desc'));
    // A change between pages: the next page is of the new data.
    engine.query({ filter: { q: 'e' }, sort: 'occurred_desc', offset: 0, limit: 50 });
    const gone = reference(source, { q: 'e' }, 'occurred_desc').slice(0, 20);
    engine.removeMany(gone);
    const kept = source.filter((t) => !gone.includes(t.id));
    const page = engine.query({ filter: { q: 'e' }, sort: 'occurred_desc', offset: 0, limit: 50 });
    expect(page.rows.map((r) => r.id)).toEqual(reference(kept, { q: 'e' }, 'occurred_desc').slice(0, 50));
    expect(page.total).toBe(reference(kept, { q: 'e' }, 'occurred_desc').length);
  });
});
