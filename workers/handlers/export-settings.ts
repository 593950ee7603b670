import {
  deleteExportSettings, exportPrimaryCards, getExportSettings, putExportSettings,
} from '../../schema/api/calls-export-settings.ts';
import {
  availableColumns, defaultColumnKeys, exportSettingsSchema, type ExportSettings, type ExportTable, type PrimaryCardQuery,
} from '../../schema/export-settings.ts';
import type { MirrorDatabase } from '../db.ts';
import type { OnlineFailure } from '../contracts/views.ts';
import { answerOf, bindDomain, custom, offlineFailure, onlineDomain, type OnlineApi, type OnlinePort } from '../online.ts';

/** Refused before any request: the settings live on the server. */
const EXPORT_SETTINGS_OFFLINE = offlineFailure('You’re offline. Export columns are saved on the server and need a connection: nothing was sent.');

/** What this domain reads of the mirror: its meta store (the settings are not a mirrored collection). */
type MetaRuntime = { readonly db: Pick<MirrorDatabase, 'meta'> };
type ExportSettingsPort = OnlinePort & { readonly host: { readonly runtime: MetaRuntime | null } };

/** The caller's settings per table, kept in the mirror's `meta` so an offline export keeps the chosen columns. */
const exportSettingsCacheId = (table: ExportTable) => `export_settings:${table}`;

type ExportSettingsResult = { ok: true; settings: ExportSettings; fromCache: boolean } | OnlineFailure;

/** The settings kept on the device, or null. */
export async function cachedExportSettings(runtime: MetaRuntime | null, table: ExportTable): Promise<ExportSettings | null> {
  const doc = runtime ? await runtime.db.meta.findOne(exportSettingsCacheId(table)).exec() : null;
  const parsed = exportSettingsSchema.safeParse(doc?.value);
  return parsed.success ? parsed.data : null;
}

/** Every column, in the default order (nothing saved, nothing cached). */
const defaults = (table: ExportTable): ExportSettings =>
  ({ table, columns: defaultColumnKeys(table), available: availableColumns(table), customized: false, updated_at: null });

/**
 * Issue 32: export table user-settings and the primary-cards export
 * (schema/api/calls-export-settings.ts). Reading falls back to the copy on the device, then to
 * the default columns, so the Export buttons work offline; saving and the primary-cards file are
 * online only. Every answer from the server replaces the device's copy.
 */
const EXPORT_SETTINGS_DOMAIN = (port: ExportSettingsPort) => {
  const keep = async (settings: ExportSettings) => {
    await port.host.runtime?.db.meta.upsert({ id: exportSettingsCacheId(settings.table), value: settings });
    return { ok: true as const, settings, fromCache: false };
  };
  return onlineDomain(EXPORT_SETTINGS_OFFLINE, {
    exportSettings: custom((send) => async (table: ExportTable): Promise<ExportSettingsResult> => {
      const r = await send(getExportSettings, { params: { table } });
      if (r.ok) return keep(r.data);
      if (!r.offline) return r;
      const cached = await cachedExportSettings(port.host.runtime, table);
      return { ok: true, settings: cached ?? defaults(table), fromCache: true };
    }),
    saveExportSettings: custom((send) => async (table: ExportTable, columns: string[]): Promise<ExportSettingsResult> => {
      const r = await send(putExportSettings, { params: { table }, body: { columns } });
      return r.ok ? keep(r.data) : r;
    }),
    resetExportSettings: custom((send) => async (table: ExportTable): Promise<ExportSettingsResult> => {
      const r = await send(deleteExportSettings, { params: { table } });
      return r.ok ? keep(r.data) : r;
    }),
    /** The primary-cards CSV of a query (owners and admins), as a Blob. */
    primaryCardsCsv: custom((_send, p, offline) => async (query: PrimaryCardQuery): Promise<{ ok: true; file: Blob } | OnlineFailure> => {
      if (!p.hub.online) return offline;
      const r = answerOf(p, await p.requireHttp().blob(exportPrimaryCards, { query }), offline);
      return r.ok ? { ok: true, file: r.data } : r;
    }),
  });
};

export type ExportSettingsApi = OnlineApi<ReturnType<typeof EXPORT_SETTINGS_DOMAIN>>;

export const exportSettingsWorkerHandlers = (port: ExportSettingsPort): ExportSettingsApi => bindDomain(port, EXPORT_SETTINGS_DOMAIN(port));
