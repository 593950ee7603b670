import { findDuplicateInvoices } from '../schema/bill-rules.ts';
import type { DuplicateInvoiceResult, RowView } from './api.ts';

/**
 * The bills `invoiceNumber` duplicates for the vendor among `rows` (the vendor's bills as shown,
 * MirrorRuntime.duplicateInvoices), by the server's rule (`findDuplicateInvoices`), oldest first
 * as the server answers (created_at, id).
 */
export function duplicatesOf(rows: readonly RowView<'bills'>[], vendorId: string, invoiceNumber: string, billId?: string): DuplicateInvoiceResult {
  const bills = findDuplicateInvoices({ id: billId, vendor_id: vendorId, invoice_number: invoiceNumber }, [...rows])
    .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { is_duplicate: bills.length > 0, bills };
}
