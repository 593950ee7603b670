import { cardName } from '../../schema/entities/card.ts';
import { aggregateReport, reportQuerySchema, type ReportQuery } from '../../schema/reports.ts';
import type { ReportAnswer, ReportApi } from '../api.ts';
import type { WorkerContext } from '../worker-context.ts';


/**
 * Reports over the mirror (issue 12): the collection's engine matches the table filters (the
 * same compiled filters and text index as its list), then schema/reports.ts aggregates the rows
 * as shown, pending edits included. Nothing is cached: a 100k-row report is a few tens of
 * milliseconds, and the UI asks again when the mirror's data changes, which keeps it live.
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
      // Rows as shown; an engine keeping only some bodies has the rest read back from IndexedDB (issue 33).
      const matched = await rt.matchingRows(q.collection, q.filters ?? {});
      const rows = aggregateReport(matched as never, q);
      const labels: Record<string, string> = {};
      if (q.dimension === 'card') {
        for (const r of rows) {
          const card = r.key ? rt.engines.cards.get(r.key) : undefined;
          if (card && r.key) labels[r.key] = cardName(card);
        }
      }
      return { rows, labels, scanned: matched.length, took_ms: performance.now() - t0 };
    },
  };
}
