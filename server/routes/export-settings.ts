import Papa from 'papaparse';
import {
  deleteExportSettings, exportPrimaryCards, getExportSettings, putExportSettings,
} from '../../schema/api/calls-export-settings.ts';
import { cellsOf, headerOf, type PrimaryCardRow } from '../../schema/export-settings.ts';
import { businessNames } from '../domain/reporting/export.ts';
import {
  exportColumnsOf, exportSettingsOf, primaryCardRows, primaryCardsFileName, resetExportSettings, saveExportSettings,
} from '../domain/export-settings.ts';
import { fileHeaders } from '../http/file-headers.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';

const CRLF = '\r\n';
/** Excel reads a UTF-8 CSV as such only with a byte-order mark (as the device's exports write). */
const BOM = '\uFEFF';

/** Issue 32: export table user-settings and the primary-cards export (schema/api/calls-export-settings.ts). */
export const exportSettingsHandlers = {
  [getExportSettings.id]: async (ctx) => ok(await exportSettingsOf(ctx.db, actorOf(ctx).user, ctx.input.params.table)),

  [putExportSettings.id]: async (ctx) =>
    ok(await saveExportSettings(ctx.db, actorOf(ctx).user, ctx.input.params.table, ctx.input.body.columns, new Date(ctx.deps.now()))),

  [deleteExportSettings.id]: async (ctx) => ok(await resetExportSettings(ctx.db, actorOf(ctx).user, ctx.input.params.table)),

  [exportPrimaryCards.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const rows = await primaryCardRows(ctx.db, user, ctx.input.query);
    const columns = await exportColumnsOf<PrimaryCardRow>(ctx.db, user, 'primary_cards');
    const names = await businessNames(ctx.db, user.business_id);
    const lines = [headerOf(columns), ...rows.map((row) => cellsOf(columns, row, names))];
    const csv = BOM + Papa.unparse(lines, { newline: CRLF }) + CRLF;
    return ctx.c.body(csv, 200, {
      ...fileHeaders('text/csv; charset=utf-8', primaryCardsFileName(new Date(ctx.deps.now()))),
      'cache-control': 'private, no-store',
    });
  },
} satisfies DomainHandlers;
