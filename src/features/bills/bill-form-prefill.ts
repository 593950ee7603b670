import type { BillTemplate } from '../../../schema/api/calls-bill-extras.ts';
import { isBusinessDay, nextBusinessDay } from '../../../schema/business-days.ts';
import type { Vendor } from '../../../schema/entities/vendor.ts';
import {
  amountText, defaultDueDate, emptyLine, withVendorDefaults, type BillField, type BillFormValues, type BillLineValues,
} from './bill-form.ts';
import type { InvoiceFields } from './invoice-text.ts';

/**
 * What fills the bill form from outside it (pure, tested in bill-form.test.ts): the vendor an
 * invoice's name matches, a bill template's values, an invoice's reading where the person has
 * typed nothing, and the due date's hint.
 */

// ---------------------------------------------------------------- vendors

/** A company name as compared: lower case, accents, punctuation and legal suffixes dropped. */
export function vendorKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\d]+/gu, ' ')
    .replace(/\b(inc|incorporated|llc|ltd|limited|co|corp|corporation|company|gmbh|ag|sa|sas|sarl|srl|bv|plc|pty|the)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The vendor a name read from an invoice names: the one active vendor whose name is the same
 * once legal suffixes and punctuation are dropped ("ACME SUPPLY CO." = "Acme Supply Company"),
 * else the one whose name the read name contains or that contains it (a name OCR'd with its
 * tagline). None, or several that fit: null (the person chooses; a wrong vendor is worse than none).
 */
export function matchVendor(name: string | undefined, vendors: readonly Pick<Vendor, 'id' | 'name' | 'status'>[]): string | null {
  const key = name ? vendorKey(name) : '';
  if (key.length < 3) return null;
  const active = vendors.filter((v) => v.status === 'ACTIVE').map((v) => ({ id: v.id, key: vendorKey(v.name) })).filter((v) => v.key.length >= 3);
  const exact = active.filter((v) => v.key === key);
  if (exact.length === 1) return exact[0]!.id;
  if (exact.length > 1) return null;
  const words = (s: string) => ` ${s} `;
  const partial = active.filter((v) => words(key).includes(words(v.key)) || words(v.key).includes(words(key)));
  return partial.length === 1 ? partial[0]!.id : null;
}


/**
 * A new bill started from a template: its vendor, currency, lines (the vendor's default coding
 * where a line has none) and memo; the invoice number, dates and document stay as they are, and
 * credits are dropped (a template carries none; they are the vendor's to apply again).
 */
export function valuesFromTemplate(
  v: BillFormValues,
  t: Pick<BillTemplate, 'vendor_id' | 'currency' | 'line_items' | 'memo'>,
  ctx: { nextKey: () => string; vendors: readonly Vendor[] },
): BillFormValues {
  const lines = t.line_items.map((l) => ({
    key: ctx.nextKey(), description: l.description, amount: amountText(l.amount, t.currency),
    gl_account_id: l.gl_account_id ?? '', department_id: l.department_id ?? '',
  }));
  return {
    ...v,
    vendor_id: t.vendor_id,
    currency: t.currency,
    lines: withVendorDefaults(lines.length > 0 ? lines : [emptyLine(ctx.nextKey())], ctx.vendors.find((x) => x.id === t.vendor_id) ?? null),
    credits: [],
    memo: t.memo ?? '',
  };
}

// ---------------------------------------------------------------- prefill

const blankLine = (l: BillLineValues) => l.description.trim() === '' && l.amount.trim() === '';

export interface InvoicePrefill {
  values: BillFormValues;
  /** What was filled, for the "check these" note. */
  filled: ('vendor' | 'invoice number' | 'invoice date' | 'due date' | 'total')[];
  /** The vendor name read when no vendor matched it (shown as a hint; nothing is chosen). */
  vendorHint: string | null;
}

/**
 * The form with an invoice's reading filled in where the person has not typed anything: a field
 * in `edited` (changed by hand) or already holding a value is theirs and kept. Dates start with
 * defaults (today, +30 days), so for them only `edited` counts; a read invoice date moves an
 * untouched due date with it (its printed due date, else the invoice date + terms). The total
 * becomes the one line when no line has anything typed. Pure; tested.
 */
export function prefillFromInvoice(
  v: BillFormValues,
  reading: InvoiceFields,
  ctx: { edited: ReadonlySet<BillField>; vendors: readonly Vendor[] },
): InvoicePrefill {
  const values: BillFormValues = { ...v, lines: [...v.lines] };
  const filled: InvoicePrefill['filled'] = [];
  let vendorHint: string | null = null;
  const free = (field: BillField) => !ctx.edited.has(field);
  if (reading.vendorName && free('vendor_id') && v.vendor_id === '') {
    const id = matchVendor(reading.vendorName, ctx.vendors);
    if (id) {
      values.vendor_id = id;
      values.lines = withVendorDefaults(values.lines, ctx.vendors.find((x) => x.id === id) ?? null);
      filled.push('vendor');
    } else vendorHint = reading.vendorName;
  }
  if (reading.invoiceNumber && free('invoice_number') && v.invoice_number.trim() === '') {
    values.invoice_number = reading.invoiceNumber;
    filled.push('invoice number');
  }
  if (reading.invoiceDate && free('invoice_date')) {
    values.invoice_date = reading.invoiceDate;
    filled.push('invoice date');
  }
  if (free('due_date')) {
    const due = reading.dueDate ?? (reading.invoiceDate && free('invoice_date') ? defaultDueDate(reading.invoiceDate, reading.termsDays) : undefined);
    if (due && due !== v.due_date) {
      values.due_date = due;
      filled.push('due date');
    }
  }
  if (reading.total && free('lines') && values.lines.every(blankLine)) {
    const currency = free('currency') ? reading.total.currency : v.currency;
    if (currency === reading.total.currency) {
      values.currency = currency;
      const first = values.lines[0] ?? emptyLine('line-ocr');
      values.lines = [{ ...first, description: 'Invoice total', amount: amountText(reading.total.minor, currency) }];
      filled.push('total');
    }
  }
  return { values, filled, vendorHint };
}
// ---------------------------------------------------------------- due hint

const DAY_MS = 86_400_000;

/**
 * "Due in 12 days", "Due today", "Due tomorrow", "3 days overdue"; when the due date is a weekend
 * or a bank holiday, the business day a payment would go out (schema/business-days.ts). Null
 * without two calendar dates.
 */
export function dueHint(due: string, today: string, formatDay: (iso: string) => string): string | null {
  const ok = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`));
  if (!ok(due) || !ok(today)) return null;
  const days = Math.round((Date.parse(`${due}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / DAY_MS);
  const when =
    days === 0 ? 'Due today' : days === 1 ? 'Due tomorrow' : days > 1 ? `Due in ${days} days` : days === -1 ? '1 day overdue' : `${-days} days overdue`;
  if (isBusinessDay(due)) return when;
  return `${when} · not a bank business day: a payment goes out ${formatDay(nextBusinessDay(due))}`;
}
