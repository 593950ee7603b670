import { validateProvisionalBill } from '../../../../schema/bill-rules.ts';
import { MAX_BILL_AMOUNT, MAX_INVOICE_NUMBER_LENGTH } from '../../../../schema/entities/bill.ts';
import type { ProvisionalBill, ProvisionalBillPatch } from '../../../../schema/entities/provisional-bill.ts';
import type { Vendor } from '../../../../schema/entities/vendor.ts';
import { addDays, amountText, type BillFormValues } from '../bill-form.ts';
import { matchVendor } from '../bill-form-prefill.ts';
import type { InvoiceFields } from '../invoice-text.ts';

/**
 * The bill inbox's pure logic (issue 11 §7 provisional bills): what an invoice's reading adds to
 * a provisional bill (only what is still empty: a field someone typed, on this device or another,
 * is theirs), what the row still lacks to become a bill, the bill form's starting values when it
 * is completed, and the inbox's order. Tested in inbox.test.ts.
 */

/** What a bill needs that a provisional bill may lack, in the bill form's words and order. */
export type MissingField = 'vendor' | 'invoice number' | 'invoice date' | 'due date' | 'total';

/** Newest upload first (ties by id), as the server lists them. */
export function inboxOrder<R extends Pick<ProvisionalBill, 'id' | 'created_at'>>(rows: readonly R[]): R[] {
  return [...rows].sort((a, b) => (a.created_at !== b.created_at ? (a.created_at < b.created_at ? 1 : -1) : a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

/** The fields still empty that a bill requires (its lines come from the total). */
export function missingForBill(row: Pick<ProvisionalBill, 'vendor_id' | 'invoice_number' | 'invoice_date' | 'due_date' | 'amount'>): MissingField[] {
  const missing: MissingField[] = [];
  if (!row.vendor_id) missing.push('vendor');
  if (!row.invoice_number) missing.push('invoice number');
  if (!row.invoice_date) missing.push('invoice date');
  if (!row.due_date) missing.push('due date');
  if (row.amount === null) missing.push('total');
  return missing;
}

/**
 * The patch an invoice's reading makes: each field read that the row does not hold yet (the
 * vendor matched by name against the active vendors, `matchVendor`; the due date printed, or
 * the invoice date plus the terms read); the total with its currency only when the row has no
 * amount and no other currency. What the rules would refuse (a due date before the invoice date)
 * is left out. Null when the reading adds nothing.
 */
export function readingPatch(
  row: ProvisionalBill,
  reading: InvoiceFields,
  vendors: readonly Pick<Vendor, 'id' | 'name' | 'status'>[],
): ProvisionalBillPatch | null {
  const patch: ProvisionalBillPatch = {};
  if (!row.vendor_id && reading.vendorName) {
    const vendor = matchVendor(reading.vendorName, vendors);
    if (vendor) patch.vendor_id = vendor;
  }
  const number = reading.invoiceNumber?.trim().slice(0, MAX_INVOICE_NUMBER_LENGTH);
  if (!row.invoice_number && number) patch.invoice_number = number;
  if (!row.invoice_date && reading.invoiceDate) patch.invoice_date = reading.invoiceDate;
  const invoiceDate = row.invoice_date ?? patch.invoice_date;
  const due = reading.dueDate ?? (invoiceDate && reading.termsDays !== undefined ? addDays(invoiceDate, reading.termsDays) : undefined);
  if (!row.due_date && due) patch.due_date = due;
  const total = reading.total;
  if (row.amount === null && total && total.minor > 0 && total.minor <= MAX_BILL_AMOUNT && (row.currency === null || row.currency === total.currency)) {
    patch.amount = total.minor;
    if (row.currency === null) patch.currency = total.currency;
  }
  // A reading never makes the row one the rules refuse: its due date goes first, then its invoice date.
  if (validateProvisionalBill({ ...row, ...patch }).due_date) delete patch.due_date;
  if (validateProvisionalBill({ ...row, ...patch }).due_date) delete patch.invoice_date;
  return Object.keys(patch).length > 0 ? patch : null;
}

/**
 * The bill form's starting values for completing the row: only what the row holds (the form
 * treats prefilled fields as typed and keeps its own defaults for the rest), the invoice file,
 * and the total as the bill's one line.
 */
export function completionPrefill(row: ProvisionalBill): Partial<BillFormValues> {
  const values: Partial<BillFormValues> = { invoice_file_id: row.invoice_file_id };
  if (row.vendor_id) values.vendor_id = row.vendor_id;
  if (row.invoice_number) values.invoice_number = row.invoice_number;
  if (row.invoice_date) values.invoice_date = row.invoice_date;
  if (row.due_date) values.due_date = row.due_date;
  if (row.currency) values.currency = row.currency;
  if (row.memo) values.memo = row.memo;
  if (row.amount !== null && row.currency) {
    values.lines = [{ key: 'inbox-total', description: 'Invoice total', amount: amountText(row.amount, row.currency), gl_account_id: '', department_id: '' }];
  }
  return values;
}
