import {
  cancelAsyncJob, createStatement, getAsyncJob, getAsyncJobFile, listAsyncJobs, listEntityEvents, listStatements,
} from '../../schema/api/calls-jobs.ts';
import { entityHistory } from '../domain/event-history/history.ts';
import { assertActivity, assertMonthEnded, statementScopeFor } from '../domain/statements/data.ts';
import { statementTitle } from '../domain/statements/job.ts';
import { listStatementOptions } from '../domain/statements/options.ts';
import { fileHeaders } from '../http/file-headers.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { cancelOwnJob, enqueueJob, findOwnJob, jobFile, listOwnJobs } from '../jobs/queue.ts';
import { kickJobs } from '../jobs/work.ts';
import { nowOf } from './bill-access.ts';

/** Issue 32: async jobs, statements and event history (schema/api/calls-jobs.ts). */
export const jobHandlers = {
  [listAsyncJobs.id]: async (ctx) => ok({ data: await listOwnJobs(ctx.db, actorOf(ctx).user, nowOf(ctx)) }),

  [getAsyncJob.id]: async (ctx) => ok(await findOwnJob(ctx.db, actorOf(ctx).user, ctx.input.params.job_id, nowOf(ctx))),

  [getAsyncJobFile.id]: async (ctx) => {
    const file = await jobFile(ctx.db, actorOf(ctx).user, ctx.input.params.job_id);
    // A copy of exactly the file: pg answers a bytea as a Buffer, whose slice() is a view that may
    // sit in Node's shared pool (a small file's `.buffer` would send the whole pool's bytes).
    return ctx.c.body(new Uint8Array(file.bytes).buffer, 200, {
      ...fileHeaders(file.contentType, file.name),
      'content-length': String(file.bytes.length),
      'cache-control': 'private, no-store',
    });
  },

  [cancelAsyncJob.id]: async (ctx) => ok(await cancelOwnJob(ctx.db, actorOf(ctx).user, ctx.input.params.job_id, nowOf(ctx))),

  [listStatements.id]: async (ctx) => ok(await listStatementOptions(ctx.db, actorOf(ctx).user, ctx.input.query.month, nowOf(ctx))),

  [createStatement.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const now = nowOf(ctx);
    const request = ctx.input.body;
    const scope = await statementScopeFor(ctx.db, user, request);
    assertMonthEnded(request.month, now);
    await assertActivity(ctx.db, scope);
    const what = request.scope === 'business'
      ? 'Business'
      : (await ctx.db.query<{ name: string; last_four: string | null }>('SELECT display_name AS name, last_four FROM cards WHERE id = $1', [request.card_id])
        .then(([c]) => `${c!.name}${c!.last_four ? ` ·· ${c!.last_four}` : ''}`));
    const job = await enqueueJob(ctx.db, user, 'statement', { request, scope, title: statementTitle(request.month, what, request.format) }, now);
    kickJobs(ctx.deps);
    return ok(job, 202);
  },

  [listEntityEvents.id]: async (ctx) => {
    const { entity_type, entity_id } = ctx.input.params;
    return ok(await entityHistory(ctx.db, actorOf(ctx).user, entity_type, entity_id, ctx.input.query));
  },
} satisfies DomainHandlers;
