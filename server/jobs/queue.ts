import { randomUUID } from 'node:crypto';
import type { AsyncJob, JobKind } from '../../schema/jobs.ts';
import { isAdmin } from '../../schema/roles.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError } from '../core/errors.ts';
import { doublingBackoff, type LeasedQueue } from '../core/leased-queue.ts';
import type { Queryable } from '../db/db.ts';

/**
 * Issue 32: the async job rows (migration 077) on the shared lease primitive. A job is the
 * signed-in person's own: they list, read and cancel it; its file is theirs or an admin's.
 */
export const ASYNC_JOBS: LeasedQueue = {
  table: 'async_jobs',
  leaseMs: 60_000,
  maxAttempts: 3,
  backoffMs: doublingBackoff(30_000, 10 * 60_000),
};

/** NOTIFYed in the enqueuing transaction, so listeners hear of a job only once it is committed. */
export const JOBS_CHANNEL = 'ledgerline_async_jobs';

export type JobRow = {
  id: string;
  business_id: string;
  requested_by: string;
  kind: JobKind;
  params: Record<string, unknown>;
  attempts: number;
};

/** Adds a job in `tx` (the request's transaction) and announces it at commit. */
export async function enqueueJob(
  tx: Queryable, user: ActingUser, kind: JobKind, params: Record<string, unknown>, now: Date,
): Promise<AsyncJob> {
  const id = randomUUID();
  await tx.query(
    `INSERT INTO async_jobs (id, business_id, requested_by, kind, params, run_after, created_at, progress_text)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $6, 'Waiting to start')`,
    [id, user.business_id, user.id, kind, JSON.stringify(params), now.toISOString()],
  );
  await tx.query('SELECT pg_notify($1, $2)', [JOBS_CHANNEL, id]);
  return (await readJob(tx, user.business_id, id, now))!;
}

/** The wire doc of a row of alias `j`: `running` is a queued row under a live lease. */
const JOB_DOC = `jsonb_build_object(
  'id', j.id, 'kind', j.kind, 'title', coalesce(j.params ->> 'title', j.kind),
  'state', CASE WHEN j.state = 'queued' AND j.leased_until > $NOW::timestamptz THEN 'running' ELSE j.state END,
  'progress', j.progress, 'progress_text', j.progress_text,
  'file', CASE WHEN j.result_name IS NULL THEN NULL
          ELSE jsonb_build_object('name', j.result_name, 'content_type', j.result_type, 'size', j.result_size) END,
  'error', j.last_error, 'attempts', j.attempts,
  'created_at', ll_iso(j.created_at), 'finished_at', ll_iso(j.finished_at))`;

const docAt = (param: string) => JOB_DOC.replaceAll('$NOW', param);

async function readJob(db: Queryable, businessId: string, id: string, now: Date): Promise<AsyncJob | null> {
  const rows = await db.query<{ doc: AsyncJob; }>(
    `SELECT ${docAt('$3')} AS doc FROM async_jobs j WHERE j.business_id = $1 AND j.id = $2`,
    [businessId, id, now.toISOString()],
  );
  return rows[0]?.doc ?? null;
}

const notFound = () => new ApiError('REQUEST_7004', 'No such job.');

/** The caller's own job, else 404 (another person's or business's job is not theirs to see). */
export async function findOwnJob(db: Queryable, user: ActingUser, id: string, now: Date): Promise<AsyncJob> {
  const rows = await db.query<{ doc: AsyncJob }>(
    `SELECT ${docAt('$4')} AS doc FROM async_jobs j WHERE j.business_id = $1 AND j.id = $2 AND j.requested_by = $3`,
    [user.business_id, id, user.id, now.toISOString()],
  );
  if (!rows[0]) throw notFound();
  return rows[0].doc;
}

/** The caller's jobs of the last 7 days, newest first, at most 20. */
export async function listOwnJobs(db: Queryable, user: ActingUser, now: Date): Promise<AsyncJob[]> {
  const rows = await db.query<{ doc: AsyncJob }>(
    `SELECT ${docAt('$3')} AS doc FROM async_jobs j
      WHERE j.business_id = $1 AND j.requested_by = $2 AND j.created_at > $3::timestamptz - interval '7 days'
      ORDER BY j.created_at DESC, j.id DESC LIMIT 20`,
    [user.business_id, user.id, now.toISOString()],
  );
  return rows.map((r) => r.doc);
}

/** A finished job's file: its requester's, or any admin's of the business. */
export async function jobFile(
  db: Queryable, user: ActingUser, id: string,
): Promise<{ bytes: Uint8Array; name: string; contentType: string }> {
  const rows = await db.query<{ requested_by: string; state: string; result_name: string | null; result_type: string | null; bytes: Uint8Array | null }>(
    `SELECT j.requested_by::text, j.state, j.result_name, j.result_type, f.bytes
       FROM async_jobs j LEFT JOIN async_job_files f ON f.job_id = j.id
      WHERE j.business_id = $1 AND j.id = $2`,
    [user.business_id, id],
  );
  const row = rows[0];
  if (!row || (row.requested_by !== user.id && !isAdmin(user))) throw notFound();
  if (row.state !== 'done' || !row.bytes || !row.result_name || !row.result_type) {
    throw new ApiError('REQUEST_7004', 'This job has no file yet.');
  }
  return { bytes: row.bytes, name: row.result_name, contentType: row.result_type };
}

/**
 * Cancels the caller's job while no process runs it (waiting to start, or waiting for a retry).
 * A running or finished job answers 422 (nothing to cancel), an unknown one 404.
 */
export async function cancelOwnJob(db: Queryable, user: ActingUser, id: string, now: Date): Promise<AsyncJob> {
  const at = now.toISOString();
  const rows = await db.query<{ id: string }>(
    `UPDATE async_jobs SET state = 'canceled', finished_at = $4, progress_text = 'Canceled'
      WHERE business_id = $1 AND id = $2 AND requested_by = $3 AND state = 'queued'
        AND (leased_until IS NULL OR leased_until <= $4::timestamptz)
      RETURNING id`,
    [user.business_id, id, user.id, at],
  );
  const job = await findOwnJob(db, user, id, now);
  if (rows.length === 0) {
    throw new ApiError('REQUEST_7001', job.state === 'running' ? 'This job is running and can no longer be canceled.' : `This job is already ${job.state}.`);
  }
  return job;
}
