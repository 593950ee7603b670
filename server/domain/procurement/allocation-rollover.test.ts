import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { syncChanges } from '../../../schema/api/calls.ts';
import { allocationIntervalStartSql, spendAllocationSchema } from '../../../schema/entities/spend-allocation.ts';
import type { Change } from '../../../schema/sync-feed.ts';
import { useTestApp } from '../../test-app.ts';
import { testDatabases } from '../../test-db.ts';
import { makeBusiness, request, signIn, type Fixture } from '../../test-fixtures.ts';
import { restampRolledOverAllocations, startAllocationRolloverJob } from './allocation-rollover.ts';

/**
 * Issue 28: a budget's `spent`/`left` restart with its interval, and the rollover job re-stamps it
 * (a fresh change seq) once per rollover, on the job's clock, so every mirror receives the new
 * interval's figures; TOTAL and deleted budgets never move. Two runs at once stamp each budget once.
 */
const INTERVALS = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY', 'TOTAL'] as const;
type Interval = (typeof INTERVALS)[number];
/** A Friday. */
const LAST_STAMP = '2026-11-20T10:00:00.000Z';

describe.each(await testDatabases())('budget interval rollover on %s', (kind) => {
  const t = useTestApp(kind);

  /** A budget of the business stamped at `stampedAt` with a seq of its counter. */
  async function insertBudget(f: Fixture, interval: Interval, stampedAt: string, deleted = false): Promise<string> {
    const id = randomUUID();
    await t.db.query(
      `WITH s AS (UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $2 RETURNING change_seq)
       INSERT INTO spend_allocations (id, business_id, name, owner_id, member_ids, limit_amount, limit_currency, limit_interval, created_by,
                                      created_at, updated_at, change_seq, deleted)
       SELECT $1, $2, $3, $4, '{}', 100000, 'USD', $5, $4, $6, $6, s.change_seq, $7 FROM s`,
      [id, f.businessId, `${interval} budget`, f.users.manager, interval, stampedAt, deleted],
    );
    return id;
  }
  const stamps = async (ids: readonly string[]) => {
    const rows = await t.db.query<{ id: string; change_seq: number | string; updated_at: string }>(
      `SELECT id::text, change_seq, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') AS updated_at
         FROM spend_allocations WHERE id = ANY($1::uuid[])`, [ids],
    );
    return new Map(rows.map((r) => [r.id, { seq: Number(r.change_seq), at: r.updated_at }]));
  };
  /** Every budget the database would call rolled over at `at` (any business: the runs see them all). */
  const dueEverywhere = async (at: string) => Number((await t.db.query<{ n: number | string }>(
    `SELECT count(*) AS n FROM spend_allocations r WHERE NOT r.deleted AND r.limit_interval <> 'TOTAL'
        AND r.updated_at < ${allocationIntervalStartSql('$1::timestamptz')}`, [at],
  ))[0]!.n);

  it('re-stamps each budget once when its day, week, month or year turns, by the job\'s clock', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const ids = Object.fromEntries(await Promise.all(INTERVALS.map(async (i) => [i, await insertBudget(f, i, LAST_STAMP)] as const))) as Record<Interval, string>;
    const gone = await insertBudget(f, 'MONTHLY', LAST_STAMP, true);
    const all = [...Object.values(ids), gone];

    // [the job's moment, the intervals re-stamped by that run]
    const runs: [string, Interval[]][] = [
      ['2026-11-20T23:59:59Z', []],
      ['2026-11-21T00:00:01Z', ['DAILY']], // Saturday
      ['2026-11-21T18:00:00Z', []], // the same day again: nothing
      ['2026-11-23T00:00:01Z', ['DAILY', 'WEEKLY']], // Monday
      ['2026-11-30T08:00:00Z', ['DAILY', 'WEEKLY']], // the next Monday, still November
      ['2026-12-01T00:00:01Z', ['DAILY', 'MONTHLY']],
      ['2026-12-01T00:00:02Z', []],
      ['2027-01-01T00:00:01Z', ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']],
    ];
    for (const [at, expected] of runs) {
      const before = await stamps(all);
      const high = Number((await t.db.query<{ s: number | string }>('SELECT change_seq AS s FROM businesses WHERE id = $1', [f.businessId]))[0]!.s);
      await restampRolledOverAllocations(t.db, new Date(at));
      const after = await stamps(all);
      const moved = INTERVALS.filter((i) => after.get(ids[i])!.seq !== before.get(ids[i])!.seq);
      expect([at, moved]).toEqual([at, expected]);
      expect(after.get(gone)).toEqual(before.get(gone));
      const newSeqs = moved.map((i) => after.get(ids[i])!.seq);
      // Each with a seq of its own above the business's high water before the run, stamped at the job's moment.
      expect(new Set(newSeqs).size).toBe(moved.length);
      for (const s of newSeqs) expect(s).toBeGreaterThan(high);
      for (const i of moved) expect(after.get(ids[i])!.at).toBe(at.slice(0, 19));
    }
  });

  it('the owner\'s forward pull receives the re-stamped budget once, its doc as of now', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const token = await signIn(t.app, f.email('manager'));
    // Stamped last month by the database's clock (the doc's `spent` is summed as of its now()).
    const [{ stamped }] = await t.db.query<{ stamped: string }>(
      `SELECT to_char((date_trunc('month', now() AT TIME ZONE 'UTC') - interval '3 days') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS stamped`,
    ) as [{ stamped: string }];
    const id = await insertBudget(f, 'MONTHLY', stamped);
    const first = await request(t.app, 'GET', `${syncChanges.path}?after=0&limit=500`, { token });
    expect(first.body.has_more).toBe(false);
    expect(first.body.changes.some((c: Change) => c.id === id)).toBe(true);

    await restampRolledOverAllocations(t.db, new Date());
    const next = await request(t.app, 'GET', `${syncChanges.path}?after=${first.body.checkpoint}&limit=500`, { token });
    const change = next.body.changes.find((c: Change) => c.id === id);
    expect(change?.collection).toBe('spend_allocations');
    expect(spendAllocationSchema.parse(change.doc)).toMatchObject({ id, spent: 0, left: 100_000 });
    // Nothing more until the next month.
    await restampRolledOverAllocations(t.db, new Date());
    const quiet = await request(t.app, 'GET', `${syncChanges.path}?after=${next.body.checkpoint}&limit=500`, { token });
    expect(quiet.body.changes.filter((c: Change) => c.id === id)).toEqual([]);
  });

  it('two runs at once stamp each budget once; the job runs at start on its injected clock', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const ids = await Promise.all(['MONTHLY', 'MONTHLY', 'YEARLY', 'DAILY'].map((i) => insertBudget(f, i as Interval, '2030-05-10T00:00:00Z')));
    const at = '2031-02-01T00:00:00Z';
    const due = await dueEverywhere(at);
    expect(due).toBeGreaterThanOrEqual(ids.length);
    const [x, y] = await Promise.all([restampRolledOverAllocations(t.db, new Date(at)), restampRolledOverAllocations(t.db, new Date(at))]);
    expect(x.restamped + y.restamped).toBe(due);
    const after = await stamps(ids);
    expect(new Set(ids.map((id) => after.get(id)!.seq)).size).toBe(ids.length);
    expect(await dueEverywhere(at)).toBe(0);

    const errors: unknown[] = [];
    const job = startAllocationRolloverJob(t.db, { now: () => Date.parse('2031-03-01T00:00:00Z'), everyMs: 3_600_000, onError: (e) => errors.push(e) });
    await job.runNow();
    await job.stop();
    expect(errors).toEqual([]);
    const later = await stamps(ids);
    expect(ids.map((id) => later.get(id)!.at)).toEqual(['2031-03-01T00:00:00', '2031-03-01T00:00:00', '2031-02-01T00:00:00', '2031-03-01T00:00:00']);
  });
});
