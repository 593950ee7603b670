import { useCallback, useLayoutEffect, useRef, type MouseEvent } from 'react';
import type { SelectionApi } from './use-selection.ts';
import type { ActiveRow } from './use-table-keys.ts';

export interface RowPointer<T> {
  onRowClick(index: number, row: T, e?: MouseEvent): void;
  onToggle(index: number, row: T, shift: boolean): void;
}

/**
 * A list's pointer model: clicking a row makes it current and opens it (Shift extends the
 * selection to it, Cmd/Ctrl toggles it, when `modifiers` is on); a row's checkbox makes it
 * current and toggles it (Shift: the range from the anchor).
 *
 * The handlers keep one identity for the life of the list: `active`, `selection` and `open` are
 * new objects after every j/k or selection change, and every visible row (a memoized `Row`) gets
 * the handlers as props, so handlers depending on them would re-render every row on each move.
 * They read the latest values from a ref instead (updated in a layout effect, before any event
 * of the new render can fire).
 */
export function useRowPointer<T extends { id: string }>(
  active: Pick<ActiveRow, 'set'>,
  selection: Pick<SelectionApi, 'range' | 'toggle'>,
  open: (row: T) => void,
  modifiers = true,
): RowPointer<T> {
  const latest = useRef({ active, selection, open, modifiers });
  useLayoutEffect(() => {
    latest.current = { active, selection, open, modifiers };
  });
  const onRowClick = useCallback((index: number, row: T, e?: MouseEvent) => {
    const now = latest.current;
    now.active.set(index);
    if (now.modifiers && e?.shiftKey) void now.selection.range(index);
    else if (now.modifiers && (e?.metaKey || e?.ctrlKey)) now.selection.toggle(index, row.id);
    else now.open(row);
  }, []);
  const onToggle = useCallback((index: number, row: T, shift: boolean) => {
    const now = latest.current;
    now.active.set(index);
    if (shift) void now.selection.range(index);
    else now.selection.toggle(index, row.id);
  }, []);
  return { onRowClick, onToggle };
}
