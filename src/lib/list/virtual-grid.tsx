import { Fragment, useEffect, useLayoutEffect, useRef, type FocusEvent, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { ListRows } from './use-rows.ts';
import { ListEmpty } from './list-empty.tsx';
import { observeScrollerOffset, observeScrollerRect, scrollScrollerTo, usePagePlacement, windowScroller, type GridScroller } from './page-scroll.ts';
import { Skeleton } from '../../components/skeleton.tsx';
import { PHONE_QUERY, useMediaQuery } from '../media-query.ts';

/** Heights the stylesheet gives `.grid-row` and `.grid-header`: the virtualizer places rows with them. */
export const ROW_HEIGHT = 36;
export const HEADER_HEIGHT = 34;

/** The DOM id of a data row (the grid's aria-activedescendant points at it). */
export const gridRowId = (prefix: string, index: number) => `${prefix}-${index}`;
/** aria-rowindex of a data row: the header row is row 1. */
export const gridRowIndex = (index: number) => index + 2;

export interface VirtualGridProps<T extends { id: string }> {
  /** The grid's accessible name. */
  label: string;
  /** Extra class on the grid (e.g. `grid-cards`, the phone layout's rows as cards). */
  className?: string;
  /** Height of a data row in px (ROW_HEIGHT unless the caller's layout says otherwise). */
  rowHeight?: number;
  /** Prefix of the data rows' ids (gridRowId). */
  rowIdPrefix: string;
  rows: ListRows<T>;
  total: number;
  /** False until the first answer for this query: no "no results" flash before it. */
  loaded: boolean;
  active: number;
  /** A key that changes with the query: the grid scrolls back to the top (§5 page reset). */
  queryKey: string;
  /** The row to scroll to once the first answer arrives (a reload returns to the same place). */
  initialRow: number;
  scrollRef: RefObject<HTMLDivElement | null>;
  /** The header row (role row, column headers), sticky above the rows. */
  header: ReactNode;
  emptyText: string;
  /** A line under the empty text: what to try next. */
  emptyHint?: ReactNode;
  /** Shown only while the worker is still loading the saved rows after a cold start. */
  waitingText: string;
  /** A loaded data row, placed `top` px down the spacer (role row, gridRowId, gridRowIndex). */
  renderRow(row: T, index: number, top: number): ReactNode;
  onKeyDown(e: KeyboardEvent<HTMLDivElement>): void;
  /**
   * The grid itself took focus from the keyboard (Tab), with the first row on screen: the table
   * makes a row current. Never for a focus a pointer gave (a tap or click on a row), which would
   * make another row current and scroll to it under the finger (issue 25 item 10).
   */
  onFocus(firstVisible: number): void;
  onVisibleRange(first: number, last: number): void;
}

/**
 * A virtualised ARIA grid over row windows: only the rows on screen exist in the DOM, and windows
 * are fetched as they scroll into view, so 100k rows scroll like 100. The columns are the caller's.
 */
export function VirtualGrid<T extends { id: string }>(props: VirtualGridProps<T>) {
  const { rows, total, active, scrollRef, onVisibleRange, renderRow } = props;
  const rowHeight = props.rowHeight ?? ROW_HEIGHT;
  // Issue 25 item 14: on a phone the page scrolls the list (it is as tall as its rows, the
  // virtualizer windows against the window's scroll); on a desktop the grid is its own scroll box.
  const pageScroll = useMediaQuery(PHONE_QUERY);
  const spacerRef = useRef<HTMLDivElement>(null);
  const placement = usePagePlacement(pageScroll, spacerRef);
  // The React Compiler is not used here; rows get their values as props, never the instance.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer<GridScroller, Element>({
    count: total,
    getScrollElement: () => (pageScroll ? windowScroller() : scrollRef.current),
    observeElementRect: observeScrollerRect,
    observeElementOffset: observeScrollerOffset,
    scrollToFn: scrollScrollerTo,
    initialOffset: () => (pageScroll ? window.scrollY : 0),
    estimateSize: () => rowHeight,
    overscan: 12,
    // Its own scroller: the sticky header sits above the rows inside it (so both scroll sideways
    // together): rows start one header down, and scrolling to a row keeps it clear of the header.
    // The page's: rows start where the spacer lies in the document, and scrolling to a row keeps
    // it clear of the sticky top bar and header and of the bottom navigation.
    scrollMargin: pageScroll ? placement.rowsTop : HEADER_HEIGHT,
    scrollPaddingStart: pageScroll ? placement.coverTop + HEADER_HEIGHT : HEADER_HEIGHT,
    scrollPaddingEnd: pageScroll ? placement.coverBottom : 0,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  const { ensure } = rows;

  useEffect(() => {
    // Prefetch a window past the viewport in both directions so scrolling rarely waits.
    ensure(Math.max(0, first - 50), last + 50);
    onVisibleRange(first, last);
  }, [first, last, ensure, onVisibleRange]);

  // A layout switch changes the row height: the virtualizer re-measures from the new estimate.
  useEffect(() => {
    virtualizer.measure();
  }, [rowHeight, virtualizer]);

  const restored = useRef(false);
  useEffect(() => {
    if (restored.current || total === 0) return;
    restored.current = true;
    if (props.initialRow > 0) virtualizer.scrollToIndex(Math.min(props.initialRow, total - 1), { align: 'start' });
  }, [total, props.initialRow, virtualizer]);

  const lastKey = useRef(props.queryKey);
  useEffect(() => {
    if (lastKey.current === props.queryKey) return;
    lastKey.current = props.queryKey;
    // The page: back to the list's first row only when the page is scrolled past it (the search
    // box or filters being used stay where they are).
    if (!pageScroll) virtualizer.scrollToOffset(0);
    else if (window.scrollY > virtualizer.options.scrollMargin - virtualizer.options.scrollPaddingStart) virtualizer.scrollToIndex(0, { align: 'start' });
  }, [props.queryKey, virtualizer, pageScroll]);

  useEffect(() => {
    if (active >= 0) virtualizer.scrollToIndex(active, { align: 'auto' });
  }, [active, virtualizer]);

  // The page scrolls the list: the grid is as tall as its rows, and a script giving it focus back
  // (a drawer or dialog closing, Escape from the search box) would scroll the page to its top edge,
  // away from the row the user was on. Its focus() keeps the page where it is.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!pageScroll || !el) return;
    el.focus = (options?: FocusOptions) => HTMLElement.prototype.focus.call(el, { ...options, preventScroll: true });
    return () => void Reflect.deleteProperty(el, 'focus');
  }, [pageScroll, scrollRef]);

  const focusHandlers = useKeyboardFocus(() => props.onFocus(virtualizer.range?.startIndex ?? first));

  return (
    <div className={['grid', props.className, pageScroll && 'grid-page-scroll'].filter(Boolean).join(' ')}>
      {rows.waiting && (
        // Local reads answer within a frame; this appears (after a delay, in CSS) only while the
        // worker is still loading the saved rows after a cold start.
        <div className="grid-waiting">{props.waitingText}</div>
      )}
      {/* The scroller is the grid itself, and focusable: the keyboard can scroll it, and it holds
          the active row (aria-activedescendant); axe scrollable-region-focusable. */}
      <div
        className="grid-body"
        ref={scrollRef}
        role="grid"
        aria-label={props.label}
        aria-rowcount={total + 1}
        aria-multiselectable="true"
        aria-activedescendant={active >= 0 ? gridRowId(props.rowIdPrefix, active) : undefined}
        tabIndex={0}
        onKeyDown={props.onKeyDown}
        {...focusHandlers}
      >
        {props.header}
        {props.loaded && total === 0 && !rows.waiting && <ListEmpty text={props.emptyText} hint={props.emptyHint} answeredVersion={rows.answeredVersion} />}
        <div className="grid-spacer" ref={spacerRef} style={{ height: virtualizer.getTotalSize() }} role="rowgroup">
          {items.map((item) => {
            const row = rows.row(item.index);
            const top = item.start - virtualizer.options.scrollMargin;
            return <Fragment key={item.key}>{row ? renderRow(row, item.index, top) : <LoadingRow top={top} />}</Fragment>;
          })}
        </div>
      </div>
    </div>
  );
}

