import { vendorCreateBodySchema, type BulkVendorRow, type VendorCreateBody } from './api/calls-vendors.ts';
import { validationMessages } from './errors.ts';
import { checkVendorAddress, repeatedNameRows } from './vendor-rules.ts';

/**
 * A bulk-upload row (spreadsheet columns) as a create body, or its field messages under the
 * row's column names. Blank cells are absent values; an address is present when any of its
 * columns is filled, and then it must be whole (a half address would print on a check).
 */
export type RowResult = { ok: true; body: VendorCreateBody } | { ok: false; errors: Record<string, string> };

const blank = (v: string | undefined) => (v === undefined || v.trim() === '' ? null : v.trim());
const ADDRESS_COLUMNS = ['address_line1', 'address_line2', 'city', 'state', 'postal_code', 'country'] as const;
/** Body paths back to the column a spreadsheet user sees. */
const COLUMN_OF: Record<string, string> = {
  'address.line1': 'address_line1', 'address.line2': 'address_line2', 'address.city': 'city', 'address.state': 'state',
  'address.postal_code': 'postal_code', 'address.country': 'country',
};

export function vendorFromRow(row: BulkVendorRow): RowResult {
  const hasAddress = ADDRESS_COLUMNS.some((c) => blank(row[c]) !== null);
  const input = {
    name: blank(row.name) ?? undefined,
    email: blank(row.email),
    phone: blank(row.phone),
    address: hasAddress
      ? {
        line1: blank(row.address_line1) ?? undefined, line2: blank(row.address_line2), city: blank(row.city) ?? undefined,
        state: blank(row.state)?.toUpperCase() ?? null, postal_code: blank(row.postal_code) ?? undefined,
        country: blank(row.country)?.toUpperCase() ?? undefined,
      }
      : null,
  };
  const parsed = vendorCreateBodySchema.safeParse(input);
  if (!parsed.success) {
    const messages = validationMessages(parsed.error, input);
    return { ok: false, errors: Object.fromEntries(Object.entries(messages).map(([path, m]) => renamed(path, m))) };
  }
  const address = checkVendorAddress(parsed.data.address);
  if (!address.ok) return { ok: false, errors: { state: address.message } };
  return { ok: true, body: parsed.data };
}

function renamed(path: string, message: string): [string, string] {
  const column = COLUMN_OF[path];
  return column ? [column, message.replace(path, column)] : [path, message];
}

/** Every row's result, with a name repeated within the upload refused on each later row. */
export function vendorsFromRows(rows: readonly BulkVendorRow[]): RowResult[] {
  const results = rows.map(vendorFromRow);
  const repeats = repeatedNameRows(rows.map((r) => r.name ?? ''));
  return results.map((r, i) => {
    const first = repeats.get(i + 1);
    if (first === undefined || blank(rows[i]!.name) === null) return r;
    const errors = r.ok ? {} : r.errors;
    return { ok: false, errors: { ...errors, name: `name repeats row ${first}` } };
  });
}

