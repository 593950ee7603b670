/**
 * Issue 32 (D2): two server processes on one PostgreSQL never run one async job twice. Both run
 * their job runner at once, twice each, over the same due jobs: every job's work runs once and
 * ends done with one attempt.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { createJobRunner, type JobWork } from './runner.ts';

describe.skipIf(!(await pgAvailable()))('async jobs race on PostgreSQL', () => {
  it('runs each of 12 jobs once when two processes drain at the same time', async () => {
    await withPgBusiness({}, async ({ dbA, dbB, f }) => {
      const now = Date.parse('2026-03-01T12:00:00Z');
      const ids = Array.from({ length: 12 }, () => randomUUID());
      for (const id of ids) {
        await dbA.query(
          `INSERT INTO async_jobs (id, business_id, requested_by, kind, params, run_after, created_at) VALUES ($1, $2, $3, 'statement', '{}', $4, $4)`,
          [id, f.businessId, f.users.admin, new Date(now - 1000).toISOString()],
        );
      }
      const runs: string[] = [];
      const work = (proc: string): JobWork => async (_db, job, report) => {
        runs.push(job.id);
        await report(50, `half way on ${proc}`);
        // Give the other process every chance to take the same row meanwhile.
        await new Promise((r) => setImmediate(r));
        return { bytes: new TextEncoder().encode(`${job.id} by ${proc}`), contentType: 'text/plain', name: 'x.txt' };
      };
      const a = createJobRunner(dbA, { now: () => now, work: { statement: work('A') } });
      const b = createJobRunner(dbB, { now: () => now, work: { statement: work('B') } });
      const counts = await Promise.all([a.runNow(), b.runNow(), a.runNow(), b.runNow()]);
      expect(counts[0]! + counts[1]!).toBe(12);
      expect([...runs].sort()).toEqual([...ids].sort());
      const rows = await dbB.query<{ state: string; attempts: number; progress: number; n: number }>(
        `SELECT j.state, j.attempts, j.progress, length(f.bytes) AS n FROM async_jobs j JOIN async_job_files f ON f.job_id = j.id WHERE j.business_id = $1`,
        [f.businessId],
      );
      expect(rows).toHaveLength(12);
      expect(rows.every((r) => r.state === 'done' && r.attempts === 1 && r.progress === 100 && Number(r.n) > 0)).toBe(true);
    });
  });
});
