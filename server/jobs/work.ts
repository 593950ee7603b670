import type { JobKind } from '../../schema/jobs.ts';
import type { AppDeps } from '../core/deps.ts';
import type { Db } from '../db/db.ts';
import { actingDb } from '../http/acting.ts';
import { runStatementJob } from '../domain/statements/job.ts';
import { runBillExportJob } from '../domain/bill-export-job.ts';
import { createJobRunner, FinalJobError, startJobRunner, type JobRunner, type JobWork, type StartedJobRunner } from './runner.ts';
import { JOBS_CHANNEL } from './queue.ts';

/** Every job kind's work (one entry per JOB_KINDS member: a missing kind does not compile). */
export function jobWork(now: () => number): Record<JobKind, JobWork> {
  return {
    statement: (db, job, report) => runStatementJob(db, job.params, report, new Date(now()), (m) => new FinalJobError(m)),
    bill_export: (db, job, report) => runBillExportJob(db, job, report, new Date(now()), (m) => new FinalJobError(m)),
  };
}

/**
 * `db` with every transaction marked as the system's: a runner kicked from a request holds that
 * request's acting database, whose transactions would otherwise name the requester.
 */
function systemDb(db: Db): Db {
  return actingDb(db, { userId: null, device: null });
}

const inApp = new WeakMap<object, JobRunner>();

/**
 * Makes sure this app runs the jobs it enqueues without waiting for the sweeper: the first
 * enqueue starts listening for the commit's NOTIFY (after the request's transaction, never inside
 * it: PGlite has one connection) and then looks once, in case the commit came first; later ones are
 * heard through the NOTIFY. Keyed by the app's notifier, one runner per app.
 */
export function kickJobs(deps: AppDeps): void {
  if (inApp.has(deps.notifier)) return;
  const runner = createJobRunner(systemDb(deps.db), {
    now: deps.now, work: jobWork(deps.now), onError: (err) => console.error('Async job:', err),
  });
  inApp.set(deps.notifier, runner);
  const kick = () => void runner.runNow().catch((err: unknown) => console.error('Async jobs:', err));
  void deps.db.listen(JOBS_CHANNEL, kick).then(kick, (err: unknown) => console.error('Async jobs (listen):', err));
}

/** `npm start`'s runner: kicks on NOTIFY and sweeps every `everyMs` for retries and leftovers. */
export function startAsyncJobs(db: Db, opts: { now: () => number; everyMs: number; onError: (err: unknown) => void }): Promise<StartedJobRunner> {
  return startJobRunner(db, { ...opts, work: jobWork(opts.now) });
}

/** Runs this app's due jobs now and waits for them (tests; the request path never waits). */
export function runAppJobsNow(deps: AppDeps): Promise<number> {
  kickJobs(deps);
  return inApp.get(deps.notifier)!.runNow();
}
