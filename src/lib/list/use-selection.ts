import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { applyRange, emptySelection, rangeBounds, selectAll, toggleRow, type Selection } from './selection.ts';
import type { ListRows } from './use-rows.ts';

export interface SelectionApi {
  ids: ReadonlySet<string>;
  toggle(index: number, id: string): void;
  /** Shift-click / shift-move: the range from the anchor takes the anchor's state. */
  range(index: number): Promise<void>;
  add(ids: string[]): void;
  selectAllMatching(): Promise<void>;
  clear(): void;
}

/**
 * Selection for one query: a new key (filter, sort) starts with nothing selected (rows picked
 * under another search would be invisible yet still acted on). Stored with its query key so the
 * reset needs no effect. `matchingIds` answers "select all N matching" for the current query.
 */
export function useSelection(
  key: string,
  rows: ListRows<{ id: string }>,
  matchingIds: () => Promise<string[]>,
): SelectionApi {
  const [state, setState] = useState<{ key: string; sel: Selection }>({ key, sel: emptySelection });
  const sel = state.key === key ? state.sel : emptySelection;
  const update = useCallback(
    (f: (s: Selection) => Selection) => setState((prev) => ({ key, sel: f(prev.key === key ? prev.sel : emptySelection) })),
    [key],
  );
  // The latest query's answer, without making the callbacks (and memoised rows) change per render.
  const matching = useRef(matchingIds);
  useEffect(() => {
    matching.current = matchingIds;
  });

  const range = useCallback(
    async (index: number) => {
      const anchorRow = sel.anchor === null ? undefined : rows.row(sel.anchor);
      if (!anchorRow) {
        const row = rows.row(index);
        if (row) update((s) => toggleRow(s, index, row.id));
        return;
      }
      const [start, end] = rangeBounds(sel, index);
      const anchorSelected = sel.ids.has(anchorRow.id);
      const ids = await rows.idsInRange(start, end);
      update((s) => applyRange(s, ids, anchorSelected));
    },
    [sel, rows, update],
  );

  const selectAllMatching = useCallback(async () => {
    const ids = await matching.current();
    update(() => selectAll(ids));
  }, [update]);

  return useMemo(
    () => ({
      ids: sel.ids,
      toggle: (index: number, id: string) => update((s) => toggleRow(s, index, id)),
      range,
      add: (ids: string[]) => update((s) => ({ ids: new Set([...s.ids, ...ids]), anchor: s.anchor })),
      selectAllMatching,
      clear: () => update(() => emptySelection),
    }),
    [sel.ids, update, range, selectAllMatching],
  );
}
