/**
 * Multi-select over a virtualised list, as pure functions on an immutable value. Rows are
 * addressed by index for the anchor (shift-click ranges are positional) and by id for
 * membership (a selection survives re-sorting and new rows arriving).
 */
export interface Selection {
  readonly ids: ReadonlySet<string>;
  /** Index of the last plain click: one end of the next shift-click range. */
  readonly anchor: number | null;
}

export const emptySelection: Selection = { ids: new Set(), anchor: null };

export function toggleRow(sel: Selection, index: number, id: string): Selection {
  const ids = new Set(sel.ids);
  if (ids.has(id)) ids.delete(id);
  else ids.add(id);
  return { ids, anchor: index };
}

/** The inclusive index range a shift-click at `index` covers (from the anchor, or the row alone). */
export function rangeBounds(sel: Selection, index: number): [number, number] {
  const anchor = sel.anchor ?? index;
  return anchor <= index ? [anchor, index] : [index, anchor];
}

/**
 * Shift-click: every row of the range takes the anchor row's state, so a range can select or
 * clear (as in mail clients). `rangeIds` are the ids at rangeBounds, in order.
 */
export function applyRange(sel: Selection, rangeIds: readonly string[], anchorSelected: boolean): Selection {
  const ids = new Set(sel.ids);
  for (const id of rangeIds) {
    if (anchorSelected) ids.add(id);
    else ids.delete(id);
  }
  return { ids, anchor: sel.anchor };
}

export function selectAll(ids: readonly string[]): Selection {
  return { ids: new Set(ids), anchor: null };
}

/** Whether the header checkbox is checked, mixed, or clear for the current result. */
export function headerCheckState(selected: number, total: number): 'all' | 'some' | 'none' {
  if (selected === 0 || total === 0) return 'none';
  return selected >= total ? 'all' : 'some';
}
