import { cardName } from '../../schema/entities/card.ts';
import { aggregateReport, reportQuerySchema, type ReportQuery, type ReportRow } from '../../schema/reports.ts';
import type { ReportAnswer, ReportApi } from '../api.ts';
import { transactionReportOverColumns } from '../report-columns.ts';
import type { MirrorRuntime } from '../mirror-runtime.ts';
import type { WorkerContext } from '../worker-context.ts';


/**
 * Reports over the mirror (issue 12): the collection's engine matches the table filters (the
 * same compiled filters and text index as its list), then schema/reports.ts aggregates the rows
 * as shown, pending edits included. Nothing is cached: a 100k-row report is a few tens of
 * milliseconds, and the UI asks again when the mirror's data changes, which keeps it live.
 * Issue 33: a transactions report is aggregated over the engine's columns (report-columns.ts: no
 * row body read, the engine keeping only some in memory); by a tracking category it reads the
 * matching rows' bodies, those not in memory back from IndexedDB.
 */
export function reportHandlers(ctx: WorkerContext): ReportApi {
  return {
    async report(input: ReportQuery): Promise<ReportAnswer> {
      const parsed = reportQuerySchema.safeParse(input);
      if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
      const q = parsed.data;
      const rt = ctx.host.runtime;
      if (!rt) return { rows: [], labels: {}, scanned: 0, took_ms: 0 };
      if (!rt.isReady) await rt.ready;
      const t0 = performance.now();
      const { rows, scanned } = transactionReportOverColumns(rt.engines.transactions, q) ?? (await overBodies(rt, q));
      const labels: Record<string, string> = {};
      if (q.dimension === 'card') {
        for (const r of rows) {
          const card = r.key ? rt.engines.cards.get(r.key) : undefined;
          if (card && r.key) labels[r.key] = cardName(card);
        }
      }
      return { rows, labels, scanned, took_ms: performance.now() - t0 };
    },
  };
}

/** The report over the matching rows as shown; an engine keeping only some bodies has the rest read back from IndexedDB (issue 33). */
async function overBodies(rt: MirrorRuntime, q: ReportQuery): Promise<{ rows: ReportRow[]; scanned: number }> {
  const matched = await rt.matchingRows(q.collection, q.filters ?? {});
  return { rows: aggregateReport(matched as never, q), scanned: matched.length };
}
