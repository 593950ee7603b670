/**
 * One list page, declared (issue 26): what a list shows and does, as data. `ListPage`
 * (list-page.tsx) renders it over the shared virtual grid; `useListPage` (use-list-page.ts) holds
 * its state (rows, selection, current row, keys). A page builds its spec (memoised) and hands both
 * to `ListPage`; nothing else of a list's table, toolbar, selection or bulk bar is written again.
 * Rows are memoised on the spec: a list of many rows (transactions) memoises its spec and columns,
 * so scrolling re-renders only the rows that change.
 */
import type { ReactNode } from 'react';
import type { ButtonProps } from '../../components/button.tsx';
import type { SelectOption } from '../../components/select-field.tsx';
import type { ShortcutId, ShortcutScope } from '../shortcuts.ts';

export interface ListColumn<T> {
  key: string;
  /** The column header's words (also its accessible name). */
  header: string;
  /** A header only assistive tech reads (the actions column): visually hidden. */
  hiddenHeader?: boolean;
  /** Class of the header and of each cell ("cell" is always there). */
  className?: string;
  /** The row's name cell: a row header, so a row is named by it. */
  rowHeader?: boolean;
  /** What the grid is sorted by: aria-sort on this header. */
  sorted?: 'ascending' | 'descending' | 'none';
  /** A header that sorts when pressed (the transactions grid); its label says how. */
  onSort?(): void;
  /** The cell's content. */
  cell(row: T): ReactNode;
  /** A faint cell (an empty value shown as "—"). */
  muted?(row: T): boolean;
  /** A class of this row's cell (a refund's amount: `negative`). */
  cellClassName?(row: T): string | undefined;
  /** The cell's title (its whole text on hover, a memo). */
  title?(row: T): string | undefined;
}

/** A filter select in the toolbar; its value and change are the page's (usually its URL search). */
export interface ListFilter {
  key: string;
  label: string;
  value: string;
  options: readonly SelectOption[];
  /** Choices before the options ("All", "All vendors"). */
  leading?: readonly SelectOption[];
  onChange(value: string): void;
}

/** The toolbar's "Sort" select. */
export interface ListSortChoice {
  value: string;
  options: readonly SelectOption[];
  onChange(value: string): void;
}

/** An action on the selected rows, in the bulk bar. */
export interface ListBulkAction {
  key: string;
  /** The button's words for `count` selected ("Lock 3"). */
  label(count: number): string;
  variant?: ButtonProps['variant'];
  run(ids: readonly string[]): void;
}

export interface ListSearchSpec {
  /** The input's id. */
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange(q: string): void;
}

export interface ListSelectSpec<T> {
  /** A row checkbox's name ("Select Travel ••1234, Alex Kim"). */
  label(row: T): string;
  /** Every id matching the current query: "Select all N matching" and the header checkbox. */
  matchingIds(): Promise<string[]>;
  actions: readonly ListBulkAction[];
  /** The header checkbox's name ("Select all bills"); "Select all" without it. */
  allLabel?: string;
  /**
   * The bar's own actions instead of `actions`' buttons (bills: buttons that say why they are
   * disabled, a "More actions" menu, their confirmations), mounted while something is selected.
   */
  bar?: ReactNode;
  /**
   * The bar stays while nothing is selected (the approvals inbox, its actions then on the current
   * row): what it says then, for the list's count (`null` while the list has not answered). Its
   * actions are disabled while the list is empty, "Clear selection" shows only with a selection.
   */
  idleText?(total: number | null): string;
  /** The bulk bar's words for the selection (count and sums), in place of "N selected". */
  summary?(ids: ReadonlySet<string>): ReactNode;
}

/** A page's own keys (registry `scope` entries), e.g. cards' l / u. */
export interface ListShortcuts {
  scope: ShortcutScope;
  ids: readonly ShortcutId[];
  run(id: ShortcutId): void;
}

export interface ListSpec<T extends { id: string }> {
  /** The grid's accessible name. */
  label: string;
  /** Prefix of the data rows' DOM ids. */
  rowIdPrefix: string;
  /** Class of every row (its column template in the stylesheet). */
  rowClassName: string;
  /** Class of the grid. */
  gridClassName: string;
  /** A data row's height on a desktop (two-line rows); ROW_HEIGHT without it. */
  rowHeight?: number;
  /** On a phone the rows are cards: the grid's extra class and a card's height. */
  phone?: { className: string; rowHeight: number };
  columns: readonly ListColumn<T>[];
  /** Buttons or a menu for one row, in a last cell a click in which never opens the row. */
  rowActions?(row: T): ReactNode;
  /** The row's outbox mark ('pending' | 'failed' …): styled `sync-<mark>`. */
  pending?(row: T): string | null | undefined;
  search?: ListSearchSpec;
  filters?: readonly ListFilter[];
  sort?: ListSortChoice;
  /** A "Clear filters" button while one of the filters narrows the list. */
  clearFilters?: () => void;
  /**
   * The page's own filter bar (more than selects: chips, dates, amounts, folding on a phone), in
   * place of the search, filters and sort above. A stable element: the spec is memoised.
   */
  toolbar?: ReactNode;
  /** Extra toolbar content after the filters (an export button). */
  toolbarExtra?: ReactNode;
  /** Rows can be selected (checkbox column, x, shift ranges) and acted on together. */
  select?: ListSelectSpec<T>;
  shortcuts?: ListShortcuts;
  /** The count line above the grid ("12 cards match"); none without it. */
  countText?(total: number): string;
  countTestId?: string;
  /** The page's own count line (count and sums per currency), in place of `countText`'s. */
  countLine?: ReactNode;
  /** Nouns of the first-mirror notice ("Showing 40 cards downloaded so far…"); no notice without. */
  partialNouns?: readonly [one: string, many: string];
  /** Lines under the notice, above the bulk bar (what still waits to sync). */
  notices?: ReactNode;
  /** What the empty grid says, and a hint or button under it. */
  emptyText: string;
  emptyHint?: ReactNode;
  /** Shown instead of the grid when the list has no row at all and nothing filters it. */
  blank?: ReactNode;
  /** Shown only while the worker still loads saved rows after a cold start. */
  waitingText: string;
  /** "Loading {what}…" of the skeleton shown before the list's source answers. */
  loadingWhat: string;
  /** The keyboard hint under the list. */
  keyHint: string;
}
