import { z } from 'zod';
import type { Card } from './entities/card.ts';
import { EXPORT_COLUMNS, exportCell, type ExportColumn, type ExportNames } from './exports.ts';
import { minorToDecimal } from './money.ts';
import { REPORT_COLLECTIONS, type ReportCollection } from './report-query.ts';
import { CARD_STATUSES } from './entities/card.ts';

/**
 * Export table user-settings (issue 32, §7 "export table user-settings"): per person and per
 * table, which columns go into that table's CSV export and in which order. A column is named by a
 * key made from its header ("Last four" → `last_four`), so a stored choice survives a new column
 * being added (it is simply not chosen) and a column that no longer exists is dropped on read.
 * The tables are the four list exports (schema/exports.ts) and the primary-cards export below.
 */
const EXPORT_TABLES = [...REPORT_COLLECTIONS, 'primary_cards'] as const;
export type ExportTable = (typeof EXPORT_TABLES)[number];
export const exportTableSchema = z.enum(EXPORT_TABLES);

/** "Last four" → "last_four": a column's stable name. */
const columnKey = (header: string): string => header.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');

/** Each key is 1–40 lowercase letters, digits or underscores. */
const columnKeySchema = z.string().regex(/^[a-z0-9_]{1,40}$/);

/** What PUT sends: the chosen columns in order, at least one, no repeats (checked per table by the server). */
export const exportSettingsBodySchema = z.object({
  columns: z.array(columnKeySchema).min(1).max(40).refine((c) => new Set(c).size === c.length, { message: 'columns must not repeat' }),
});

const exportColumnOptionSchema = z.object({ key: columnKeySchema, header: z.string() });

/** The caller's columns of one table (the default order when nothing is saved), and every column it offers. */
export const exportSettingsSchema = z.object({
  table: exportTableSchema,
  columns: z.array(columnKeySchema),
  available: z.array(exportColumnOptionSchema),
  customized: z.boolean(),
  updated_at: z.iso.datetime({ offset: true }).nullable(),
});
export type ExportSettings = z.infer<typeof exportSettingsSchema>;

/** A person's primary card as the primary-cards export reads it. */
export interface PrimaryCardRow {
  card: Pick<Card, 'id' | 'display_name' | 'last_four' | 'status' | 'limit' | 'is_physical' | 'expires'>;
  cardholder: string;
  email: string;
  department_id: string | null;
  location_id: string | null;
}

/** §7 "export of primary cards (query)": each person's primary card. */
const PRIMARY_CARD_COLUMNS: readonly ExportColumn<PrimaryCardRow>[] = [
  { header: 'Cardholder', value: (r) => r.cardholder },
  { header: 'Email', value: (r) => r.email },
  { header: 'Department', value: (r, n) => n.name('departments', r.department_id) },
  { header: 'Location', value: (r, n) => n.name('locations', r.location_id) },
  { header: 'Card', value: (r) => r.card.display_name },
  { header: 'Last four', value: (r) => r.card.last_four ?? '' },
  { header: 'Type', value: (r) => (r.card.is_physical ? 'Physical' : 'Virtual') },
  { header: 'Status', value: (r) => r.card.status },
  { header: 'Limit', value: (r) => minorToDecimal(r.card.limit.amount, r.card.limit.currency), kind: 'number' },
  { header: 'Currency', value: (r) => r.card.limit.currency },
  { header: 'Interval', value: (r) => r.card.limit.interval },
  { header: 'Expires', value: (r) => r.card.expires ?? '' },
  { header: 'Card ID', value: (r) => r.card.id },
];

/** The primary-cards query: the cardholder's department, the card's status, words of name, email, card name or last four. */
export const primaryCardQuerySchema = z.object({
  department_id: z.uuid().optional(),
  status: z.enum(CARD_STATUSES).optional(),
  q: z.string().trim().max(200).optional(),
});
export type PrimaryCardQuery = z.infer<typeof primaryCardQuerySchema>;

/** A table's columns, each with its key. */
function tableColumns(table: ExportTable): readonly (ExportColumn<never> & { key: string })[] {
  const cols = (table === 'primary_cards' ? PRIMARY_CARD_COLUMNS : EXPORT_COLUMNS[table as ReportCollection]) as readonly ExportColumn<never>[];
  return cols.map((c) => ({ ...c, key: columnKey(c.header) }));
}

export const availableColumns = (table: ExportTable) => tableColumns(table).map(({ key, header }) => ({ key, header }));
export const defaultColumnKeys = (table: ExportTable): string[] => tableColumns(table).map((c) => c.key);

/** Keys the table does not have (a PUT naming one is refused). */
export const unknownColumnKeys = (table: ExportTable, keys: readonly string[]): string[] => {
  const known = new Set(defaultColumnKeys(table));
  return keys.filter((k) => !known.has(k));
};

/**
 * The columns a stored choice names, in its order, those that no longer exist dropped; none left
 * (or no choice) is every column in the default order.
 */
export function chosenColumns<R>(table: ExportTable, keys: readonly string[] | null | undefined): readonly ExportColumn<R>[] {
  const all = tableColumns(table);
  const byKey = new Map(all.map((c) => [c.key, c]));
  const picked = (keys ?? []).map((k) => byKey.get(k)).filter((c) => c !== undefined);
  return (picked.length > 0 ? picked : all) as unknown as readonly ExportColumn<R>[];
}

/** A header line and each row's cells for the chosen columns. */
export const headerOf = (columns: readonly ExportColumn<never>[]): string[] => columns.map((c) => c.header);
export function cellsOf<R>(columns: readonly ExportColumn<R>[], row: R, names: ExportNames): string[] {
  return columns.map((col) => exportCell(col.value(row, names), col.kind));
}