/**
 * The grid's focus handlers: `onFocus` runs when the keyboard (or a script) focuses the grid
 * itself. A tap or click focuses the grid (its rows are not focusable) before the click arrives;
 * that focus must not make row 0 current: scrolling to it would move the rows under the finger,
 * and the click (pointerdown and pointerup on different rows) would then open nothing.
 */
function useKeyboardFocus(onFocus: () => void) {
  const pointerFocus = useRef(false);
  const pointerDone = () => {
    pointerFocus.current = false;
  };
  return {
    onPointerDown: () => {
      pointerFocus.current = true;
    },
    // Not on pointerup: after a touch, the focus comes with the compatibility mouse events,
    // after pointerup. A click ends the gesture; a touch that scrolled ends in pointercancel.
    onClickCapture: pointerDone,
    onPointerCancel: pointerDone,
    onBlur: (e: FocusEvent<HTMLDivElement>) => {
      if (e.target === e.currentTarget) pointerDone();
    },
    onFocus: (e: FocusEvent<HTMLDivElement>) => {
      if (e.target !== e.currentTarget || pointerFocus.current) return;
      onFocus();
    },
  };
}

/** A row not yet fetched (a window away): hidden from assistive tech until its row arrives. */
function LoadingRow({ top }: { top: number }) {
  return (
    <div className="grid-row grid-row-loading" aria-hidden="true" style={{ transform: `translateY(${top}px)` }}>
      <Skeleton className="cell-placeholder" />
    </div>
  );
}
