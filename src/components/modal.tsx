import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { tabbables, trapStep } from './focus-trap.ts';

export interface ModalProps {
  /** The dialog's heading; it names the dialog (aria-labelledby). */
  title: ReactNode;
  /** Escape (and Cancel buttons the caller renders) close it; without it Escape does nothing. */
  onClose?: () => void;
  /** The dialog is itself the form (its buttons submit it). */
  onSubmit?: (e: FormEvent) => unknown;
  /** A press on the backdrop closes it too (only for dialogs with nothing to lose). */
  closeOnBackdrop?: boolean;
  children: ReactNode;
}

/**
 * A modal dialog: focus moves in when it opens (to an autoFocus control, else the first one),
 * Tab and Shift+Tab cycle inside it, Escape closes it, and focus goes back to whatever opened it.
 * Escape never reaches the page's own shortcuts underneath (e.g. the table's "close the drawer").
 */
export function Modal({ title, onClose, onSubmit, closeOnBackdrop = false, children }: ModalProps) {
  const titleId = useId();
  const box = useRef<HTMLElement | null>(null);
  const setBox = (el: HTMLElement | null) => {
    box.current = el;
  };
  // Read while rendering: children's autoFocus has already moved focus by the time effects run.
  const [opener] = useState(() => (typeof document === 'undefined' ? null : document.activeElement));

  useEffect(() => {
    const el = box.current;
    if (el && !el.contains(document.activeElement)) (tabbables(el)[0] ?? el).focus();
    return () => {
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, [opener]);

  function onKeyDown(e: KeyboardEvent) {
    if (e.key === 'Escape') {
      e.stopPropagation();
      onClose?.();
      return;
    }
    const el = box.current;
    if (e.key !== 'Tab' || !el) return;
    const list = tabbables(el);
    const to = trapStep(list.length, list.indexOf(document.activeElement as HTMLElement), e.shiftKey);
    if (to === null) return;
    e.preventDefault();
    (list[to] ?? el).focus();
  }

  const common = {
    className: 'modal',
    role: 'dialog',
    'aria-modal': true,
    'aria-labelledby': titleId,
    tabIndex: -1,
    onKeyDown,
  } as const;
  const body = (
    <>
      <h2 id={titleId}>{title}</h2>
      {children}
    </>
  );
  return (
    <div
      className="modal-backdrop"
      onMouseDown={closeOnBackdrop ? (e) => e.target === e.currentTarget && onClose?.() : undefined}
    >
      {onSubmit ? (
        <form ref={setBox} {...common} onSubmit={(e) => void onSubmit(e)}>
          {body}
        </form>
      ) : (
        <div ref={setBox} {...common}>
          {body}
        </div>
      )}
    </div>
  );
}
