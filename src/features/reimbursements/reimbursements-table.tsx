import { memo, type KeyboardEvent, type RefObject } from 'react';
import { formatMoney } from '../../lib/format.ts';
import { StatusPill } from '../../components/status-pill.tsx';
import { SyncMark } from '../../components/sync-mark.tsx';
import type { ListRows } from '../../lib/list/use-rows.ts';
import { VirtualGrid, gridRowId, gridRowIndex, ROW_HEIGHT } from '../../lib/list/virtual-grid.tsx';
import { useLayout } from '../../lib/media-query.ts';
import { ClaimIcon } from './claim-icon.tsx';
import { claimDescription, STATUS_LABELS, STATUS_TONES, TYPE_LABELS, type ClaimView } from './claim-labels.ts';
import { formatClaimDate } from '../../lib/claim-labels.ts';

const ROW_ID_PREFIX = 'reimb-row';
/** A claim as a card on a phone (`.grid-cards .reimb-row` in phone.css has this height). */
export const CARD_HEIGHT = 72;

export interface ReimbursementsTableProps {
  rows: ListRows<ClaimView>;
  total: number;
  loaded: boolean;
  /** True when a search or a status tab narrows the list (the empty text says so). */
  filtered: boolean;
  active: number;
  openId: string | undefined;
  queryKey: string;
  scrollRef: RefObject<HTMLDivElement | null>;
  onRowClick(index: number, row: ClaimView): void;
  onKeyDown(e: KeyboardEvent<HTMLDivElement>): void;
  onFocus(): void;
  onVisibleRange(first: number, last: number): void;
}


/**
 * The claims grid over the shared virtual grid (20k claims scroll like 20): type, description,
 * date, amount, the claim's status and its sync mark. On a phone the same rows are cards.
 */
export function ReimbursementsTable(props: ReimbursementsTableProps) {
  const { active, openId, onRowClick } = props;
  const phone = useLayout() === 'phone';
  return (
    <VirtualGrid
      label="Reimbursements"
      className={phone ? 'grid-reimb grid-cards' : 'grid-reimb'}
      rowHeight={phone ? CARD_HEIGHT : ROW_HEIGHT}
      rowIdPrefix={ROW_ID_PREFIX}
      rows={props.rows}
      total={props.total}
      loaded={props.loaded}
      active={active}
      queryKey={props.queryKey}
      initialRow={0}
      scrollRef={props.scrollRef}
      header={<HeaderRow />}
      emptyText={props.filtered ? 'No reimbursements match.' : 'No reimbursements yet'}
      emptyHint={props.filtered ? 'Try a shorter search or another status.' : undefined}
      waitingText="Opening your saved reimbursements…"
      renderRow={(row, index, top) => (
        <Row index={index} top={top} row={row} active={index === active} open={row.id === openId} onRowClick={onRowClick} />
      )}
      onKeyDown={props.onKeyDown}
      onFocus={props.onFocus}
      onVisibleRange={props.onVisibleRange}
    />
  );
}

const HeaderRow = memo(function HeaderRow() {
  return (
    <div className="grid-row reimb-row grid-header" role="row" aria-rowindex={1}>
      <div role="columnheader" className="cell cell-type">Type</div>
      <div role="columnheader" className="cell cell-merchant">Description</div>
      <div role="columnheader" className="cell cell-date" aria-sort="descending">Date</div>
      <div role="columnheader" className="cell cell-amount">Amount</div>
      <div role="columnheader" className="cell cell-status">Status</div>
    </div>
  );
});

interface RowProps {
  index: number;
  top: number;
  row: ClaimView;
  active: boolean;
  open: boolean;
  onRowClick: ReimbursementsTableProps['onRowClick'];
}

const Row = memo(function Row({ index, top, row, active, open, onRowClick }: RowProps) {
  const classes = ['grid-row', 'reimb-row', active && 'active', open && 'open', row.pending && `sync-${row.pending}`].filter(Boolean).join(' ');
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
      <div role="gridcell" className="cell cell-type">
        <ClaimIcon type={row.type} />
        <span className="claim-type-label">{TYPE_LABELS[row.type]}</span>
      </div>
      <div role="gridcell" className="cell cell-merchant" title={row.memo ?? undefined}>{claimDescription(row)}</div>
      <div role="gridcell" className="cell cell-date">{formatClaimDate(row.transaction_date)}</div>
      <div role="gridcell" className="cell cell-amount">{formatMoney(row.amount, row.currency)}</div>
      <div role="gridcell" className="cell cell-status">
        <span className="marks">
          <StatusPill tone={STATUS_TONES[row.status]}>{STATUS_LABELS[row.status]}</StatusPill>
          <SyncMark row={row} />
        </span>
      </div>
    </div>
  );
});
