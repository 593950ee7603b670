import { useState } from 'react';
import { Button } from '../../components/button.tsx';
import { Modal } from '../../components/modal.tsx';

export interface RejectDialogProps {
  /** How many claims are rejected with this reason. */
  count: number;
  /** Who and what, when one claim is rejected ("Ada Lovelace: Lyft, $42.60"). */
  subject?: string;
  onReject(reason: string): Promise<void>;
  onClose(): void;
  returnFocus?: () => HTMLElement | null | undefined;
}

/** The reason a rejection needs (the claimant sees it on the claim); required, at most 2,000 characters. */
export function RejectDialog({ count, subject, onReject, onClose, returnFocus }: RejectDialogProps) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const title = count === 1 ? 'Reject this claim?' : `Reject ${count} claims?`;
  return (
    <Modal
      title={title}
      description={subject ?? 'The claimants see the reason on their claims and can edit and resubmit.'}
      onClose={onClose}
      returnFocus={returnFocus}
      onSubmit={async (e) => {
        e.preventDefault();
        const text = reason.trim();
        if (!text) return setError('Say why, so the claimant can fix it.');
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
