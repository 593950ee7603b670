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
  const bills = targets.filter((t) => t.kind === 'bill');
  const one = bills.length === 1 && targets.length === 1 ? bills[0] : undefined;
  const after = 'Your approval sends a bill to its next approver or, at its last step, to Approved, ready to be paid.';
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
