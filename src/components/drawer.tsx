import { useId, useRef, type ReactNode, type Ref } from 'react';
import { useLayer } from './use-layer.ts';
import { Button } from './button.tsx';

export interface DrawerProps {
  /** The drawer's heading; it names the dialog (aria-labelledby). */
  title: ReactNode;
  /** The heading element, e.g. to move focus to it when the content changes. */
  titleRef?: Ref<HTMLHeadingElement>;
  onClose(): void;
  /** Accessible name of the close button. */
  closeLabel?: string;
  /**
   * Modal (default): Tab cycles inside and the page is out of reach. A non-modal drawer is a side
   * panel beside a page that stays live (the transactions list keeps j/k and clicks moving the
   * open row), so it must not trap Tab; it still closes on Escape and gives focus back.
   */
  modal?: boolean;
  returnFocus?: () => HTMLElement | null | undefined;
  children: ReactNode;
}

/** A panel sliding in from the right: a dialog (on a <div>, not an <aside>), named by its title. */
export function Drawer({ title, titleRef, onClose, closeLabel = 'Close', modal = true, returnFocus, children }: DrawerProps) {
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  useLayer({ ref: box, modal, onEscape: onClose, returnFocus, preferReturnFocus: !modal, autoFocus: modal });
  return (
    <div ref={box} className="drawer" role="dialog" aria-modal={modal} aria-labelledby={titleId} tabIndex={-1}>
      <header className="drawer-header">
        <h2 id={titleId} tabIndex={-1} ref={titleRef}>
          {title}
        </h2>
        <Button variant="ghost" size="sm" icon aria-label={closeLabel} onClick={onClose}>
          ×
        </Button>
      </header>
      {children}
    </div>
  );
}
