import { generateReport } from '../../schema/api/calls-reporting.ts';
import { generateReport as report } from '../domain/reporting/report.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';

/** §7 Reporting (issue 12): reports in SQL over the caller's visible rows. */
export const reportingHandlers = {
  [generateReport.id]: async (ctx) => ok({ rows: await report(ctx.db, actorOf(ctx).user, ctx.input.body, new Date(ctx.deps.now())) }),
} satisfies DomainHandlers;
