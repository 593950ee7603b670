import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { Context } from 'hono';
import {
  deleteDashboards, deleteReports, exportAsFile, exportTransactions, generateReport, saveDashboard, saveReport,
} from '../../schema/api/calls-reporting.ts';
import type { RowOf } from '../../schema/collections.ts';
import { exportFileName, type ExportColumn } from '../../schema/exports.ts';
import type { ReportCollection } from '../../schema/reports.ts';
import { exportColumnsOf } from '../domain/export-settings.ts';
import { businessNames, collectionPages, csvStream, transactionPages, type PageReader } from '../domain/reporting/export.ts';
import { generateReport as report } from '../domain/reporting/report.ts';
import { acceptedEncodings, compressStream } from '../http/encoding.ts';
import * as saved from '../domain/reporting/saved.ts';
import { fileHeaders } from '../http/file-headers.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { inWriteTx } from './admin.ts';

/**
 * §7 Reporting (issue 12): reports in SQL over the caller's visible rows; saved reports and
 * dashboards, the caller's own (201 when a save creates, 200 when it updates).
 */
export const reportingHandlers = {
  [generateReport.id]: async (ctx) => ok({ rows: await report(ctx.db, actorOf(ctx).user, ctx.input.body, new Date(ctx.deps.now())) }),
  [saveReport.id]: async (ctx) => {
    const { row, created } = await saved.saveReport(ctx.db, actorOf(ctx).user, ctx.input.body, new Date(ctx.deps.now()));
    return ok(row, created ? 201 : 200);
  },
  [saveDashboard.id]: async (ctx) => {
    const { row, created } = await saved.saveDashboard(ctx.db, actorOf(ctx).user, ctx.input.body, new Date(ctx.deps.now()));
    return ok(row, created ? 201 : 200);
  },
  // DELETE is not run in a transaction by register (no Idempotency-Key): each opens one.
  [deleteReports.id]: async (ctx) => {
    const user = actorOf(ctx).user;
    const now = new Date(ctx.deps.now());
    return ok(await inWriteTx(ctx, deleteReports, (tx) => saved.deleteReports(tx, user, ctx.input.body.ids, now)));
  },
  // Read-only POSTs (no transaction): every check runs before the first byte, then pages stream.
  [exportTransactions.id]: async (ctx) => {
    const user = actorOf(ctx).user;
    const pages = await transactionPages(ctx.db, user, ctx.input.body.filters, ctx.input.body.sort);
    const columns = await exportColumnsOf(ctx.db, user, 'transactions');
    return csvResponse(ctx.c, 'transactions', pages as PageReader<ReportCollection>, await businessNames(ctx.db, user.business_id), ctx.deps.now(), columns);
  },
  [exportAsFile.id]: async (ctx) => {
    const user = actorOf(ctx).user;
    const { collection, filters } = ctx.input.body;
    const pages = await collectionPages(ctx.db, user, collection, filters);
    const columns = await exportColumnsOf(ctx.db, user, collection);
    return csvResponse(ctx.c, collection, pages, await businessNames(ctx.db, user.business_id), ctx.deps.now(), columns);
  },
  [deleteDashboards.id]: async (ctx) => {
    const user = actorOf(ctx).user;
    const now = new Date(ctx.deps.now());
    return ok(await inWriteTx(ctx, deleteDashboards, (tx) => saved.deleteDashboards(tx, user, ctx.input.body.ids, now)));
  },
} satisfies DomainHandlers;

/**
 * The CSV attachment, compressed as it streams when the client accepts it. `no-transform` keeps
 * the answer-compressing middleware (http/encoding.ts), which buffers whole answers, away from it:
 * a 100k-row file must never sit in memory.
 */
function csvResponse(
  c: Context, collection: ReportCollection, pages: PageReader<ReportCollection>, names: Awaited<ReturnType<typeof businessNames>>, now: number,
  columns: readonly ExportColumn<RowOf<ReportCollection>>[],
) {
  const [encoding] = acceptedEncodings(c.req.header('accept-encoding'));
  const csv = csvStream(collection, pages, names, columns);
  const body = encoding
    ? (Readable.toWeb(Readable.fromWeb(csv as NodeReadableStream<Uint8Array>).pipe(compressStream(encoding))) as ReadableStream<Uint8Array>)
    : csv;
  return c.body(body, 200, {
    ...fileHeaders('text/csv; charset=utf-8', exportFileName(collection, new Date(now))),
    'cache-control': 'no-store, no-transform',
    vary: 'Accept-Encoding',
    ...(encoding && { 'content-encoding': encoding }),
  });
}
