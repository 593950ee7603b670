import { z } from 'zod';

/**
 * Issue 32: async jobs, work the server does after answering (statements today; exports and
 * imports later), each the signed-in person's own. Wire shapes shared by the server, the data
 * worker and the jobs tray.
 */
/** `bill_export`: the Bills query as a CSV (issue 32, POST /bill-pay/export-as-file). */
export const JOB_KINDS = ['statement', 'bill_export'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/**
 * What a caller sees of a job's life: `queued` (waiting, or waiting for a retry after a failed
 * attempt), `running` (a process holds it), then `done`, `failed` or `canceled` for good.
 */
export const JOB_STATES = ['queued', 'running', 'done', 'failed', 'canceled'] as const;
export type JobState = (typeof JOB_STATES)[number];

export const asyncJobSchema = z.object({
  id: z.uuid(),
  kind: z.enum(JOB_KINDS),
  /** Words for the job: "Statement · October 2026 · Acme · PDF". */
  title: z.string(),
  state: z.enum(JOB_STATES),
  /** 0–100, and what is being done: "Reading card transactions". */
  progress: z.number().int().min(0).max(100),
  progress_text: z.string(),
  /** The result, once done: a download at GET /v1/auth/async-jobs/:id/file. */
  file: z.object({ name: z.string(), content_type: z.string(), size: z.number().int().nonnegative() }).nullable(),
  /** Why it failed (or why the last attempt failed while it waits for a retry). */
  error: z.string().nullable(),
  attempts: z.number().int().nonnegative(),
  created_at: z.iso.datetime({ offset: true }),
  finished_at: z.iso.datetime({ offset: true }).nullable(),
});
export type AsyncJob = z.infer<typeof asyncJobSchema>;

export const asyncJobListSchema = z.object({ data: z.array(asyncJobSchema) });
export type AsyncJobList = z.infer<typeof asyncJobListSchema>;

/** A job still moving: the tray polls only while one is. */
export const isJobActive = (job: Pick<AsyncJob, 'state'>) => job.state === 'queued' || job.state === 'running';
