import { useCallback, useMemo, useRef, type MouseEvent, type RefObject } from 'react';
import { listVersion } from './list-version.ts';
import { useRows, type ListRows } from './use-rows.ts';
import { useSelection, type SelectionApi } from './use-selection.ts';
import { useTableKeys, type ActiveRow } from './use-table-keys.ts';
import { useRowPointer } from './use-row-pointer.ts';

export interface ListPageOptions<T extends { id: string }> {
  /** Changes with what is asked (search, filters, sort): the list starts over, the selection empties. */
  key: string;
  rows: ListRows<T>;
  /** The row open in the page's drawer (its id), if any. */
  openId?: string | undefined;
  /** Enter or a click: open the row (no row opens without it). */
  onOpen?(row: T): void;
  /** Escape with the drawer open: close it (focus returns to the grid). */
  onClose?(): void;
  /** A dialog of the page is open: the list's keys are quiet. */
  dialogOpen?: boolean;
  /** Every id matching the query ("select all N matching"); the list selects nothing without it. */
  matchingIds?: () => Promise<string[]>;
  /** 'c' on the selection (the transactions grid's bulk coding). */
  onCode?(): void;
  /** The row to scroll to once the first answer arrives (a reload returns to the same place). */
  initialRow?: number;
  /** The rows on screen changed (a page remembering its place). */
  onVisibleRange?(first: number, last: number): void;
}

/** What `ListPage` renders from: the rows and their state, and the handlers its parts call. */
export interface ListPageState<T extends { id: string }> {
  key: string;
  rows: ListRows<T>;
  total: number;
  openId: string | undefined;
  selection: SelectionApi;
  active: ActiveRow;
  scrollRef: RefObject<HTMLDivElement | null>;
  searchRef: RefObject<HTMLInputElement | null>;
  /** The grid element (to give focus back to after a drawer or dialog). */
  gridElement(): HTMLElement | null | undefined;
  focusSearch(): void;
  onRowClick(index: number, row: T, e?: MouseEvent): void;
  onToggle(index: number, row: T, shift: boolean): void;
  /** The selection, else the current row: what a page key (l, u) acts on. */
  targets(): string[];
  initialRow: number;
  onVisibleRange(first: number, last: number): void;
}

const noRange = () => undefined;

const NO_IDS = async () => [] as string[];

/**
 * A list page's state, once for every list: the selection for the query (x, shift ranges, "select
 * all"), the current row and the keyboard (j/k, x, Enter, Escape, '/'), the pointer model, and the
 * grid's and search box's elements.
 */
export function useListPage<T extends { id: string }>(o: ListPageOptions<T>): ListPageState<T> {
  const { key, rows, onOpen, onClose } = o;
  const total = rows.total ?? 0;
  const selection = useSelection(key, rows, o.matchingIds ?? NO_IDS);
  const scrollRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const gridElement = useCallback(() => scrollRef.current?.closest<HTMLElement>('[role="grid"]'), []);
  const focusSearch = useCallback(() => searchRef.current?.focus(), []);
  const open = useCallback((row: T) => onOpen?.(row), [onOpen]);
  const closeDrawer = useCallback(() => {
    onClose?.();
    gridElement()?.focus();
  }, [onClose, gridElement]);
  const active = useTableKeys({
    key,
    total,
    rows,
    selection,
    drawerOpen: o.openId !== undefined,
    dialogOpen: o.dialogOpen ?? false,
    onOpen: open,
    onCloseDrawer: closeDrawer,
    onFocusSearch: focusSearch,
    ...(o.onCode ? { onCode: o.onCode } : {}),
  });
  const { onRowClick, onToggle } = useRowPointer<T>(active, selection, open, o.matchingIds !== undefined);
  const targets = useCallback(() => {
    const current = active.index >= 0 ? rows.row(active.index) : undefined;
    return selection.ids.size > 0 ? [...selection.ids] : current ? [current.id] : [];
  }, [active.index, rows, selection.ids]);
  return {
    key, rows, total, openId: o.openId, selection, active, scrollRef, searchRef, gridElement, focusSearch, onRowClick, onToggle, targets,
    initialRow: o.initialRow ?? 0, onVisibleRange: o.onVisibleRange ?? noRange,
  };
}

/**
 * Rows of a list held in memory (the mirror's reference data, a server-only list): `null` while
 * its source has not answered. Every new array re-reads the visible rows.
 */
export function useLocalRows<T extends { id: string }>(key: string, items: readonly T[] | null, what: string): ListRows<T> {
  const shown = useMemo(() => items ?? [], [items]);
  const rows = useRows<T>({
    key,
    version: listVersion(shown),
    what,
    read: async (offset, limit) => ({ rows: shown.slice(offset, offset + limit), total: shown.length }),
  });
  return items === null ? { ...rows, total: null } : rows;
}
