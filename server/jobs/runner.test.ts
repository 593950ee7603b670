/**
 * Issue 32: the async job runner on both databases: progress while working, a failure retried
 * after its backoff and given up after the last attempt (the error kept for the requester), a
 * final failure at once, and a run whose lease was taken over writes nothing.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../test-app.ts';
import { testDatabases } from '../test-db.ts';
import { makeBusiness, type Fixture } from '../test-fixtures.ts';
import { ASYNC_JOBS } from './queue.ts';
import { createJobRunner, FinalJobError, type JobWork } from './runner.ts';

describe.each(await testDatabases())('async job runner on %s', (kind) => {
  const t = useTestApp(kind);
  let f: Fixture;
  beforeAll(async () => {
    f = await makeBusiness(t.db, { transactions: 0 });
  });

  const add = async (at: number) => {
    const id = randomUUID();
    await t.db.query(
      `INSERT INTO async_jobs (id, business_id, requested_by, kind, params, run_after, created_at) VALUES ($1, $2, $3, 'statement', '{}', $4, $4)`,
      [id, f.businessId, f.users.admin, new Date(at).toISOString()],
    );
    return id;
  };
  const row = async (id: string) => (await t.db.query<{ state: string; attempts: number; last_error: string | null; progress: number; progress_text: string; run_after: string }>(
    'SELECT state, attempts, last_error, progress, progress_text, ll_iso(run_after) AS run_after FROM async_jobs WHERE id = $1', [id]))[0]!;

  it('retries a failing job after its backoff, then gives up with the error', async () => {
    let now = Date.parse('2027-01-01T00:00:00Z');
    const id = await add(now);
    const seen: string[] = [];
    const work: JobWork = async (_db, job, report) => {
      await report(40, 'Reading');
      seen.push((await row(job.id)).progress_text);
      throw new Error('The ledger is busy');
    };
    const runner = createJobRunner(t.db, { now: () => now, work: { statement: work } });
    expect(await runner.runNow()).toBe(1);
    expect(seen).toEqual(['Reading']);
    expect(await row(id)).toMatchObject({ state: 'queued', attempts: 1, last_error: 'The ledger is busy', progress_text: 'Failed; trying again shortly' });
    expect(await runner.runNow()).toBe(0);
    now += ASYNC_JOBS.backoffMs(1);
    expect(await runner.runNow()).toBe(1);
    now += ASYNC_JOBS.backoffMs(2);
    expect(await runner.runNow()).toBe(1);
    expect(await row(id)).toMatchObject({ state: 'failed', attempts: 3, last_error: 'The ledger is busy', progress_text: 'Failed' });
    now += ASYNC_JOBS.backoffMs(3);
    expect(await runner.runNow()).toBe(0);
  });

  it('fails at once on a final error', async () => {
    const now = Date.parse('2027-02-01T00:00:00Z');
    const id = await add(now);
    const runner = createJobRunner(t.db, { now: () => now, work: { statement: async () => { throw new FinalJobError('No statement is available.'); } } });
    await runner.runNow();
    expect(await row(id)).toMatchObject({ state: 'failed', attempts: 1, last_error: 'No statement is available.' });
  });

  it('stops a run whose lease another runner took over, and keeps that runner\'s result', async () => {
    let now = Date.parse('2027-03-01T00:00:00Z');
    const id = await add(now);
    const other = createJobRunner(t.db, {
      now: () => now,
      work: { statement: async () => ({ bytes: new TextEncoder().encode('second'), contentType: 'text/plain', name: 'b.txt' }) },
    });
    const slow: JobWork = async (_db, _job, report) => {
      // This process stalls past its lease; another takes the job and finishes it.
      now += ASYNC_JOBS.leaseMs + 1;
      await other.runNow();
      await report(80, 'Almost');
      return { bytes: new TextEncoder().encode('first'), contentType: 'text/plain', name: 'a.txt' };
    };
    await createJobRunner(t.db, { now: () => now, work: { statement: slow } }).runNow();
    expect(await row(id)).toMatchObject({ state: 'done', attempts: 2, progress: 100 });
    const [file] = await t.db.query<{ bytes: Uint8Array; result_name: string }>(
      'SELECT f.bytes, j.result_name FROM async_job_files f JOIN async_jobs j ON j.id = f.job_id WHERE j.id = $1', [id]);
    expect([Buffer.from(file!.bytes).toString(), file!.result_name]).toEqual(['second', 'b.txt']);
  });
});
