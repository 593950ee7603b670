import { z } from 'zod';
import { callGroup } from './call-group.ts';
import { billFilterSchema, billSchema, billSortSchema, billStatusSchema } from '../entities/bill.ts';
import { vendorSchema } from '../entities/vendor.ts';
import { currencyCodeSchema } from '../money.ts';
import { DEFAULT_PAGE_SIZE } from '../constants.ts';
import { asyncJobSchema } from '../jobs.ts';
import { paginatedSchema, pagingBodySchema } from '../paging.ts';
import { vendorListQuerySchema } from './calls-vendors.ts';

/**
 * Issue 32: the server-side bill and vendor queries (§7 Bill pay `bill-query-v2/list`,
 * `/pagination`, `/export-as-file`; Vendors `/pagination`). The bill query is the Bills screen's
 * own: the mirror's filter (`billFilterSchema`: search, statuses, vendors, entities) and sorts
 * (`billSortSchema`, with compareBills's tie-breaks), read by bill managers as `bills.list` is
 * (§6; anyone else 403). Reads are POSTs whose body is the query (`readOnly`: no Idempotency-Key).
 *
 * Two pagings (§5, §7): the keyset list (`start` = a `page.next`; a cursor that is not one of this
 * sort's is 422 REQUEST_7001 "start must be a valid cursor"), and the page-index form, whose
 * index is clamped between 0 and the last page (the answer says which page it is). A page index
 * that is not a whole number ≥ 0 is 422.
 */
const bills = callGroup('/v1/auth/bill-pay', { scopes: ['default'] });
const vendors = callGroup('/v1/auth/vendors', { scopes: ['default'] });

/** The Bills screen's query: its filter and sort, due soonest first by default. */
export const billQuerySchema = z.object({
  filters: billFilterSchema.default({}),
  sort: billSortSchema.default('due_date_asc'),
});
export type BillQuery = z.infer<typeof billQuerySchema>;

/** The largest page of the page-index form; past 10,000 pages a keyset list is the tool. */
const MAX_INDEX_PAGE_SIZE = 200;
const pageIndexSchema = z.object({
  /** 0-based; clamped to the last page (an empty result has one, empty, page 0). */
  page_index: z.number().int().min(0).max(10_000).default(0),
  page_size: z.number().int().min(1).max(MAX_INDEX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
});

/** Where a page-index answer is: the page served (after clamping), its size and how many pages there are. */
const pageIndexAnswerSchema = z.object({
  index: z.number().int().nonnegative(),
  size: z.number().int().positive(),
  count: z.number().int().nonnegative(),
  /** The index asked for, when clamping moved it (§5): the client shows the page it got. */
  requested_index: z.number().int().nonnegative().optional(),
});

/**
 * The matching bills' totals per currency (bills of several currencies are never added together),
 * and which statuses they include: the filter's statuses, or — with none — every status but
 * CANCELED (a canceled bill owes nothing).
 */
export const billTotalsSchema = z.object({
  statuses: z.array(billStatusSchema),
  by_currency: z.array(z.object({ currency: currencyCodeSchema, amount: z.number().int(), count: z.number().int().nonnegative() })),
});

export const billQueryList = bills('bills.query.list', 'POST', '/bill-query-v2/list', {
  readOnly: true, retry: 'paged',
  body: billQuerySchema.extend({ ...pagingBodySchema.shape, include_count: z.boolean().optional() }),
  response: paginatedSchema(billSchema),
});

export const billPagination = bills('bills.query.pagination', 'POST', '/pagination', {
  readOnly: true, retry: 'paged',
  body: billQuerySchema.extend(pageIndexSchema.shape),
  response: z.object({
    data: z.array(billSchema), page: pageIndexAnswerSchema, total_count: z.number().int().nonnegative(), totals: billTotalsSchema,
  }),
});

/** The same query as a CSV file made by an async job (202 with the job; the file is the job's). Bill managers only. */
export const billExportAsFile = bills('bills.query.exportAsFile', 'POST', '/export-as-file', {
  body: billQuerySchema, response: asyncJobSchema,
});

/** The vendors list's query (`vendors.list`: words over names and contacts, status) by page index, by name. */
export const vendorPagination = vendors('vendors.pagination', 'POST', '/pagination', {
  readOnly: true, retry: 'paged',
  body: z.object({ q: vendorListQuerySchema.shape.q, status: vendorListQuerySchema.shape.status, ...pageIndexSchema.shape }),
  response: z.object({ data: z.array(vendorSchema), page: pageIndexAnswerSchema, total_count: z.number().int().nonnegative() }),
});

export const BILL_QUERY_CALLS = [billQueryList, billPagination, billExportAsFile, vendorPagination] as const;
