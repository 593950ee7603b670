import type { BulkRowResult } from '../../data-access/types.ts';

/**
 * The bulk upload's answer as the dialog shows it: one line per refused cell (row number as the
 * spreadsheet counts data rows, the column, the server's message) and the outcome in words.
 * The upload is all or nothing, so with any refused row nothing was created.
 */
export interface RowError {
  row: number;
  column: string;
  message: string;
}

export function rowErrors(results: readonly BulkRowResult[]): RowError[] {
  return results
    .filter((r) => !r.ok)
    .flatMap((r) => Object.entries(r.errors ?? { row: 'This row was refused.' }).map(([column, message]) => ({ row: r.row, column, message })))
    .sort((a, b) => a.row - b.row || a.column.localeCompare(b.column));
}

export function uploadOutcome(created: number, results: readonly BulkRowResult[]): string {
  const bad = new Set(results.filter((r) => !r.ok).map((r) => r.row)).size;
  if (bad === 0) return `${created} ${created === 1 ? 'vendor' : 'vendors'} created.`;
  const rows = `${bad} ${bad === 1 ? 'row has' : 'rows have'} errors`;
  return `${rows}, so no vendors were created. Fix ${bad === 1 ? 'it' : 'them'} in the file and upload it again.`;
}

/** The template's header row (schema/api/calls-vendors.ts `bulkVendorRowSchema`). */
export const CSV_COLUMNS = ['name', 'email', 'phone', 'address_line1', 'address_line2', 'city', 'state', 'postal_code', 'country'] as const;

/** At most this much text is read from a dropped file (the call's own limit). */
export { MAX_VENDOR_CSV_CHARS } from '../../../schema/api/calls-vendors.ts';
