/**
 * Keyboard shortcuts of a list table as a pure mapping from a key event to an
 * action, so the component only dispatches. Typing in a field never triggers a shortcut
 * (except Escape, which leaves it).
 */
export type TableAction =
  | { type: 'move'; delta: number; extend: boolean }
  | { type: 'toggle' }
  | { type: 'open' }
  | { type: 'close' }
  | { type: 'focusSearch' }
  | { type: 'edge'; to: 'first' | 'last' };

export interface KeyInfo {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** The event target is a text field, select or editable element. */
  inField: boolean;
}

export const PAGE_STEP = 20;

export function keyToAction(k: KeyInfo): TableAction | null {
  if (k.key === 'Escape') return { type: 'close' };
  if (k.inField || k.ctrlKey || k.metaKey || k.altKey) return null;
  switch (k.key) {
    case 'j':
    case 'J':
    case 'ArrowDown':
      return { type: 'move', delta: 1, extend: k.shiftKey };
    case 'k':
    case 'K':
    case 'ArrowUp':
      return { type: 'move', delta: -1, extend: k.shiftKey };
    case 'PageDown':
      return { type: 'move', delta: PAGE_STEP, extend: false };
    case 'PageUp':
      return { type: 'move', delta: -PAGE_STEP, extend: false };
    case 'Home':
      return { type: 'edge', to: 'first' };
    case 'End':
      return { type: 'edge', to: 'last' };
    case 'x':
    case ' ':
      return { type: 'toggle' };
    case 'Enter':
      return { type: 'open' };
    case '/':
      return { type: 'focusSearch' };
    default:
      return null;
  }
}

/** The active row after a move, kept inside [0, total - 1]; -1 when the result is empty. */
export function moveActive(active: number, delta: number, total: number): number {
  if (total <= 0) return -1;
  return Math.min(total - 1, Math.max(0, (active < 0 ? (delta > 0 ? -1 : total) : active) + delta));
}
