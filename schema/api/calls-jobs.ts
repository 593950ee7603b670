import { z } from 'zod';
import { callGroup } from './call-group.ts';
import { asyncJobListSchema, asyncJobSchema } from '../jobs.ts';
import { statementListSchema, statementMonthSchema, statementRequestSchema } from '../statements.ts';
import { EVENT_ENTITY_TYPES, entityHistorySchema } from '../event-history.ts';

/**
 * Issue 32: async jobs, statements and event history. Calls are declared here (defineCall) and listed in JOB_CALLS; the catalogue
 * (calls.ts) includes them.
 */
const group = callGroup('/v1/auth', { scopes: ['default'] });
const jobParams = z.object({ job_id: z.uuid() });

/** The caller's own jobs, newest first (the last 7 days, at most 20). */
export const listAsyncJobs = group('asyncJobs.list', 'GET', '/async-jobs', { response: asyncJobListSchema });
export const getAsyncJob = group('asyncJobs.get', 'GET', '/async-jobs/:job_id', { params: jobParams, response: asyncJobSchema });
/** The finished job's file (the requester, or an admin of the business). */
export const getAsyncJobFile = group('asyncJobs.file', 'GET', '/async-jobs/:job_id/file', { params: jobParams, response: z.string() });
/** Cancels a job no process has started (409 once it runs or has ended). */
export const cancelAsyncJob = group('asyncJobs.cancel', 'DELETE', '/async-jobs/:job_id', { params: jobParams, response: asyncJobSchema });

/** What statements a month has for the caller (default: the last ended month). */
export const listStatements = group('statements.list', 'GET', '/statements', {
  query: z.object({ month: statementMonthSchema.optional() }),
  response: statementListSchema,
});
/** Starts a statement job: 202 with the job; the file is the job's. */
export const createStatement = group('statements.create', 'POST', '/statements', { body: statementRequestSchema, response: asyncJobSchema });

export const listEntityEvents = group('eventHistory.list', 'GET', '/event-history/:entity_type/:entity_id', {
  retry: 'paged',
  params: z.object({ entity_type: z.enum(EVENT_ENTITY_TYPES), entity_id: z.uuid() }),
  query: z.object({
    page_size: z.coerce.number().int().min(1).max(100).default(50),
    start: z.string().regex(/^\d{1,19}$/, 'start must be a page cursor').optional(),
  }),
  response: entityHistorySchema,
});

export const JOB_CALLS = [
  listAsyncJobs, getAsyncJob, getAsyncJobFile, cancelAsyncJob, listStatements, createStatement, listEntityEvents,
] as const;
