import type { RowOf } from './collections.ts';
import type { Department } from './entities/department.ts';
import type { GlAccount } from './entities/gl-account.ts';
import type { Location } from './entities/location.ts';
import { fullName } from './entities/spend-user.ts';
import type { TrackingCategory } from './entities/tracking-category.ts';
import { minorToDecimal } from './money.ts';
import type { ReportCollection } from './report-query.ts';

/**
 * CSV exports of the tables (issue 12), defined once: each collection's columns (header and the
 * cell of a row), with names resolved for the ids a row holds (department, GL account, user, card,
 * vendor, tracking option). The server streams them (POST /transactions/export_as_file,
 * /reporting/export-as-file) and the worker will write the same columns for in-browser exports.
 * Money is a decimal string with the currency's exponent, dates ISO 8601, every cell safe to open
 * in a spreadsheet (`csvSafe`). Pure: rows in, strings out; CSV quoting is papaparse's job.
 */

export type ExportRefKind = 'departments' | 'locations' | 'gl_accounts' | 'users' | 'cards' | 'vendors';

/** Names for the ids in a row; an unknown or null id is an empty cell. */
export interface ExportNames {
  name(kind: ExportRefKind, id: string | null | undefined): string;
  /** "Category: Option" for one tracking pair. */
  tracking(categoryId: string, optionId: string): string;
}

/** What the names are read from: the mirror's reference data, or the server's tables. */
export interface ExportReference {
  departments: readonly Pick<Department, 'id' | 'name'>[];
  locations: readonly Pick<Location, 'id' | 'name'>[];
  gl_accounts: readonly Pick<GlAccount, 'id' | 'code' | 'name'>[];
  users: readonly { id: string; first_name: string; last_name: string }[];
  cards: readonly { id: string; display_name: string; last_four: string | null }[];
  vendors: readonly { id: string; name: string }[];
  tracking_categories: readonly Pick<TrackingCategory, 'id' | 'name' | 'options'>[];
}

export function exportNames(ref: ExportReference): ExportNames {
  const maps: Record<ExportRefKind, Map<string, string>> = {
    departments: new Map(ref.departments.map((d) => [d.id, d.name])),
    locations: new Map(ref.locations.map((l) => [l.id, l.name])),
    gl_accounts: new Map(ref.gl_accounts.map((g) => [g.id, `${g.code} ${g.name}`])),
    users: new Map(ref.users.map((u) => [u.id, fullName(u)])),
    cards: new Map(ref.cards.map((c) => [c.id, c.last_four ? `${c.display_name} (${c.last_four})` : c.display_name])),
    vendors: new Map(ref.vendors.map((v) => [v.id, v.name])),
  };
  const categories = new Map(ref.tracking_categories.map((c) => [c.id, { name: c.name, options: new Map(c.options.map((o) => [o.id, o.name])) }]));
  return {
    name: (kind, id) => (id ? (maps[kind].get(id) ?? '') : ''),
    tracking: (categoryId, optionId) => {
      const c = categories.get(categoryId);
      return c ? `${c.name}: ${c.options.get(optionId) ?? ''}` : '';
    },
  };
}

/** A plain number (an amount) is never a formula, even with its minus sign. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * A cell a spreadsheet will not run (OWASP "CSV injection"): text starting with = + - @ (or a tab
 * or carriage return, which some programs skip before reading one) gets a leading single quote.
 * Amounts like "-12.50" stay numbers.
 */
export function csvSafe(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) && !PLAIN_NUMBER.test(cell) ? `'${cell}` : cell;
}

export interface ExportColumn<R> {
  header: string;
  value: (row: R, names: ExportNames) => string;
}

const text = (v: string | null | undefined) => v ?? '';
const trackingOf = (tracking: Record<string, string>, names: ExportNames) =>
  Object.entries(tracking).map(([c, o]) => names.tracking(c, o)).filter(Boolean).join('; ');
/** The distinct names of a bill's lines under one coding, in line order. */
const linesOf = (b: RowOf<'bills'>, pick: (l: RowOf<'bills'>['line_items'][number], names: ExportNames) => string, names: ExportNames) =>
  [...new Set(b.line_items.map((l) => pick(l, names)).filter(Boolean))].join('; ');

