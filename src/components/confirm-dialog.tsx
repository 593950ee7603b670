import { useState, type FormEvent, type ReactNode } from 'react';
import { errorText } from '../lib/error-text.ts';
import { Button } from './button.tsx';
import { FormError } from './form-error.tsx';
import { Modal } from './modal.tsx';

export interface ConfirmDialogProps {
  title: string;
  description?: ReactNode;
  confirmLabel: string;
  tone?: 'danger' | 'primary';
  /** The ghost button's words; "Keep as is" unless said. */
  cancelLabel?: string;
  onClose(): void;
  /** True when done (the dialog closes); false keeps it open (the caller said why). */
  onConfirm(): Promise<boolean>;
  returnFocus?: () => HTMLElement | null | undefined;
  children?: ReactNode;
}

/** A yes/no confirmation naming what is about to happen (paying, canceling, deleting). */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { title, description, confirmLabel, tone = 'primary', cancelLabel = 'Keep as is', onClose, onConfirm, returnFocus, children } = props;
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      if (await onConfirm()) onClose();
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal title={title} description={description} onClose={onClose} onSubmit={submit} returnFocus={returnFocus}>
      {children}
      <div className="modal-actions">
        <Button variant="ghost" onClick={onClose}>
          {cancelLabel}
        </Button>
        <Button type="submit" variant={tone} loading={busy}>
          {confirmLabel}
        </Button>
      </div>
    </Modal>
  );
}

export interface DeleteDialogProps {
  title: string;
  description: ReactNode;
  confirmLabel: string;
  onClose(): void;
  /** The server's refusal (shown in the dialog, which stays open), or nothing once deleted. */
  onDelete(): Promise<{ error_code: string; message: string } | null>;
}

/** A delete confirmed first; a refusal is said in the server's words inside the dialog. */
export function DeleteDialog({ title, description, confirmLabel, onClose, onDelete }: DeleteDialogProps) {
  const [error, setError] = useState<string | null>(null);
  return (
    <ConfirmDialog
      title={title}
      description={description}
      confirmLabel={confirmLabel}
      tone="danger"
      onClose={onClose}
      onConfirm={async () => {
        setError(null);
        const failure = await onDelete();
        if (failure) setError(errorText(failure));
        return failure === null;
      }}
    >
      <FormError message={error} />
    </ConfirmDialog>
  );
}
