import { memo, type KeyboardEvent, type MouseEvent, type RefObject } from 'react';
import { StatusPill } from '../../components/status-pill.tsx';
import { SyncMark } from '../../components/sync-mark.tsx';
import { BILL_STATUS_LABELS, BILL_STATUS_TONES, dueText, isOverdue } from '../../lib/bill-labels.ts';
import { formatDay, formatMoney } from '../../lib/format.ts';
import { CheckCell, GridRow, HeaderCheckCell } from '../../lib/list/grid-row.tsx';
import type { ListRows } from '../../lib/list/use-rows.ts';
import { VirtualGrid, ROW_HEIGHT } from '../../lib/list/virtual-grid.tsx';
import { useLayout } from '../../lib/media-query.ts';
import type { BillView } from './use-bills.ts';

const ROW_ID_PREFIX = 'bill-row';
/** A bill as a card on a phone (`.grid-cards .bill-row` in bills.css has this height). */
export const CARD_HEIGHT = 76;

export interface BillsTableProps {
  rows: ListRows<BillView>;
  total: number;
  loaded: boolean;
  filtered: boolean;
  selected: ReadonlySet<string>;
  headerState: 'none' | 'some' | 'all';
  active: number;
  openId: string | undefined;
  queryKey: string;
  /** The local calendar day: what is overdue. */
  today: string;
  /** The vendor's name from reference data (it can arrive after the rows). */
  vendorName(id: string): string;
  scrollRef: RefObject<HTMLDivElement | null>;
  onHeaderToggle(): void;
  onToggle(index: number, row: BillView, shift: boolean): void;
  onRowClick(index: number, row: BillView, e: MouseEvent): void;
  onKeyDown(e: KeyboardEvent<HTMLDivElement>): void;
  onFocus(): void;
  onVisibleRange(first: number, last: number): void;
}

/**
 * The bills grid over the shared virtual grid: a checkbox, vendor, invoice number, invoice and due
 * dates (overdue ones marked in words, not colour alone), amount, status with its sync mark. On a
 * phone the same rows are cards.
 */
export function BillsTable(props: BillsTableProps) {
  const { active, openId, selected, vendorName, today, onRowClick, onToggle } = props;
  const phone = useLayout() === 'phone';
  return (
    <VirtualGrid
      label="Bills"
      className={phone ? 'grid-bills grid-cards' : 'grid-bills'}
      rowHeight={phone ? CARD_HEIGHT : ROW_HEIGHT}
      rowIdPrefix={ROW_ID_PREFIX}
      rows={props.rows}
      total={props.total}
      loaded={props.loaded}
      active={active}
      queryKey={props.queryKey}
      initialRow={0}
      scrollRef={props.scrollRef}
      header={<HeaderRow state={props.headerState} onToggle={props.onHeaderToggle} />}
      emptyText={props.filtered ? 'No bills match.' : 'No bills yet'}
      emptyHint={props.filtered ? 'Try a shorter search or another tab.' : 'Add a vendor’s invoice with New bill.'}
      waitingText="Opening your saved bills…"
      renderRow={(row, index, top) => (
        <Row
          index={index}
          top={top}
          row={row}
          vendor={vendorName(row.vendor_id)}
          today={today}
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

const HeaderRow = memo(function HeaderRow({ state, onToggle }: { state: BillsTableProps['headerState']; onToggle(): void }) {
  return (
    <div className="grid-row bill-row grid-header" role="row" aria-rowindex={1}>
      <HeaderCheckCell label="Select all bills" state={state} onToggle={onToggle} />
      <div role="columnheader" className="cell cell-vendor">Vendor</div>
      <div role="columnheader" className="cell cell-invoice">Invoice</div>
      <div role="columnheader" className="cell cell-invoice-date">Invoice date</div>
      <div role="columnheader" className="cell cell-due">Due</div>
      <div role="columnheader" className="cell cell-amount">Amount</div>
      <div role="columnheader" className="cell cell-status">Status</div>
    </div>
  );
});

interface RowProps {
  index: number;
  top: number;
  row: BillView;
  vendor: string;
  today: string;
  selected: boolean;
  active: boolean;
  open: boolean;
  onRowClick: BillsTableProps['onRowClick'];
  onToggle: BillsTableProps['onToggle'];
}

const Row = memo(function Row({ index, top, row, vendor, today, selected, active, open, onRowClick, onToggle }: RowProps) {
  const amount = formatMoney(row.amount, row.currency);
  const overdue = isOverdue(row, today);
  const due = dueText(row, today);
  return (
    <GridRow
      index={index}
      top={top}
      idPrefix={ROW_ID_PREFIX}
      className={overdue ? 'bill-row overdue' : 'bill-row'}
      selected={selected}
      active={active}
      open={open}
      pending={row.pending}
      onClick={(e) => onRowClick(index, row, e)}
    >
      <CheckCell label={`Select ${vendor || 'bill'} invoice ${row.invoice_number}, ${amount}`} checked={selected} onToggle={(shift) => onToggle(index, row, shift)} />
      <div role="gridcell" className="cell cell-vendor">{vendor || 'Vendor not on this device yet'}</div>
      <div role="gridcell" className="cell cell-invoice">{row.invoice_number}</div>
      <div role="gridcell" className="cell cell-invoice-date">{formatDay(row.invoice_date)}</div>
      <div role="gridcell" className="cell cell-due">
        <span>{formatDay(row.due_date)}</span>
        {due && <span className={overdue ? 'bill-due bill-overdue' : 'bill-due'}>{due}</span>}
      </div>
      <div role="gridcell" className="cell cell-amount">{amount}</div>
      <div role="gridcell" className="cell cell-status">
        <span className="marks">
          <StatusPill tone={BILL_STATUS_TONES[row.status]}>{BILL_STATUS_LABELS[row.status]}</StatusPill>
          <SyncMark row={row} />
        </span>
      </div>
    </GridRow>
  );
});
