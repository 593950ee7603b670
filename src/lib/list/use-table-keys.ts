import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { currentRow, keyToAction, moveActive, type TableAction } from './keyboard.ts';
import { isModalLayerOpen } from '../../components/use-layer.ts';
import type { SelectionApi } from './use-selection.ts';
import type { ListRows } from './use-rows.ts';

export interface TableKeysOptions<T extends { id: string }> {
  key: string;
  total: number;
  rows: ListRows<T>;
  selection: SelectionApi;
  drawerOpen: boolean;
  dialogOpen: boolean;
  onOpen(row: T): void;
  onCloseDrawer(): void;
  onFocusSearch(): void;
  /** 'c': act on the selection (the page decides what to do when nothing is selected). */
  onCode?(): void;
}

export interface ActiveRow {
  index: number;
  set(index: number): void;
  onGridKeyDown(e: KeyboardEvent<HTMLDivElement>): void;
  /**
   * Focusing the grid with no active row activates the first one on screen (`firstVisible`, else
   * the first), so Enter and x act at once without the list jumping.
   */
  onGridFocus(firstVisible?: number): void;
}

/** Whether a key event belongs to a control (typing, pressing a button) rather than the table. */
function inField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLInputElement && target.type === 'checkbox' && target.closest('[role="grid"]')) return false;
  return target.closest('input, textarea, select, button, a, summary, [contenteditable="true"]') !== null;
}

/**
 * A list table's keyboard: j/k or arrows move, x or space select, Enter opens, Escape closes,
 * '/' focuses search, c codes the selection (keys from `lib/shortcuts.ts`). Listens on the document so the keys work wherever focus rests, except
 * while typing in a field or while a modal dialog is open.
 */
export function useTableKeys<T extends { id: string }>(o: TableKeysOptions<T>): ActiveRow {
  const [state, setState] = useState({ key: o.key, index: -1 });
  const index = currentRow(state, o.key, o.total);
  const set = useCallback((i: number) => setState({ key: o.key, index: i }), [o.key]);
  const latest = useRef({ ...o, index });
  useEffect(() => {
    latest.current = { ...o, index };
  });

  const run = useCallback(
    (action: TableAction): boolean => {
      const c = latest.current;
      const row = c.index >= 0 ? c.rows.row(c.index) : undefined;
      switch (action.type) {
        case 'move': {
          const next = moveActive(c.index, action.delta, c.total);
          if (action.extend) {
            const ids = [row?.id, c.rows.row(next)?.id].filter((id): id is string => Boolean(id));
            c.selection.add(ids);
          }
          set(next);
          if (c.drawerOpen) {
            const nextRow = c.rows.row(next);
            if (nextRow) c.onOpen(nextRow);
          }
          return true;
        }
        case 'edge':
          set(action.to === 'first' ? moveActive(-1, 1, c.total) : moveActive(-1, -1, c.total));
          return true;
        case 'toggle':
          if (row) c.selection.toggle(c.index, row.id);
          return row !== undefined;
        case 'open':
          if (row) c.onOpen(row);
          return row !== undefined;
        case 'close':
          if (c.drawerOpen) c.onCloseDrawer();
          else if (c.selection.ids.size > 0) c.selection.clear();
          else return false;
          return true;
        case 'focusSearch':
          c.onFocusSearch();
          return true;
        case 'code':
          if (!c.onCode) return false;
          c.onCode();
          return true;
      }
    },
    [set],
  );

  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      // Quiet under any dialog (the layer stack knows the shell's palette and shortcuts dialog too).
      if (e.defaultPrevented || latest.current.dialogOpen || isModalLayerOpen()) return;
      const field = inField(e.target);
      const action = keyToAction({ key: e.key, shiftKey: e.shiftKey, ctrlKey: e.ctrlKey, metaKey: e.metaKey, altKey: e.altKey, inField: field });
      // Escape inside a field of the drawer still closes it; in the search box it just blurs.
      if (!action || (action.type === 'close' && field && !latest.current.drawerOpen)) return;
      if (run(action)) e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [run]);

  // The grid's own handler only stops the browser scrolling the grid on arrows and space;
  // the document listener does the work.
  const onGridKeyDown = useCallback((e: KeyboardEvent<HTMLDivElement>) => {
    if (['ArrowDown', 'ArrowUp', ' ', 'PageDown', 'PageUp', 'Home', 'End'].includes(e.key) && !inField(e.target)) {
      e.preventDefault();
      const action = keyToAction({ key: e.key, shiftKey: e.shiftKey, ctrlKey: e.ctrlKey, metaKey: e.metaKey, altKey: e.altKey, inField: false });
      if (action) run(action);
    }
  }, [run]);

  const onGridFocus = useCallback(
    (firstVisible = 0) => {
      const { index, total } = latest.current;
      if (index < 0 && total > 0) set(Math.min(Math.max(0, firstVisible), total - 1));
    },
    [set],
  );

  return useMemo(() => ({ index, set, onGridKeyDown, onGridFocus }), [index, set, onGridKeyDown, onGridFocus]);
}
