import { z } from 'zod';
import { exportSettingsBodySchema, exportSettingsSchema, exportTableSchema, primaryCardQuerySchema } from '../export-settings.ts';
import { callGroup } from './call-group.ts';

/**
 * Issue 32: export table user-settings (§7 "export table user-settings") and the primary-cards
 * export (§7 "export of primary cards (query)"). Listed in EXPORT_SETTINGS_CALLS; the catalogue
 * (calls.ts) includes them.
 */
const group = callGroup('/v1/auth', { scopes: ['default'] });
const params = z.object({ table: exportTableSchema });

/** The caller's columns of one table's CSV export (every column, in the default order, when none are saved). */
export const getExportSettings = group('exportSettings.get', 'GET', '/export-settings/:table', { params, response: exportSettingsSchema });

/** Saves the caller's columns (and their order) for one table; a key the table lacks is refused (422). */
export const putExportSettings = group('exportSettings.put', 'PUT', '/export-settings/:table', {
  params,
  body: exportSettingsBodySchema,
  response: exportSettingsSchema,
});

/** Back to every column in the default order; answers the settings as they now are. */
export const deleteExportSettings = group('exportSettings.delete', 'DELETE', '/export-settings/:table', { params, response: exportSettingsSchema });

/**
 * Owners and admins: a CSV of each person's primary live card matching the query (cardholder's
 * department, card status, words of the name, email, card name or last four), in the caller's
 * `primary_cards` columns, by cardholder name.
 */
export const exportPrimaryCards = group('primaryCards.export', 'GET', '/primary-cards/export', {
  query: primaryCardQuerySchema,
  response: z.string(),
});

export const EXPORT_SETTINGS_CALLS = [getExportSettings, putExportSettings, deleteExportSettings, exportPrimaryCards] as const;
