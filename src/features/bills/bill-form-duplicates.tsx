import { duplicateBillText } from '../../../schema/bill-rules.ts';
import type { RowView } from '../../../workers/api.ts';
import { Button } from '../../components/button.tsx';
import { Modal } from '../../components/modal.tsx';
import { WAITING_TO_SYNC } from '../../components/sync-mark.tsx';
import { BILL_STATUS_LABELS } from '../../lib/bill-labels.ts';
import { formatDay, formatMoney } from '../../lib/format.ts';

/**
 * The vendor already has a bill with this invoice number (schema/bill-rules.ts
 * `findDuplicateInvoices`; canceled bills do not count). Shown while typing; Submit and Save ask
 * again in DuplicateQuestionDialog, and the server refuses a duplicate that was not confirmed.
 */
export function DuplicateWarning({ vendor, bills }: { vendor: string; bills: RowView<'bills'>[] }) {
  return (
    <div className="notice notice-warning bill-duplicates" role="alert">
      <p>
        <strong>Possible duplicate invoice.</strong> {vendor} already has {bills.length === 1 ? 'a bill' : `${bills.length} bills`} with this invoice number:
      </p>
      <ul>
        {bills.map((b) => (
          <li key={b.id}>
            Invoice {b.invoice_number} · {formatMoney(b.amount, b.currency)} · dated {formatDay(b.invoice_date)} · {BILL_STATUS_LABELS[b.status]}
            {b.pending ? ` · ${WAITING_TO_SYNC}` : ''}
          </li>
        ))}
      </ul>
      <p>Check it is not the same invoice entered twice, or the vendor may be paid twice. Saving it asks you to confirm the duplicate.</p>
    </div>
  );
}

/** What Submit (or Save) found: the other bills, and which save to repeat once confirmed. */
export interface DuplicateQuestion {
  submit: boolean;
  bills: Pick<RowView<'bills'>, 'id' | 'invoice_number' | 'amount' | 'currency' | 'status'>[];
}

/**
 * Issue 25: "Possible duplicate invoice" naming the other bill (its number, vendor, amount and
 * status, in the server's words: `duplicateBillText`), with "Create anyway" (saves again with
 * `confirm_duplicate: true`; the bill records who confirmed) or "Go back" (nothing is saved).
 */
export function DuplicateQuestionDialog({ question, vendor, creating, onBack, onConfirm }: {
  question: DuplicateQuestion; vendor: string; creating: boolean; onBack(): void; onConfirm(): void;
}) {
  const [first, ...more] = question.bills;
  if (!first) return null;
  const action = creating ? 'Create anyway' : question.submit ? 'Submit anyway' : 'Save anyway';
  return (
    <Modal
      title="Possible duplicate invoice"
      description={`${duplicateBillText(first, vendor, more.length)}.`}
      onClose={onBack}
      onSubmit={(e) => {
        e.preventDefault();
        onConfirm();
      }}
    >
      <p className="bill-duplicate-question">
        Check it is not the same invoice entered twice, or the vendor may be paid twice. If it is a different invoice with the same number,
        {creating ? ' create it anyway' : ' save it anyway'}: the bill is marked as a possible duplicate, with your name, for its approvers and whoever pays it.
      </p>
      <div className="modal-actions">
        <Button variant="ghost" onClick={onBack}>
          Go back
        </Button>
        <Button type="submit" variant="primary">
          {action}
        </Button>
      </div>
    </Modal>
  );
}
