import { useState } from 'react';
import type { ApprovalObjectType } from '../../../schema/entities/approval.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { rejectWords } from './approval-labels.ts';
import { reviewedText } from './approval-rows.ts';

export interface RejectDialogProps {
  /** What each rejected approval reviews (claims, card requests): how many, and the words. */
  kinds: readonly ApprovalObjectType[];
  /** Who and what, when one is rejected ("Ada Lovelace: Lyft, $42.60"). */
  subject?: string;
  onReject(reason: string): Promise<void>;
  onClose(): void;
  returnFocus?: () => HTMLElement | null | undefined;
}

/** The reason a rejection needs (the submitter sees it); required, at most 2,000 characters. */
export function RejectDialog({ kinds, subject, onReject, onClose, returnFocus }: RejectDialogProps) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const count = kinds.length;
  const words = rejectWords(kinds);
  const title = count === 1 ? `Reject this ${kinds[0] === 'card_request' ? 'card request' : 'claim'}?` : `Reject ${reviewedText(kinds)}?`;
  return (
    <ConfirmDialog
      title={title}
      description={subject ?? words.after}
      confirmLabel={count === 1 ? 'Reject' : `Reject ${count}`}
      tone="danger"
      cancelLabel="Cancel"
      onClose={onClose}
      returnFocus={returnFocus}
      onConfirm={async () => {
        const text = reason.trim();
        if (!text) {
          setError(words.missing);
          return false;
        }
        await onReject(text);
        return true;
      }}
    >
      <label className="field">
        <span className="field-label">Reason</span>
        <textarea
          autoFocus
          required
          maxLength={2000}
          rows={3}
          value={reason}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'reject-reason-error' : undefined}
          onChange={(e) => {
            setReason(e.target.value);
            setError(null);
          }}
        />
        {error && (
          <span id="reject-reason-error" className="field-error" role="alert">
            {error}
          </span>
        )}
      </label>
    </ConfirmDialog>
  );
}
