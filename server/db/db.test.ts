import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGES_CHANNEL, allocateSeqs, announceChange, highWater } from './change-seq.ts';
import { openDb, parseInt8, type Db } from './db.ts';
import { openTestDb, testDatabases, type TestDb } from '../test-db.ts';
import { createPgDatabase, DEFAULT_PG_ADMIN_URL, pgAvailable } from '../testing.ts';

describe('parseInt8', () => {
  it.each([
    ['0', 0],
    ['9007199254740991', 9007199254740991],
    ['-42', -42],
    ['9007199254740993', 9007199254740993n],
  ])('parses %s', (text, expected) => {
    expect(parseInt8(text)).toBe(expected);
  });
});

describe.each(await testDatabases())('Db on %s', (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await openTestDb(kind);
  });
  afterAll(() => t.close());

  it('returns int8 as numbers on every driver', async () => {
    const [row] = await t.db.query<{ n: unknown; c: unknown }>('SELECT 5::int8 AS n, count(*) AS c FROM generate_series(1, 3)');
    expect(row).toEqual({ n: 5, c: 3 });
  });

  // PGlite is built without a JIT provider (its `jit` setting is on and does nothing).
  it.runIf(kind === 'pg')('runs with JIT off on every connection (a page of many subplans compiled for seconds, issue 33)', async () => {
    // Several at once, so more than one pooled connection answers.
    const rows = await Promise.all([1, 2, 3, 4].map(() => t.db.query<{ jit: string }>('SHOW jit')));
    for (const [row] of rows) expect(row?.jit).toBe('off');
  });

  it('rolls a failed transaction back', async () => {
    const id = crypto.randomUUID();
    await expect(
      t.db.transaction(async (tx) => {
        await tx.query(`INSERT INTO businesses (id, name, currency) VALUES ($1, 'Rollback', 'USD')`, [id]);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await t.db.query('SELECT 1 FROM businesses WHERE id = $1', [id])).toEqual([]);
  });

  it('allocates consecutive seq ranges and announces them on commit only', async () => {
    const id = crypto.randomUUID();
    await t.db.query(`INSERT INTO businesses (id, name, currency) VALUES ($1, 'Seq', 'USD')`, [id]);
    const heard: string[] = [];
    const off = await t.db.listen(CHANGES_CHANNEL, (p) => heard.push(p));
    await t.db.transaction(async (tx) => {
      expect(await allocateSeqs(tx, id, 3)).toEqual({ first: 1, last: 3 });
      await announceChange(tx, id, 3);
    });
    await t.db.transaction(async (tx) => {
      expect(await allocateSeqs(tx, id, 2)).toEqual({ first: 4, last: 5 });
      await announceChange(tx, id, 5);
      throw new Error('rolled back');
    }).catch(() => {});
    expect(await allocateSeqs(t.db, crypto.randomUUID(), 1)).toBeNull();
    expect(await highWater(t.db, id)).toBe(3);
    // Delivery is asynchronous but in commit order: once a later marker arrives, anything the
    // rolled-back transaction could have sent would have arrived before it.
    const marker = new Promise<void>((resolve) => void t.db.listen(CHANGES_CHANNEL, (p) => p.includes('"seq":99') && resolve()));
    await announceChange(t.db, id, 99);
    await marker;
    expect(heard.map((p) => JSON.parse(p))).toEqual([{ business_id: id, seq: 3 }, { business_id: id, seq: 99 }]);
    await off();
  });
});

describe.runIf(await pgAvailable())('warm pools on PostgreSQL (issue 33)', () => {
  it('opens every connection of both pools at once, each pool by its name; without warm only the probe', async () => {
    const store = await createPgDatabase(DEFAULT_PG_ADMIN_URL);
    const counts = async (db: Db) => Object.fromEntries((await db.query<{ application_name: string; n: number }>(
      `SELECT application_name, count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND application_name LIKE 'ledgerline%' GROUP BY 1`)).map((r) => [r.application_name, r.n]));
    const warm = await openDb({ ...store.open, readPoolSize: 3, poolSize: 2, warm: true });
    try {
      // The counting statement runs on one of the three read connections: none is opened for it.
      expect(await counts(warm)).toEqual({ ledgerline: 3, 'ledgerline-tx': 2 });
    } finally {
      await warm.close();
    }
    const cold = await openDb({ ...store.open, readPoolSize: 3, poolSize: 2 });
    try {
      // The warm pool's backends leave pg_stat_activity a moment after its close answered (seen in
      // CI); the cold pool keeps what it opened, so a count that settles at the probe alone is exact.
      await expect.poll(() => counts(cold), { timeout: 10_000 }).toEqual({ ledgerline: 1 });
    } finally {
      await cold.close();
      await store.dispose();
    }
  });
});
