import type { ReactNode } from 'react';
import { Button } from './button.tsx';

export interface ModalActionsProps {
  /** The ghost button that closes the dialog without doing anything. */
  onCancel(): void;
  /** Its words (default "Cancel"). */
  cancelLabel?: ReactNode;
  /** The submit button's words: what the dialog's form does. */
  submitLabel: ReactNode;
  /** While the call runs: the submit button spins, disabled. */
  busy: boolean;
  /** The submit button's look (default primary; danger for what cannot be undone). */
  tone?: 'primary' | 'danger';
  /** The button that takes focus when the dialog opens (default: the dialog's first control). */
  autoFocus?: 'cancel' | 'submit';
}

/**
 * The buttons at the foot of a form dialog (`Modal` with `onSubmit`): a ghost Cancel, then the
 * submit button that says what happens.
 */
export function ModalActions({ onCancel, cancelLabel = 'Cancel', submitLabel, busy, tone = 'primary', autoFocus }: ModalActionsProps) {
  return (
    <div className="modal-actions">
      <Button variant="ghost" onClick={onCancel} autoFocus={autoFocus === 'cancel'}>
        {cancelLabel}
      </Button>
      <Button type="submit" variant={tone} loading={busy} autoFocus={autoFocus === 'submit'}>
        {submitLabel}
      </Button>
    </div>
  );
}
