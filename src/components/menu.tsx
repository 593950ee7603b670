import { createContext, useContext, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { rovingTarget, typeAheadTarget } from './roving.ts';
import { useLayer } from './use-layer.ts';

const ITEM = '[role="menuitem"]:not(:disabled)';

/** Items close the menu they are in once chosen. */
const CloseMenu = createContext<() => void>(() => undefined);

export interface MenuProps {
  /** The menu's accessible name. */
  label: string;
  /**
   * What the trigger shows; its text is the trigger's accessible name (visible words must be part
   * of the name, so add words for screen readers with an sr-only span, not an aria-label).
   */
  trigger: ReactNode;
  /** Only for a trigger with no text (an icon): its accessible name. */
  triggerLabel?: string;
  /** Shown above the items, outside the menu role (e.g. who is signed in). */
  header?: ReactNode;
  /** MenuItem and MenuGroup elements. */
  children: ReactNode;
  triggerClassName?: string;
}

/**
 * A menu button (WAI-ARIA APG "menu button"): Enter, Space or ArrowDown open it on the first
 * item (ArrowUp on the last); arrows, Home/End and type-ahead move; Escape or Tab close it, and
 * Escape gives focus back to the trigger; a click outside closes it.
 */
export function Menu({ label, trigger, triggerLabel, header, children, triggerClassName = 'menu-trigger' }: MenuProps) {
  const [open, setOpen] = useState<false | 'first' | 'last'>(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  return (
    <div className="menu-anchor">
      <button
        ref={triggerRef}
        type="button"
        className={triggerClassName}
        aria-label={triggerLabel}
        aria-haspopup="menu"
        aria-expanded={open !== false}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((o) => (o ? false : 'first'))}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            setOpen(e.key === 'ArrowDown' ? 'first' : 'last');
          }
        }}
      >
        {trigger}
      </button>
      {open && (
        <MenuPopover id={menuId} label={label} start={open} header={header} trigger={triggerRef} onClose={() => setOpen(false)}>
          {children}
        </MenuPopover>
      )}
    </div>
  );
}

function MenuPopover(props: {
  id: string;
  label: string;
  start: 'first' | 'last';
  header: ReactNode;
  trigger: RefObject<HTMLButtonElement | null>;
  onClose(): void;
  children: ReactNode;
}) {
  const { onClose, trigger } = props;
  const box = useRef<HTMLDivElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  useLayer({ ref: box, modal: false, autoFocus: false, onEscape: onClose, returnFocus: () => trigger.current, preferReturnFocus: true });

  useEffect(() => {
    const items = itemsOf(menu.current);
    (props.start === 'first' ? items[0] : items[items.length - 1])?.focus();
    const onPointerDown = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!box.current?.contains(target) && !trigger.current?.contains(target)) onClose();
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
    // Opens once on its first or last item; later renders only re-render items.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function onKeyDown(e: KeyboardEvent) {
    const items = itemsOf(menu.current);
    const current = items.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'Tab') return onClose();
    const to = rovingTarget(e.key, current, items.length) ?? typeAheadTarget(e.key, current, items.map((i) => i.textContent ?? ''));
    if (to === null) return;
    e.preventDefault();
    items[to]?.focus();
  }

  return (
    <div ref={box} className="menu-popover" onKeyDown={onKeyDown}>
      {props.header}
      <div ref={menu} id={props.id} role="menu" aria-label={props.label} className="menu">
        <CloseMenu value={onClose}>{props.children}</CloseMenu>
      </div>
    </div>
  );
}

const itemsOf = (el: HTMLElement | null): HTMLElement[] => (el ? [...el.querySelectorAll<HTMLElement>(ITEM)] : []);

export interface MenuItemProps {
  onSelect(): void;
  /** Keep the menu open after the choice (e.g. while a switch is running). */
  keepOpen?: boolean;
  disabled?: boolean;
  current?: boolean;
  children: ReactNode;
}

/** One choice: focusable by the arrows only (tabIndex -1), closes the menu once chosen. */
export function MenuItem({ onSelect, keepOpen, disabled, current, children }: MenuItemProps) {
  const close = useContext(CloseMenu);
  return (
    <button
      type="button"
      role="menuitem"
      tabIndex={-1}
      className="menu-item"
      disabled={disabled}
      aria-current={current ? 'true' : undefined}
      onClick={() => {
        if (!keepOpen) close();
        onSelect();
      }}
    >
      {children}
    </button>
  );
}

/** Items under a visible label (role group named by it). */
export function MenuGroup({ label, children }: { label: string; children: ReactNode }) {
  const id = useId();
  return (
    <div role="group" aria-labelledby={id} className="menu-section">
      <div id={id} className="menu-label">
        {label}
      </div>
      {children}
    </div>
  );
}
