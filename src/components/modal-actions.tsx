import type { ReactNode } from 'react';
import { Button } from './button.tsx';

export interface ModalActionsProps {
  /** The submit button's words ("Save template"). */
  submitLabel: ReactNode;
  /** The form is being sent: the submit button spins (and is disabled). */
  busy?: boolean | undefined;
  /** Submit stays disabled (nothing to send yet). */
  submitDisabled?: boolean | undefined;
  onCancel(): void;
  /** The ghost button's words; "Cancel" unless said. */
  cancelLabel?: string | undefined;
}

/** A form dialog's footer: a ghost Cancel that closes it, then the primary submit button. */
export function ModalActions({ submitLabel, busy = false, submitDisabled, onCancel, cancelLabel = 'Cancel' }: ModalActionsProps) {
  return (
    <div className="modal-actions">
      <Button variant="ghost" onClick={onCancel}>{cancelLabel}</Button>
      <Button type="submit" variant="primary" loading={busy} disabled={submitDisabled}>{submitLabel}</Button>
    </div>
  );
}
