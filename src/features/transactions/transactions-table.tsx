import { memo, type KeyboardEvent, type MouseEvent, type RefObject } from 'react';
import { formatDay, formatMoney } from '../../lib/format.ts';
import type { TransactionSort } from '../../../schema/transaction-query.ts';
import type { TransactionView } from '../../data-access/types.ts';
import { ariaSort, nextSort, type SortableColumn } from './search-params.ts';
import type { TransactionRows } from './use-transaction-rows.ts';
import type { ReferenceNames } from './use-reference-data.ts';
import { StatusMarks } from './status-marks.tsx';
import { CheckCell, GridRow, HeaderCheckCell } from '../../lib/list/grid-row.tsx';
import { VirtualGrid, ROW_HEIGHT } from '../../lib/list/virtual-grid.tsx';
import { useLayout } from '../../lib/media-query.ts';

const ROW_ID_PREFIX = 'txn-row';
/** A row as a card on a phone (`.grid-cards .grid-row` in styles.css has this height). */
export const CARD_HEIGHT = 72;

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

/**
 * The transactions grid: its columns and rows over the shared virtual grid. One component for
 * both layouts: on a phone (below 768 px) the same rows and cells are laid out as cards (merchant,
 * amount, date, state and sync mark; the other cells are hidden by the stylesheet) and are taller.
 */
export function TransactionsTable(props: TransactionsTableProps) {
  const { names, selected, active, openId, onRowClick, onToggle } = props;
  const phone = useLayout() === 'phone';
  return (
    <VirtualGrid
      label="Transactions"
      className={phone ? 'grid-cards' : undefined}
      rowHeight={phone ? CARD_HEIGHT : ROW_HEIGHT}
      rowIdPrefix={ROW_ID_PREFIX}
      rows={props.rows}
      total={props.total}
      loaded={props.loaded}
      active={active}
      queryKey={props.queryKey}
      initialRow={props.initialRow}
      scrollRef={props.scrollRef}
      header={<HeaderRow sort={props.sort} headerState={props.headerState} onSort={props.onSort} onHeaderToggle={props.onHeaderToggle} />}
      emptyText="No transactions match."
      emptyHint="Try a shorter search or clear the filters."
      waitingText="Opening your saved transactions…"
      renderRow={(row, index, top) => (
        <Row
          index={index}
          top={top}
          row={row}
          names={names}
          selected={selected.has(row.id)}
          active={index === active}
          open={row.id === openId}
          onRowClick={onRowClick}
          onToggle={onToggle}
        />
      )}
      onKeyDown={props.onKeyDown}
      onFocus={props.onFocus}
      onVisibleRange={props.onVisibleRange}
    />
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
      <HeaderCheckCell label="Select all matching" state={props.headerState} onToggle={props.onHeaderToggle} />
      {sortable('date', 'Date')}
      {sortable('merchant', 'Merchant')}
      <div role="columnheader" className="cell cell-cardholder">Cardholder</div>
      {sortable('amount', 'Amount', 'cell-amount')}
      <div role="columnheader" className="cell cell-coding">GL account</div>
      <div role="columnheader" className="cell cell-coding">Department</div>
      <div role="columnheader" className="cell cell-coding">Location</div>
      <div role="columnheader" className="cell cell-memo">Memo</div>
      <div role="columnheader" className="cell cell-status">Status</div>
    </div>
  );
});

interface RowProps {
  index: number;
  top: number;
  row: TransactionView;
  names: ReferenceNames;
  selected: boolean;
  active: boolean;
  open: boolean;
  onRowClick: TransactionsTableProps['onRowClick'];
  onToggle: TransactionsTableProps['onToggle'];
}

const Row = memo(function Row({ index, top, row, names, selected, active, open, onRowClick, onToggle }: RowProps) {
  return (
    <GridRow
      index={index}
      top={top}
      idPrefix={ROW_ID_PREFIX}
      selected={selected}
      active={active}
      open={open}
      pending={row.pending}
      onClick={(e) => onRowClick(index, row, e)}
    >
      <CheckCell
        label={`Select ${row.merchant_name}, ${formatMoney(row.amount, row.currency)}`}
        checked={selected}
        onToggle={(shift) => onToggle(index, row, shift)}
      />
      <div role="gridcell" className="cell cell-date">{formatDay(row.occurred_at)}</div>
      <div role="gridcell" className="cell cell-merchant" title={row.merchant_category}>{row.merchant_name}</div>
      <div role="gridcell" className="cell cell-cardholder">{names.user(row.user_id)}</div>
      <div role="gridcell" className={`cell cell-amount${row.amount < 0 ? ' negative' : ''}`}>
        {formatMoney(row.amount, row.currency)}
      </div>
      <div role="gridcell" className="cell cell-coding">
        {row.gl_account_id === null ? <span className="missing" aria-label="No GL account">—</span> : names.glAccount(row.gl_account_id)}
      </div>
      <div role="gridcell" className="cell cell-coding">{names.department(row.department_id)}</div>
      <div role="gridcell" className="cell cell-coding">{names.location(row.location_id)}</div>
      <div role="gridcell" className="cell cell-memo" title={row.memo ?? undefined}>{row.memo}</div>
      <div role="gridcell" className="cell cell-status">
        <StatusMarks row={row} />
      </div>
    </GridRow>
  );
});
