import { useState } from 'react';
import type { ApprovalObjectType } from '../../../schema/entities/approval.ts';
import { Button } from '../../components/button.tsx';
import { Modal } from '../../components/modal.tsx';
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
  const [busy, setBusy] = useState(false);
  const count = kinds.length;
  const words = rejectWords(kinds);
  const title = count === 1 ? `Reject this ${kinds[0] === 'card_request' ? 'card request' : 'claim'}?` : `Reject ${reviewedText(kinds)}?`;
  return (
    <Modal
      title={title}
      description={subject ?? words.after}
      onClose={onClose}
      returnFocus={returnFocus}
      onSubmit={async (e) => {
        e.preventDefault();
        const text = reason.trim();
        if (!text) return setError(words.missing);
        setBusy(true);
        try {
          await onReject(text);
        } finally {
          setBusy(false);
        }
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
      <div className="modal-actions">
        <Button variant="ghost" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" variant="danger" loading={busy}>
          {count === 1 ? 'Reject' : `Reject ${count}`}
        </Button>
      </div>
    </Modal>
  );
}
