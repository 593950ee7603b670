import { createContext, useContext, useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
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
  useKeepInViewport(box);

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

/** Room kept between a popover and the window's edges. */
const EDGE = 8;

/**
 * Keeps a popover wholly inside the window: where the stylesheet puts it (by default under the
 * trigger, right edges aligned) it is moved sideways when an edge would cut it, flipped above the
 * trigger (or below) when there is no room on its side, and scrolls inside when neither side
 * holds it. Re-placed when the window or the popover changes size.
 */
function useKeepInViewport(box: RefObject<HTMLDivElement | null>) {
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const place = () => placeInViewport(el);
    place();
    const observer = new ResizeObserver(place);
    observer.observe(el);
    window.addEventListener('resize', place);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', place);
    };
  }, [box]);
}

/** Places an absolutely positioned popover inside the window, relative to its anchor (offsetParent). */
function placeInViewport(el: HTMLElement): void {
  const anchor = el.offsetParent;
  const style = el.style;
  style.left = style.right = style.top = style.bottom = style.maxHeight = style.maxWidth = style.overflowY = '';
  if (!(anchor instanceof HTMLElement)) return;
  const vw = document.documentElement.clientWidth;
  const vh = window.innerHeight;
  style.maxWidth = `${vw - 2 * EDGE}px`;
  const a = anchor.getBoundingClientRect();
  const r = el.getBoundingClientRect();
  // Sideways: as placed, else shifted until both edges are inside.
  const left = Math.max(EDGE, Math.min(r.left, vw - EDGE - r.width));
  if (left !== r.left) {
    style.right = 'auto';
    style.left = `${left - a.left}px`;
  }
  // Up or down: its side when it fits, else the side with more room (scrolling inside).
  const below = r.top >= a.top;
  const roomBelow = vh - EDGE - (a.bottom + 6);
  const roomAbove = a.top - 6 - EDGE;
  if (below ? r.bottom <= vh - EDGE : r.top >= EDGE) return;
  const down = below ? roomBelow >= r.height || roomBelow >= roomAbove : !(roomAbove >= r.height || roomAbove >= roomBelow);
  const room = down ? roomBelow : roomAbove;
  if (down) {
    style.top = `${a.height + 6}px`;
    style.bottom = 'auto';
  } else {
    style.top = 'auto';
    style.bottom = `${a.height + 6}px`;
  }
  if (r.height > room) {
    style.maxHeight = `${Math.max(room, 0)}px`;
    style.overflowY = 'auto';
  }
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
