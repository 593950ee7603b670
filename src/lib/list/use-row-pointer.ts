import { useCallback, type MouseEvent } from 'react';
import type { SelectionApi } from './use-selection.ts';
import type { ActiveRow } from './use-table-keys.ts';

/**
 * A list's pointer model: clicking a row makes it current and opens it (Shift extends the
 * selection to it, Cmd/Ctrl toggles it, when `modifiers` is on); a row's checkbox makes it
 * current and toggles it (Shift: the range from the anchor).
 */
export function useRowPointer<T extends { id: string }>(
  active: Pick<ActiveRow, 'set'>,
  selection: Pick<SelectionApi, 'range' | 'toggle'>,
  open: (row: T) => void,
  modifiers = true,
): { onRowClick(index: number, row: T, e?: MouseEvent): void; onToggle(index: number, row: T, shift: boolean): void } {
  const onRowClick = useCallback(
    (index: number, row: T, e?: MouseEvent) => {
      active.set(index);
      if (modifiers && e?.shiftKey) void selection.range(index);
      else if (modifiers && (e?.metaKey || e?.ctrlKey)) selection.toggle(index, row.id);
      else open(row);
    },
    [active, selection, open, modifiers],
  );
  const onToggle = useCallback(
    (index: number, row: T, shift: boolean) => {
      active.set(index);
      if (shift) void selection.range(index);
      else selection.toggle(index, row.id);
    },
    [active, selection],
  );
  return { onRowClick, onToggle };
}
