/**
 * Keyboard shortcuts of a list table as a pure mapping from a key event to an
 * action, so the component only dispatches. Typing in a field never triggers a shortcut
 * (except Escape, which leaves it).
 */
import { matchShortcut, type KeyInfo, type ShortcutId } from '../shortcuts.ts';

export type { KeyInfo } from '../shortcuts.ts';

export type TableAction =
  | { type: 'move'; delta: number; extend: boolean }
  | { type: 'toggle' }
  | { type: 'open' }
  | { type: 'close' }
  | { type: 'focusSearch' }
  | { type: 'code' }
  | { type: 'edge'; to: 'first' | 'last' };

export const PAGE_STEP = 20;

/** What each of the registry's list shortcuts (`lib/shortcuts.ts`) does to the table. */
const ACTIONS: Partial<Record<ShortcutId, TableAction>> = {
  'list.extendDown': { type: 'move', delta: 1, extend: true },
  'list.extendUp': { type: 'move', delta: -1, extend: true },
  'list.down': { type: 'move', delta: 1, extend: false },
  'list.up': { type: 'move', delta: -1, extend: false },
  'list.pageDown': { type: 'move', delta: PAGE_STEP, extend: false },
  'list.pageUp': { type: 'move', delta: -PAGE_STEP, extend: false },
  'list.first': { type: 'edge', to: 'first' },
  'list.last': { type: 'edge', to: 'last' },
  'list.toggle': { type: 'toggle' },
  'list.open': { type: 'open' },
  'list.close': { type: 'close' },
  'list.search': { type: 'focusSearch' },
  'list.code': { type: 'code' },
};

export function keyToAction(k: KeyInfo): TableAction | null {
  const shortcut = matchShortcut(k, ['list']);
  return (shortcut && ACTIONS[shortcut.id]) ?? null;
}

/** The active row after a move, kept inside [0, total - 1]; -1 when the result is empty. */
export function moveActive(active: number, delta: number, total: number): number {
  if (total <= 0) return -1;
  return Math.min(total - 1, Math.max(0, (active < 0 ? (delta > 0 ? -1 : total) : active) + delta));
}

/**
 * The current row as a list is read now: none after the query changed (`key`), and the last row
 * when the list shrank under it (bills leaving a tab after a bulk action), so the keys and the
 * grid's mark keep to a row that exists; -1 when the list is empty.
 */
export function currentRow(state: { key: string; index: number }, key: string, total: number): number {
  if (state.key !== key || state.index < 0 || total <= 0) return -1;
  return Math.min(state.index, total - 1);
}
