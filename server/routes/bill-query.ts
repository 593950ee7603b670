import { billExportAsFile, billPagination, billQueryList, vendorPagination } from '../../schema/api/calls-bill-query.ts';
import { billQueryByIndex, billQueryPage } from '../domain/bill-query.ts';
import { vendorsByIndex } from '../domain/vendor-pages.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { kickJobs } from '../jobs/work.ts';
import { billManagerOf, nowOf } from './bill-access.ts';

/**
 * Issue 32: the server-side bill query, its page-index form and CSV export job, and the vendors'
 * page-index list (schema/api/calls-bill-query.ts). Bills: bill managers only (403 before any
 * read, as `bills.list`); vendors: every member (as `vendors.list`).
 */
export const billQueryHandlers = {
  [billQueryList.id]: async (ctx) => {
    const user = billManagerOf(ctx);
    const { filters, sort, page_size, start, include_count } = ctx.input.body;
    return ok(await billQueryPage(ctx.db, user.business_id, { filters, sort }, { pageSize: page_size, start, includeCount: include_count === true }));
  },

  [billPagination.id]: async (ctx) => {
    const user = billManagerOf(ctx);
    const { filters, sort, page_index, page_size } = ctx.input.body;
    return ok(await billQueryByIndex(ctx.db, user.business_id, { filters, sort }, { pageIndex: page_index, pageSize: page_size }));
  },

  // The job reads as its requester when it runs (domain/bill-export-job.ts); the answer is the job (202).
  [billExportAsFile.id]: async (ctx) => {
    const user = billManagerOf(ctx);
    const { filters, sort } = ctx.input.body;
    const job = await enqueueJob(ctx.db, user, 'bill_export', { query: { filters, sort }, title: 'Bills · CSV' }, nowOf(ctx));
    kickJobs(ctx.deps);
    return ok(job, 202);
  },

  [vendorPagination.id]: async (ctx) => {
    const { q, status, page_index, page_size } = ctx.input.body;
    return ok(await vendorsByIndex(ctx.db, actorOf(ctx).user, { q, status }, { pageIndex: page_index, pageSize: page_size }));
  },
} satisfies DomainHandlers;
