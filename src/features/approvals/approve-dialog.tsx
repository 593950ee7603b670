import { useState } from 'react';
import { Button } from '../../components/button.tsx';
import { Modal } from '../../components/modal.tsx';
import type { InboxRow } from './approval-rows.ts';
import { approveConfirmTitle } from './approve-confirm.ts';

export interface ApproveDialogProps {
  targets: readonly InboxRow[];
  onApprove(): Promise<void>;
  onClose(): void;
  returnFocus?: () => HTMLElement | null | undefined;
}

/**
 * Approving bills moves money (an approved bill is scheduled for payment), so it is confirmed
 * first with what is approved and the amounts per currency (issue 25 item 7). Enter approves,
 * Escape cancels: the keyboard flow is one more key.
 */
export function ApproveDialog({ targets, onApprove, onClose, returnFocus }: ApproveDialogProps) {
  const [busy, setBusy] = useState(false);
  const one = targets.length === 1 && targets[0]!.kind !== 'reimbursement' && targets[0]!.kind !== 'card_request' ? targets[0] : undefined;
  const afterBill = 'Your approval sends a bill to its next approver or, at its last step, to Approved, ready to be paid.';
  const afterBooking = 'Your approval books it and charges its price to the trip’s virtual card now.';
  const after = [
    ...(targets.some((t) => t.kind === 'bill') ? [afterBill] : []),
    ...(targets.some((t) => t.kind === 'travel_booking') ? [afterBooking] : []),
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
