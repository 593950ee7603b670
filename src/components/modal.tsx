import { useId, useRef, type FormEvent, type ReactNode } from 'react';
import { useLayer } from './use-layer.ts';

export interface ModalProps {
  /** The dialog's heading; it names the dialog (aria-labelledby). */
  title: ReactNode;
  /** A line under the title; it describes the dialog (aria-describedby). */
  description?: ReactNode;
  /** Escape (and Cancel buttons the caller renders) close it; without it Escape does nothing. */
  onClose?: () => void;
  /** The dialog holds one form (its buttons submit it). */
  onSubmit?: (e: FormEvent) => unknown;
  /** A press on the backdrop closes it too (only for dialogs with nothing to lose). */
  closeOnBackdrop?: boolean;
  /** Where focus goes on close when the control that opened the dialog is gone (e.g. the grid). */
  returnFocus?: () => HTMLElement | null | undefined;
  size?: 'md' | 'lg';
  children: ReactNode;
}

/**
 * A modal dialog: focus moves in when it opens (to an autoFocus control, else the first one),
 * Tab and Shift+Tab cycle inside it, Escape closes it, and focus goes back to whatever opened it.
 * Escape never reaches the page's own shortcuts underneath (e.g. the table's "close the drawer").
 * The dialog role sits on a <div>; a form, when there is one, is inside it (a <form> may not
 * take the dialog role).
 */
export function Modal({ title, description, onClose, onSubmit, closeOnBackdrop = false, returnFocus, size = 'md', children }: ModalProps) {
  const titleId = useId();
  const descriptionId = useId();
  const box = useRef<HTMLDivElement>(null);
  useLayer({ ref: box, modal: true, onEscape: onClose, returnFocus });

  return (
    <div
      className="modal-backdrop"
      onMouseDown={closeOnBackdrop ? (e) => e.target === e.currentTarget && onClose?.() : undefined}
    >
      <div
        ref={box}
        className={size === 'lg' ? 'modal modal-lg' : 'modal'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
      >
        <h2 id={titleId}>{title}</h2>
        {description && (
          <p id={descriptionId} className="muted">
            {description}
          </p>
        )}
        {onSubmit ? (
          <form className="modal-form" onSubmit={(e) => void onSubmit(e)} noValidate>
            {children}
          </form>
        ) : (
          children
        )}
      </div>
    </div>
  );
}
