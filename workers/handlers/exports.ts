import Papa from 'papaparse';
import { cellsOf, chosenColumns, headerOf } from '../../schema/export-settings.ts';
import { exportFileName, exportNames, type ExportColumn } from '../../schema/exports.ts';
import { cachedExportSettings } from './export-settings.ts';
import type { ReportCollection } from '../../schema/reports.ts';
import type { CsvExportAnswer, ExportApi } from '../api.ts';
import type { QueryEngine } from '../query-engine.ts';
import type { WorkerContext } from '../worker-context.ts';

/** Rows turned into CSV per step; progress is reported after each. */
const CHUNK = 5_000;
/** Excel reads a UTF-8 CSV as such only with a byte-order mark. */
const BOM = '\uFEFF';

/**
 * CSV exports of a table's current filter and sort, on the device (issue 12): the columns are
 * schema/exports.ts's (the server's exports use the same), those the person chose and in their
 * order (issue 32, schema/export-settings.ts, read from the device's copy of their settings), the rows the list shows (pending edits
 * included), written by papaparse a chunk at a time into a Blob the page saves as a file. Works
 * offline; the server's export_as_file is there for exports too large for the device.
 */
export function exportHandlers(ctx: WorkerContext): ExportApi {
  return {
    async exportCsv(collection, filter, sort, onProgress): Promise<CsvExportAnswer> {
      const rt = ctx.host.runtime;
      if (!rt) return { ok: false, message: 'Sign in to export.' };
      if (!rt.isReady) await rt.ready;
      const t0 = performance.now();
      const refs = rt.referenceData();
      const cards = (rt.engines.cards as unknown as QueryEngine<{ id: string; display_name: string; last_four: string | null }, Record<string, unknown>, string>).matchingRows({});
      const names = exportNames({ ...refs, cards });
      // The person's chosen columns (Columns… beside the button), as last read from the server.
      const columns = chosenColumns<never>(collection as ReportCollection, (await cachedExportSettings(rt, collection as ReportCollection))?.columns);
      const parts: string[] = [BOM + Papa.unparse([headerOf(columns)], { newline: '\r\n' }) + '\r\n'];
      const first = await rt.query(collection as never, { filter, sort, offset: 0, limit: CHUNK } as never);
      const total = first.total;
      // Right after a restart, the rows' bodies may still be on their way into memory: read once, not twice.
      await rt.bodiesFor(collection as never, total);
      let done = 0;
      let page = first;
      for (;;) {
        if (page.rows.length > 0) {
          const cells = page.rows.map((row) => cellsOf(columns as readonly ExportColumn<never>[], row as never, names));
          parts.push(Papa.unparse(cells, { newline: '\r\n', header: false }) + '\r\n');
        }
        done += page.rows.length;
        await onProgress?.(done, total);
        if (page.rows.length < CHUNK || done >= total) break;
        page = await rt.query(collection as never, { filter, sort, offset: done, limit: CHUNK } as never);
      }
      const file = new Blob(parts, { type: 'text/csv;charset=utf-8' });
      return { ok: true, file, name: exportFileName(collection as ReportCollection, new Date()), rows: done, took_ms: performance.now() - t0 };
    },
  };
}
