import type { JobKind } from '../../schema/jobs.ts';
import { claimDue, completeLeased, extendLease, failLeased } from '../core/leased-queue.ts';
import { startPeriodicJob, type PeriodicJob, type PeriodicJobOptions } from '../core/periodic-job.ts';
import type { Db, Queryable } from '../db/db.ts';
import { applyActing } from '../http/acting.ts';
import { ASYNC_JOBS, JOBS_CHANNEL, type JobRow } from './queue.ts';

/** What a job makes: one file. */
export type JobFile = { bytes: Uint8Array; contentType: string; name: string };

/** Reports progress (0–100, a few words); false when the lease was lost and the work must stop. */
export type ReportProgress = (percent: number, text: string) => Promise<void>;

/** The work of one kind: reads with `db`, reports progress, answers the file or throws. */
export type JobWork = (db: Queryable, job: JobRow, report: ReportProgress) => Promise<JobFile>;

/** A failure retrying cannot mend (the month has no activity any more): the job fails at once. */
export class FinalJobError extends Error {}

/** Thrown by `report` when another process took the job over: this run stops without writing. */
class LeaseLost extends Error {}

/** `work`: jobWork's map (every kind); a map without a kind (a test's) fails that kind's jobs as unknown. */
export type JobRunnerOptions = { now: () => number; work: Readonly<Partial<Record<JobKind, JobWork>>>; onError?: (err: unknown) => void };

export interface JobRunner {
  /** Runs due jobs until none is left (at most `max`); answers how many it finished or failed. */
  runNow(max?: number): Promise<number>;
}

/**
 * Runs async jobs taken by lease: claim (its own statement, committed before the work), mark
 * started, work with progress (each report extends the lease), then store the file and complete
 * in one transaction, only if this claim still holds the row. A failure is retried with backoff
 * (leased-queue) up to ASYNC_JOBS.maxAttempts; the job's last error is what the requester sees.
 */
export function createJobRunner(db: Db, opts: JobRunnerOptions): JobRunner {
  const now = () => new Date(opts.now());
  let running: Promise<number> | null = null;
  let again = false;

  async function runOne(): Promise<boolean> {
    const [row] = await claimDue<JobRow>(db, ASYNC_JOBS, now(), 1);
    if (!row) return false;
    await db.query("UPDATE async_jobs SET started_at = coalesce(started_at, $2), progress = 0, progress_text = 'Starting' WHERE id = $1", [row.id, now().toISOString()]);
    const report: ReportProgress = async (percent, text) => {
      if (!(await extendLease(db, ASYNC_JOBS, row, now()))) throw new LeaseLost();
      await db.query('UPDATE async_jobs SET progress = $2, progress_text = $3 WHERE id = $1',
        [row.id, Math.max(0, Math.min(99, Math.round(percent))), text.slice(0, 200)]);
    };
    try {
      const work = opts.work[row.kind];
      if (!work) throw new FinalJobError(`Unknown job kind ${row.kind}.`);
      const file = await work(db, row, report);
      await db.transaction(async (tx) => {
        // Jobs are the system's own writes: nothing a trigger records names a person.
        await applyActing(tx, { userId: null, device: null });
        if (!(await completeLeased(tx, ASYNC_JOBS, row, now()))) throw new LeaseLost();
        await tx.query('INSERT INTO async_job_files (job_id, bytes) VALUES ($1, $2) ON CONFLICT (job_id) DO UPDATE SET bytes = excluded.bytes', [row.id, file.bytes]);
        await tx.query(
          `UPDATE async_jobs SET progress = 100, progress_text = 'Ready to download', result_name = $2, result_type = $3, result_size = $4 WHERE id = $1`,
          [row.id, file.name, file.contentType, file.bytes.length],
        );
      });
    } catch (err) {
      if (err instanceof LeaseLost) return true;
      const message = err instanceof Error ? err.message : String(err);
      const state = await failLeased(db, ASYNC_JOBS, row, now(), message, { final: err instanceof FinalJobError });
      if (state !== null) {
        await db.query('UPDATE async_jobs SET progress_text = $2 WHERE id = $1',
          [row.id, state === 'failed' ? 'Failed' : 'Failed; trying again shortly']);
      }
      if (!(err instanceof FinalJobError)) opts.onError?.(err);
    }
    return true;
  }

  async function drain(max: number): Promise<number> {
    let n = 0;
    do {
      again = false;
      while (n < max && (await runOne())) n++;
    } while (again && n < max);
    return n;
  }

  return {
    runNow(max = 50) {
      // One drain at a time in this process; a kick during a drain makes it look once more.
      if (running) {
        again = true;
        return running;
      }
      running = drain(max).finally(() => { running = null; });
      return running;
    },
  };
}

export type StartedJobRunner = JobRunner & { stop: () => Promise<void> };

/**
 * The process's job runner: kicked by the NOTIFY each enqueue sends at commit (every process
 * listening hears it; SKIP LOCKED gives the job to one), and swept every `everyMs` for retries
 * and jobs left by a crashed process. `npm start` runs it (server/main.ts).
 */
export async function startJobRunner(
  db: Db, opts: Omit<JobRunnerOptions, 'onError'> & PeriodicJobOptions,
): Promise<StartedJobRunner> {
  const runner = createJobRunner(db, opts);
  const kick = () => void runner.runNow().catch(opts.onError);
  const unlisten = await db.listen(JOBS_CHANNEL, kick);
  const sweep: PeriodicJob = startPeriodicJob(() => runner.runNow(), opts);
  return { runNow: runner.runNow, stop: async () => { await sweep.stop(); await unlisten(); } };
}
