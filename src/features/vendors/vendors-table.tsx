import { memo, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import type { Vendor } from '../../../schema/entities/vendor.ts';
import { StatusPill } from '../../components/status-pill.tsx';
import { formatShortDay } from '../../lib/format.ts';
import type { ListRows } from '../../lib/list/use-rows.ts';
import { VirtualGrid, gridRowId, gridRowIndex, ROW_HEIGHT } from '../../lib/list/virtual-grid.tsx';
import { bankText, contactEmail, placeText } from './vendor-view.ts';

const ROW_ID_PREFIX = 'vendor-row';

export interface VendorsTableProps {
  rows: ListRows<Vendor>;
  total: number;
  active: number;
  openId: string | undefined;
  queryKey: string;
  scrollRef: RefObject<HTMLDivElement | null>;
  emptyText: string;
  emptyHint: ReactNode;
  onRowClick(index: number, row: Vendor): void;
  onKeyDown(e: KeyboardEvent<HTMLDivElement>): void;
  onFocus(): void;
}

/** The vendors grid over the shared virtual grid: name, contact email, place, masked bank, updated. */
export function VendorsTable(props: VendorsTableProps) {
  const { active, openId, onRowClick } = props;
  return (
    <VirtualGrid
      label="Vendors"
      className="grid-vendors"
      rowHeight={ROW_HEIGHT}
      rowIdPrefix={ROW_ID_PREFIX}
      rows={props.rows}
      total={props.total}
      loaded
      active={active}
      queryKey={props.queryKey}
      initialRow={0}
      scrollRef={props.scrollRef}
      header={<HeaderRow />}
      emptyText={props.emptyText}
      emptyHint={props.emptyHint}
      waitingText="Opening your vendors…"
      renderRow={(row, index, top) => <Row index={index} top={top} row={row} active={index === active} open={row.id === openId} onRowClick={onRowClick} />}
      onKeyDown={props.onKeyDown}
      onFocus={props.onFocus}
      onVisibleRange={noop}
    />
  );
}

const noop = () => undefined;

const HeaderRow = memo(function HeaderRow() {
  return (
    <div className="grid-row vendor-row grid-header" role="row" aria-rowindex={1}>
      <div role="columnheader" className="cell" aria-sort="ascending">Name</div>
      <div role="columnheader" className="cell">Contact email</div>
      <div role="columnheader" className="cell">State, country</div>
      <div role="columnheader" className="cell">Bank account</div>
      <div role="columnheader" className="cell">Updated</div>
    </div>
  );
});

interface RowProps {
  index: number;
  top: number;
  row: Vendor;
  active: boolean;
  open: boolean;
  onRowClick: VendorsTableProps['onRowClick'];
}

const Row = memo(function Row({ index, top, row, active, open, onRowClick }: RowProps) {
  const classes = ['grid-row', 'vendor-row', active && 'active', open && 'open'].filter(Boolean).join(' ');
  const email = contactEmail(row);
  return (
    <div
      id={gridRowId(ROW_ID_PREFIX, index)}
      className={classes}
      role="row"
      aria-rowindex={gridRowIndex(index)}
      aria-selected={open}
      style={{ transform: `translateY(${top}px)` }}
      onClick={() => onRowClick(index, row)}
    >
      <div role="gridcell" className="cell vendor-name">
        <span className="vendor-name-text">{row.name}</span>
        {row.status === 'ARCHIVED' && <StatusPill tone="neutral">Archived</StatusPill>}
      </div>
      <div role="gridcell" className={email ? 'cell' : 'cell muted'}>{email ?? '—'}</div>
      <div role="gridcell" className="cell">{placeText(row.address)}</div>
      <div role="gridcell" className={row.bank_account ? 'cell vendor-bank' : 'cell muted'}>{bankText(row.bank_account)}</div>
      <div role="gridcell" className="cell muted">
        <time dateTime={row.updated_at}>{formatShortDay(row.updated_at)}</time>
      </div>
    </div>
  );
});
