import type { Bill, BillDuplicate } from '../../schema/entities/bill.ts';
import { BILL_STATUS_LABELS } from '../lib/bill-labels.ts';
import { formatDay, formatMoney } from '../lib/format.ts';
import type { ReferenceView } from '../lib/reference-data.ts';

/**
 * Issue 25: "Possible duplicate of INV-123 (Acme Supply, $1,250.00, Awaiting approval) — confirmed
 * by Alex Kim on Nov 20, 2026". The other bill as the server read it when it last wrote this one
 * (`Bill.duplicate_of`: approvers may not see that bill itself); a duplicate saved before the check
 * existed says nobody confirmed it. Pure words, tested.
 */
export function duplicateMarkText(dup: BillDuplicate, names: { vendor(id: string): string; user(id: string): string }): string {
  const vendor = names.vendor(dup.vendor_id) || 'a vendor not on this device yet';
  const other = `${dup.invoice_number} (${vendor}, ${formatMoney(dup.amount, dup.currency)}, ${BILL_STATUS_LABELS[dup.status]})`;
  const who = dup.confirmed_by ? names.user(dup.confirmed_by) || 'someone no longer on the team' : null;
  const confirmed = who && dup.confirmed_at
    ? `confirmed by ${who} on ${formatDay(dup.confirmed_at)}`
    : 'saved before duplicate checks, nobody confirmed it';
  return `Possible duplicate of ${other} — ${confirmed}`;
}

/** The mark as a warning line; nothing for a bill that is no duplicate. */
export function DuplicateMark({ bill, reference }: { bill: Pick<Bill, 'duplicate_of'>; reference: ReferenceView }) {
  const dup = bill.duplicate_of;
  if (!dup) return null;
  const names = {
    vendor: (id: string) => reference.data.vendors.find((v) => v.id === id)?.name ?? '',
    user: (id: string) => reference.names.user(id),
  };
  return (
    <p className="notice notice-warn bill-duplicate-mark" data-testid="duplicate-mark">
      {duplicateMarkText(dup, names)}
    </p>
  );
}

