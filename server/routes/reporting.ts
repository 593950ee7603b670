import {
  deleteDashboards, deleteReports, generateReport, saveDashboard, saveReport,
} from '../../schema/api/calls-reporting.ts';
import { generateReport as report } from '../domain/reporting/report.ts';
import * as saved from '../domain/reporting/saved.ts';
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
  [deleteDashboards.id]: async (ctx) => {
    const user = actorOf(ctx).user;
    const now = new Date(ctx.deps.now());
    return ok(await inWriteTx(ctx, deleteDashboards, (tx) => saved.deleteDashboards(tx, user, ctx.input.body.ids, now)));
  },
} satisfies DomainHandlers;
