import { memo, useEffect, useRef, type KeyboardEvent, type MouseEvent, type RefObject } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { formatMoney } from '../../../schema/money.ts';
import type { TransactionSort } from '../../../schema/transaction-query.ts';
import type { TransactionView } from '../../data-access/types.ts';
import { ariaSort, nextSort, type SortableColumn } from './search-params.ts';
import type { TransactionRows } from './use-transaction-rows.ts';
import type { ReferenceNames } from './use-reference-data.ts';
import { StatusMarks } from './status-marks.tsx';

export const ROW_HEIGHT = 36;
const HEADER_HEIGHT = 34;

export interface TransactionsTableProps {
  rows: TransactionRows;
  total: number;
  /** False until the first answer for this query: no "no results" flash before it. */
  loaded: boolean;
  sort: TransactionSort;
  names: ReferenceNames;
  selected: ReadonlySet<string>;
  active: number;
  /** The transaction shown in the detail drawer (marked by id: rows can shift while syncing). */
  openId: string | undefined;
  headerState: 'all' | 'some' | 'none';
  /** A key that changes with the query: the table scrolls back to the top (§5 page reset). */
  queryKey: string;
  initialRow: number;
  scrollRef: RefObject<HTMLDivElement | null>;
  onSort(sort: TransactionSort): void;
  onRowClick(index: number, row: TransactionView, e: MouseEvent): void;
  onToggle(index: number, row: TransactionView, shift: boolean): void;
  onHeaderToggle(): void;
  onKeyDown(e: KeyboardEvent<HTMLDivElement>): void;
  onFocus(): void;
  onVisibleRange(first: number, last: number): void;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/**
 * The virtualised transactions grid: only the rows on screen exist in the DOM, and row
 * windows are fetched from the worker as they scroll into view, so 100k rows scroll like 100.
 */
export function TransactionsTable(props: TransactionsTableProps) {
  const { rows, total, sort, names, selected, active, scrollRef } = props;
  // The React Compiler is not used here; rows get their values as props, never the instance.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    // The sticky header sits above the rows inside the same scroller (so both scroll sideways
    // together): rows start one header down, and scrolling to a row keeps it clear of the header.
    scrollMargin: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  const { ensure } = rows;
  const { onVisibleRange } = props;

  useEffect(() => {
    // Prefetch a window past the viewport in both directions so scrolling rarely waits.
    ensure(Math.max(0, first - 50), last + 50);
    onVisibleRange(first, last);
  }, [first, last, ensure, onVisibleRange]);

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
    virtualizer.scrollToOffset(0);
  }, [props.queryKey, virtualizer]);

  useEffect(() => {
    if (active >= 0) virtualizer.scrollToIndex(active, { align: 'auto' });
  }, [active, virtualizer]);

  return (
    <div
      className="grid"
      role="grid"
      aria-label="Transactions"
      aria-rowcount={total + 1}
      aria-multiselectable="true"
      aria-activedescendant={active >= 0 ? `txn-row-${active}` : undefined}
      tabIndex={0}
      onKeyDown={props.onKeyDown}
      onFocus={(e) => e.target === e.currentTarget && props.onFocus()}
    >
      {rows.waiting && (
        // Local reads answer within a frame; this appears (after a delay, in CSS) only while the
        // worker is still loading the saved rows after a cold start.
        <div className="grid-waiting">Opening your saved transactions…</div>
      )}
      <div className="grid-body" ref={scrollRef}>
        <HeaderRow sort={sort} headerState={props.headerState} onSort={props.onSort} onHeaderToggle={props.onHeaderToggle} />
        {props.loaded && total === 0 && !rows.waiting && <div className="grid-empty">No transactions match.</div>}
        <div className="grid-spacer" style={{ height: virtualizer.getTotalSize() }} role="rowgroup">
          {items.map((item) => {
            const row = rows.row(item.index);
            return (
              <Row
                key={item.key}
                index={item.index}
                top={item.start - HEADER_HEIGHT}
                row={row}
                names={names}
                selected={row ? selected.has(row.id) : false}
                active={item.index === active}
                open={row !== undefined && row.id === props.openId}
                onRowClick={props.onRowClick}
                onToggle={props.onToggle}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}

const HeaderRow = memo(function HeaderRow(props: {
  sort: TransactionSort;
  headerState: 'all' | 'some' | 'none';
  onSort(sort: TransactionSort): void;
  onHeaderToggle(): void;
}) {
  const sortable = (column: SortableColumn, label: string, className = '') => (
    <div role="columnheader" aria-sort={ariaSort(props.sort, column)} className={`cell ${className}`}>
      <button type="button" className="sort-button" onClick={() => props.onSort(nextSort(props.sort, column))}>
        {label}
        <span className="sort-arrow" aria-hidden="true">
          {ariaSort(props.sort, column) === 'ascending' ? '↑' : ariaSort(props.sort, column) === 'descending' ? '↓' : ''}
        </span>
      </button>
    </div>
  );
  return (
    <div className="grid-row grid-header" role="row" aria-rowindex={1}>
      <div role="columnheader" className="cell cell-check">
        <input
          type="checkbox"
          aria-label="Select all matching"
          checked={props.headerState === 'all'}
          ref={(el) => {
            if (el) el.indeterminate = props.headerState === 'some';
          }}
          onChange={props.onHeaderToggle}
        />
      </div>
      {sortable('date', 'Date')}
      {sortable('merchant', 'Merchant')}
      <div role="columnheader" className="cell">Cardholder</div>
      {sortable('amount', 'Amount', 'cell-amount')}
      <div role="columnheader" className="cell">GL account</div>
      <div role="columnheader" className="cell">Department</div>
      <div role="columnheader" className="cell">Location</div>
      <div role="columnheader" className="cell">Memo</div>
      <div role="columnheader" className="cell">Status</div>
    </div>
  );
});

interface RowProps {
  index: number;
  top: number;
  row: TransactionView | undefined;
  names: ReferenceNames;
  selected: boolean;
  active: boolean;
  open: boolean;
  onRowClick: TransactionsTableProps['onRowClick'];
  onToggle: TransactionsTableProps['onToggle'];
}

const Row = memo(function Row({ index, top, row, names, selected, active, open, onRowClick, onToggle }: RowProps) {
  const style = { transform: `translateY(${top}px)` };
  if (!row) {
    return (
      // Not yet fetched (a window away): hidden from assistive tech until its row arrives.
      <div className="grid-row grid-row-loading" aria-hidden="true" style={style}>
        <div className="cell cell-placeholder" />
      </div>
    );
  }
  const classes = ['grid-row', selected && 'selected', active && 'active', open && 'open', row.pending && `sync-${row.pending}`]
    .filter(Boolean)
    .join(' ');
  return (
    <div
      id={`txn-row-${index}`}
      className={classes}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      style={style}
      onClick={(e) => onRowClick(index, row, e)}
    >
      <div role="gridcell" className="cell cell-check" onClick={(e) => e.stopPropagation()}>
        <input
          type="checkbox"
          tabIndex={-1}
          aria-label={`Select ${row.merchant_name}, ${formatMoney(row.amount, row.currency)}`}
          checked={selected}
          onChange={(e) => onToggle(index, row, (e.nativeEvent as unknown as { shiftKey?: boolean }).shiftKey === true)}
        />
      </div>
      <div role="gridcell" className="cell cell-date">{dateFormat.format(new Date(row.occurred_at))}</div>
      <div role="gridcell" className="cell cell-merchant" title={row.merchant_category}>{row.merchant_name}</div>
      <div role="gridcell" className="cell">{names.user(row.user_id)}</div>
      <div role="gridcell" className={`cell cell-amount${row.amount < 0 ? ' negative' : ''}`}>
        {formatMoney(row.amount, row.currency)}
      </div>
      <div role="gridcell" className="cell">
        {row.gl_account_id === null ? <span className="missing" aria-label="No GL account">—</span> : names.glAccount(row.gl_account_id)}
      </div>
      <div role="gridcell" className="cell">{names.department(row.department_id)}</div>
      <div role="gridcell" className="cell">{names.location(row.location_id)}</div>
      <div role="gridcell" className="cell cell-memo" title={row.memo ?? undefined}>{row.memo}</div>
      <div role="gridcell" className="cell cell-status">
        <StatusMarks row={row} />
      </div>
    </div>
  );
});
