import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, testDatabases, type TestDb } from '../test-db.ts';
import { claimDue, completeLeased, doublingBackoff, extendLease, failLeased, type LeasedQueue, type LeasedRow } from './leased-queue.ts';

const QUEUE: LeasedQueue = { table: 'lease_test_rows', leaseMs: 60_000, maxAttempts: 3, backoffMs: doublingBackoff(1000, 8000) };
const T0 = new Date('2026-11-30T12:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

type Row = LeasedRow & { state: string; kind: string; last_error: string | null; run_after: Date };

describe.each(await testDatabases())('leased queue (%s)', (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await openTestDb(kind, { poolSize: 4 });
    await t.db.exec(`CREATE TABLE lease_test_rows (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(), kind text NOT NULL, state text NOT NULL DEFAULT 'queued',
      attempts int NOT NULL DEFAULT 0, run_after timestamptz NOT NULL, leased_until timestamptz,
      last_error text, finished_at timestamptz)`);
  });
  afterAll(() => t.close());

  const add = async (n: number, kindName = 'mail', runAfter = T0) => {
    await t.db.query(`DELETE FROM lease_test_rows`);
    for (let i = 0; i < n; i++) await t.db.query('INSERT INTO lease_test_rows (kind, run_after) VALUES ($1, $2)', [kindName, runAfter.toISOString()]);
  };

  it('concurrent claims never take one row twice, and a held lease is skipped', async () => {
    await add(20);
    const claims = await Promise.all([0, 1, 2, 3].map(() => claimDue<Row>(t.db, QUEUE, T0, 8)));
    const ids = claims.flat().map((r) => r.id);
    expect(ids.length).toBe(20);
    expect(new Set(ids).size).toBe(20);
    expect(await claimDue(t.db, QUEUE, at(59_000), 50)).toEqual([]);
    // The lease ends: a crashed claimer's rows are taken again, counting the attempt.
    const again = await claimDue<Row>(t.db, QUEUE, at(60_000), 50);
    expect(again.length).toBe(20);
    expect(again.every((r) => r.attempts === 2)).toBe(true);
  });

  it('only the claim that holds a row completes or extends it', async () => {
    await add(1);
    const [first] = await claimDue<Row>(t.db, QUEUE, T0, 1);
    const [second] = await claimDue<Row>(t.db, QUEUE, at(61_000), 1);
    expect(second!.id).toBe(first!.id);
    expect(await extendLease(t.db, QUEUE, first!, at(61_000))).toBe(false);
    expect(await completeLeased(t.db, QUEUE, first!, at(61_000))).toBe(false);
    expect(await completeLeased(t.db, QUEUE, second!, at(62_000))).toBe(true);
    const [row] = await t.db.query<Row>('SELECT * FROM lease_test_rows');
    expect(row!.state).toBe('done');
    expect(await claimDue(t.db, QUEUE, at(999_000), 1)).toEqual([]);
  });

  it('a failure backs off, doubling, and gives up after maxAttempts; `where` narrows the claim', async () => {
    await add(1, 'job');
    expect(await claimDue(t.db, QUEUE, T0, 1, { sql: 'kind = $3', params: ['mail'] })).toEqual([]);
    let now = T0;
    const states: Array<string | null> = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const [row] = await claimDue<Row>(t.db, QUEUE, now, 1, { sql: 'kind = $3', params: ['job'] });
      expect(row!.attempts).toBe(attempt);
      states.push(await failLeased(t.db, QUEUE, row!, now, `boom ${attempt}`));
      const [after] = await t.db.query<Row>('SELECT * FROM lease_test_rows');
      if (attempt < 3) {
        expect(new Date(after!.run_after).getTime() - now.getTime()).toBe(1000 * 2 ** (attempt - 1));
        expect(await claimDue(t.db, QUEUE, now, 1)).toEqual([]);
        now = new Date(after!.run_after);
      }
    }
    expect(states).toEqual(['queued', 'queued', 'failed']);
    const [row] = await t.db.query<Row>('SELECT * FROM lease_test_rows');
    expect(row!.last_error).toBe('boom 3');
    expect(await claimDue(t.db, QUEUE, at(10_000_000), 1)).toEqual([]);
  });
});
