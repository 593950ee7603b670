import { useState } from 'react';
import { Button } from '../../components/button.tsx';
import { Modal } from '../../components/modal.tsx';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { approvalOutcomeText } from '../../lib/spend-request-labels.ts';
import type { InboxRow } from './approval-rows.ts';
import { approveConfirmTitle } from './approve-confirm.ts';
import { approvingSendsText } from '../../lib/payment-approval-labels.ts';
import { spendRequestNames } from './spend-request-details.tsx';

export interface ApproveDialogProps {
  targets: readonly InboxRow[];
  onApprove(): Promise<void>;
  onClose(): void;
  returnFocus?: () => HTMLElement | null | undefined;
  /** Names a spend request's outcome (its vendor, its budget); without it they read generically. */
  reference?: ReferenceView;
}

/**
 * Approving bills moves money (an approved bill is scheduled for payment), so it is confirmed
 * first with what is approved and the amounts per currency (issue 25 item 7). Enter approves,
 * Escape cancels: the keyboard flow is one more key.
 */
export function ApproveDialog({ targets, onApprove, onClose, returnFocus, reference }: ApproveDialogProps) {
  const [busy, setBusy] = useState(false);
  const one = targets.length === 1 && targets[0]!.kind !== 'reimbursement' && targets[0]!.kind !== 'card_request' ? targets[0] : undefined;
  const afterBill = 'Your approval sends a bill to its next approver or, at its last step, to Approved, ready to be paid.';
  const afterBooking = 'Your approval books it and charges its price to the trip’s virtual card now.';
  const requests = targets.filter((t) => t.kind === 'spend_request');
  const oneRequest = requests.length === 1 ? requests[0]!.spendRequest : null;
  const names = reference ? spendRequestNames(reference) : { user: () => '', vendor: () => '', budget: () => '' };
  // Issue 28: what approving does — "Approving issues a $500.00 virtual card to Ana Ruiz (…)."
  const afterRequest = oneRequest
    ? approvalOutcomeText(oneRequest, names)
    : 'Your approval issues what each request asks for: its card, its budget room or its purchase order.';
  // Issue 28: a vendor payment's last approval sends the money; a payee approval unblocks the vendor's payments.
  const payments = targets.filter((t) => t.kind === 'vendor-payment');
  const onePayment = payments.length === 1 ? payments[0]!.bill : null;
  const payee = reference?.data.vendors.find((v) => v.id === onePayment?.vendor_id)?.name ?? 'the vendor';
  const afterPayment = onePayment?.payment_approval
    ? `At its last step, ${approvingSendsText(onePayment.amount, onePayment.currency, payee, onePayment.payment_approval).replace(/^Approving/, 'approving')}`
    : 'At its last step, approving sends each payment as it was asked for (now, or on its date).';
  const afterPayee = 'Approving lets each vendor’s bills be paid to the bank account it has now.';
  const after = [
    ...(targets.some((t) => t.kind === 'bill') ? [afterBill] : []),
    ...(payments.length > 0 ? [afterPayment] : []),
    ...(targets.some((t) => t.kind === 'payee') ? [afterPayee] : []),
    ...(targets.some((t) => t.kind === 'travel_booking') ? [afterBooking] : []),
    ...(requests.length > 0 ? [afterRequest] : []),
  ].join(' ');
  const description = one ? `${one.claimant}: ${one.description}. ${after}` : after;
  return (
    <Modal
      title={approveConfirmTitle(targets)}
      description={description}
      onClose={onClose}
      returnFocus={returnFocus}
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        try {
          await onApprove();
        } finally {
          setBusy(false);
        }
      }}
    >
      <div className="modal-actions">
        <Button variant="ghost" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" loading={busy} autoFocus>
          {targets.length === 1 ? 'Approve' : `Approve ${targets.length}`}
        </Button>
      </div>
    </Modal>
  );
}
