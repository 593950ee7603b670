import type { Bill, BillDuplicate } from '../../../schema/entities/bill.ts';
import type { RowView } from '../../../workers/api.ts';
import { Button } from '../../components/button.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import { BILL_STATUS_LABELS } from '../../lib/bill-labels.ts';
import { formatDay, formatMoney } from '../../lib/format.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';

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

/**
 * Issue 25: the server refused this bill's create (or submit) as a duplicate invoice after it
 * left the device (the mirror did not know the other bill yet). The bill stays as typed; its
 * message names the other bill, and "Create anyway" sends the same command again with
 * `confirm_duplicate: true` in its place in the queue (`confirmDuplicate`), "Discard" drops it.
 * Other refusals keep the generic Retry/Discard notice.
 */
export function DuplicateRefusal({ bill, client }: { bill: Pick<RowView<'bills'>, 'failure' | 'change_seq'>; client: DataClient }) {
  const failure = bill.failure;
  if (!failure?.duplicate) return null;
  // A bill the server never created has no server version yet.
  const creating = bill.change_seq === 0;
  async function confirm() {
    if (await client.confirmDuplicate(failure!.command_id)) toastInfo('Sent again, marked as a confirmed possible duplicate.');
    else toastError('This change was already sent again or discarded.');
  }
  return (
    <div className="notice notice-error" role="alert" data-testid="duplicate-refusal">
      <strong>The server refused this bill as a possible duplicate:</strong> {failure.message}
      <div className="row-actions">
        <Button size="sm" onClick={() => void confirm()}>
          {creating ? 'Create anyway' : 'Save anyway'}
        </Button>
        <Button size="sm" variant="ghost" onClick={() => void client.discardCommand(failure.command_id)}>
          Discard
        </Button>
      </div>
    </div>
  );
}
