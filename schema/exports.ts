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
 * in a spreadsheet (`exportCell`: text `formulaSafe`, amounts numbers). Pure: rows in, strings out; CSV quoting is papaparse's job.
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

/** What a number cell holds: a plain decimal (an amount, a count), its minus sign included. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
/**
 * A formula trigger after any leading whitespace a spreadsheet may skip (every Unicode space:
 * ASCII, no-break, ideographic U+3000, zero-width, BOM): = + - @ or their full-width forms
 * ＝ ＋ － ＠ (U+FF1D U+FF0B U+FF0D U+FF20), which spreadsheets in East Asian locales read as them.
 */
const FORMULA_START = /^[\s\u200b\u180e\ufeff]*[=+\-@\uff1d\uff0b\uff0d\uff20]/;
/** A tab or carriage return among the leading whitespace: some programs skip it and read what follows as a formula. */
const CONTROL_START = /^[\s\u200b\u180e\ufeff]*?[\t\r]/;

/**
 * A text cell a spreadsheet will not run (OWASP "CSV injection", issue 24 item 8): text that
 * starts, after any leading whitespace, with a formula trigger (ASCII or full-width), or whose
 * leading whitespace holds a tab or carriage return, gets a leading single quote. Every export
 * writer (the table CSVs here and in the worker, the accounting CSV, Xero CSV and QuickBooks IIF)
 * passes its text cells through this one function: text is always text, so a memo reading
 * "-12" is neutralised too. Amounts are not text: `exportCell(v, 'number')`.
 */
export function formulaSafe(text: string): string {
  return FORMULA_START.test(text) || CONTROL_START.test(text) ? `'${text}` : text;
}

/** Whether a column holds text (neutralised) or a number the export writes as one. */
export type CellKind = 'text' | 'number';

/**
 * An export cell by its column's kind: a number cell (an amount such as "-12.50", a count) is
 * written as is so spreadsheets and accounting imports read a number; a number cell that is not a
 * plain number (never produced by our writers) is treated as text. Everything else is `formulaSafe`.
 */
export function exportCell(value: string, kind: CellKind = 'text'): string {
  return kind === 'number' && (value === '' || PLAIN_NUMBER.test(value)) ? value : formulaSafe(value);
}

export interface ExportColumn<R> {
  header: string;
  value: (row: R, names: ExportNames) => string;
  /** 'number' for amounts and counts (written as numbers); text otherwise. */
  kind?: CellKind;
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
    { header: 'Amount', value: (t) => minorToDecimal(t.amount, t.currency), kind: 'number' },
    { header: 'Currency', value: (t) => t.currency },
    { header: 'State', value: (t) => t.state },
    { header: 'Cardholder', value: (t, n) => n.name('users', t.user_id) },
    { header: 'Card', value: (t, n) => n.name('cards', t.card_id) },
    { header: 'Memo', value: (t) => text(t.memo) },
    { header: 'GL account', value: (t, n) => n.name('gl_accounts', t.gl_account_id) },
    { header: 'Department', value: (t, n) => n.name('departments', t.department_id) },
    { header: 'Location', value: (t, n) => n.name('locations', t.location_id) },
    { header: 'Tracking', value: (t, n) => trackingOf(t.tracking, n) },
    { header: 'Receipts', value: (t) => String(t.receipt_ids.length), kind: 'number' },
    { header: 'Transaction ID', value: (t) => t.id },
  ],
  reimbursements: [
    { header: 'Date', value: (r) => r.transaction_date },
    { header: 'Type', value: (r) => r.type },
    { header: 'Status', value: (r) => r.status },
    { header: 'Employee', value: (r, n) => n.name('users', r.user_id) },
    { header: 'Merchant', value: (r) => text(r.merchant) },
    { header: 'Amount', value: (r) => minorToDecimal(r.amount, r.currency), kind: 'number' },
    { header: 'Currency', value: (r) => r.currency },
    { header: 'Memo', value: (r) => text(r.memo) },
    { header: 'GL account', value: (r, n) => n.name('gl_accounts', r.gl_account_id) },
    { header: 'Department', value: (r, n) => n.name('departments', r.department_id) },
    { header: 'Distance (miles)', value: (r) => (r.distance_miles === null ? '' : String(r.distance_miles)), kind: 'number' },
    { header: 'Submitted at', value: (r) => text(r.submitted_at) },
    { header: 'Claim ID', value: (r) => r.id },
  ],
  bills: [
    { header: 'Invoice date', value: (b) => b.invoice_date },
    { header: 'Due date', value: (b) => b.due_date },
    { header: 'Vendor', value: (b, n) => n.name('vendors', b.vendor_id) },
    { header: 'Invoice number', value: (b) => b.invoice_number },
    { header: 'Amount', value: (b) => minorToDecimal(b.amount, b.currency), kind: 'number' },
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
    { header: 'Limit', value: (c) => minorToDecimal(c.limit.amount, c.limit.currency), kind: 'number' },
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

/** A row's cells, in the header's order, each an `exportCell` of its column's kind. */
export function exportRow<C extends ReportCollection>(c: C, row: RowOf<C>, names: ExportNames): string[] {
  return (EXPORT_COLUMNS[c] as readonly ExportColumn<RowOf<C>>[]).map((col) => exportCell(col.value(row, names), col.kind));
}

/** `transactions-2026-11-27.csv`: the table and the UTC day of the export. */
export const exportFileName = (c: ReportCollection, now: Date): string => `${c}-${now.toISOString().slice(0, 10)}.csv`;
