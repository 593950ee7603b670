import Papa from 'papaparse';
import { MAX_BULK_VENDOR_ROWS, type BulkVendorRow } from '../../schema/api/calls-vendors.ts';

/** The template's columns, in its order (a CSV's header names them in any order). */
const VENDOR_CSV_COLUMNS = [
  'name', 'email', 'phone', 'address_line1', 'address_line2', 'city', 'state', 'postal_code', 'country',
] as const satisfies readonly (keyof BulkVendorRow)[];

export type CsvRows = { ok: true; rows: BulkVendorRow[] } | { ok: false; message: string };

/** "Postal Code" and " postal_code " both name the `postal_code` column. */
const columnKey = (header: string) => header.trim().toLowerCase().replace(/[\s-]+/g, '_');

/**
 * A vendor sheet's CSV text as bulk-upload rows, parsed with papaparse (quoted cells, commas and
 * line breaks inside quotes, a byte-order mark, CRLF). The header row names the columns; an
 * unknown or repeated column, a sheet without `name`, a malformed line or too many rows refuse
 * the whole file with a message naming what to fix — a file we half understood would create
 * half-right vendors.
 */
export function vendorRowsFromCsv(text: string, maxRows = MAX_BULK_VENDOR_ROWS): CsvRows {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { delimiter: ',', skipEmptyLines: 'greedy' });
  const broken = parsed.errors[0];
  if (broken) return { ok: false, message: `The CSV could not be read at row ${(broken.row ?? 0) + 1} (the header is row 1): ${broken.message}.` };
  const [header, ...lines] = parsed.data;
  if (!header || lines.length === 0) return { ok: false, message: 'The CSV has no vendor rows under its header row.' };
  const keys = header.map(columnKey);
  const known = new Set<string>(VENDOR_CSV_COLUMNS);
  const unknown = keys.filter((k) => !known.has(k));
  if (unknown.length > 0) {
    return { ok: false, message: `Unknown column ${unknown.map((k) => `"${k}"`).join(', ')}: the columns are ${VENDOR_CSV_COLUMNS.join(', ')}.` };
  }
  const repeated = keys.find((k, i) => keys.indexOf(k) !== i);
  if (repeated) return { ok: false, message: `The column "${repeated}" appears twice.` };
  if (!keys.includes('name')) return { ok: false, message: 'The CSV needs a "name" column.' };
  if (lines.length > maxRows) return { ok: false, message: `The CSV has ${lines.length} vendor rows; upload at most ${maxRows} at a time.` };
  const rows = lines.map((cells) => {
    const row: BulkVendorRow = {};
    keys.forEach((k, i) => {
      const v = cells[i];
      if (v !== undefined && v.trim() !== '') row[k as keyof BulkVendorRow] = v;
    });
    return row;
  });
  return { ok: true, rows };
}