export const EXPORT_COLUMNS: { readonly [C in ReportCollection]: readonly ExportColumn<RowOf<C>>[] } = {
  transactions: [
    { header: 'Date', value: (t) => t.occurred_at },
    { header: 'Merchant', value: (t) => t.merchant_name },
    { header: 'Merchant category', value: (t) => t.merchant_category },
    { header: 'Amount', value: (t) => minorToDecimal(t.amount, t.currency) },
    { header: 'Currency', value: (t) => t.currency },
    { header: 'State', value: (t) => t.state },
    { header: 'Cardholder', value: (t, n) => n.name('users', t.user_id) },
    { header: 'Card', value: (t, n) => n.name('cards', t.card_id) },
    { header: 'Memo', value: (t) => text(t.memo) },
    { header: 'GL account', value: (t, n) => n.name('gl_accounts', t.gl_account_id) },
    { header: 'Department', value: (t, n) => n.name('departments', t.department_id) },
    { header: 'Location', value: (t, n) => n.name('locations', t.location_id) },
    { header: 'Tracking', value: (t, n) => trackingOf(t.tracking, n) },
    { header: 'Receipts', value: (t) => String(t.receipt_ids.length) },
    { header: 'Transaction ID', value: (t) => t.id },
  ],
  reimbursements: [
    { header: 'Date', value: (r) => r.transaction_date },
    { header: 'Type', value: (r) => r.type },
    { header: 'Status', value: (r) => r.status },
    { header: 'Employee', value: (r, n) => n.name('users', r.user_id) },
    { header: 'Merchant', value: (r) => text(r.merchant) },
    { header: 'Amount', value: (r) => minorToDecimal(r.amount, r.currency) },
    { header: 'Currency', value: (r) => r.currency },
    { header: 'Memo', value: (r) => text(r.memo) },
    { header: 'GL account', value: (r, n) => n.name('gl_accounts', r.gl_account_id) },
    { header: 'Department', value: (r, n) => n.name('departments', r.department_id) },
    { header: 'Distance (miles)', value: (r) => (r.distance_miles === null ? '' : String(r.distance_miles)) },
    { header: 'Submitted at', value: (r) => text(r.submitted_at) },
    { header: 'Claim ID', value: (r) => r.id },
  ],
  bills: [
    { header: 'Invoice date', value: (b) => b.invoice_date },
    { header: 'Due date', value: (b) => b.due_date },
    { header: 'Vendor', value: (b, n) => n.name('vendors', b.vendor_id) },
    { header: 'Invoice number', value: (b) => b.invoice_number },
    { header: 'Amount', value: (b) => minorToDecimal(b.amount, b.currency) },
    { header: 'Currency', value: (b) => b.currency },
    { header: 'Status', value: (b) => b.status },
    { header: 'Payment date', value: (b) => text(b.payment_date) },
    { header: 'Memo', value: (b) => text(b.memo) },
    { header: 'GL accounts', value: (b, n) => linesOf(b, (l, nn) => nn.name('gl_accounts', l.gl_account_id), n) },
    { header: 'Departments', value: (b, n) => linesOf(b, (l, nn) => nn.name('departments', l.department_id), n) },
    { header: 'Created by', value: (b, n) => n.name('users', b.created_by) },
    { header: 'Bill ID', value: (b) => b.id },
  ],
  cards: [
    { header: 'Card', value: (c) => c.display_name },
    { header: 'Last four', value: (c) => text(c.last_four) },
    { header: 'Cardholder', value: (c, n) => n.name('users', c.user_id) },
    { header: 'Status', value: (c) => c.status },
    { header: 'Type', value: (c) => (c.is_physical ? 'Physical' : 'Virtual') },
    { header: 'Limit', value: (c) => minorToDecimal(c.limit.amount, c.limit.currency) },
    { header: 'Currency', value: (c) => c.limit.currency },
    { header: 'Interval', value: (c) => c.limit.interval },
    { header: 'Department', value: (c, n) => n.name('departments', c.department_id) },
    { header: 'Location', value: (c, n) => n.name('locations', c.location_id) },
    { header: 'Expires', value: (c) => text(c.expires) },
    { header: 'Created at', value: (c) => c.created_at },
    { header: 'Card ID', value: (c) => c.id },
  ],
};

export const exportHeader = (c: ReportCollection): string[] => EXPORT_COLUMNS[c].map((col) => col.header);

/** A row's cells, in the header's order, each `csvSafe`. */
export function exportRow<C extends ReportCollection>(c: C, row: RowOf<C>, names: ExportNames): string[] {
  return (EXPORT_COLUMNS[c] as readonly ExportColumn<RowOf<C>>[]).map((col) => csvSafe(col.value(row, names)));
}

/** `transactions-2026-11-27.csv`: the table and the UTC day of the export. */
export const exportFileName = (c: ReportCollection, now: Date): string => `${c}-${now.toISOString().slice(0, 10)}.csv`;
