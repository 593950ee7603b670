import { memo, type KeyboardEvent, type RefObject } from 'react';
import { formatMoney, formatShortDay } from '../../lib/format.ts';
import { ClaimIcon } from '../../components/claim-icon.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { SyncMark } from '../../components/sync-mark.tsx';
import { formatClaimDate } from '../../lib/claim-labels.ts';
import type { ListRows } from '../../lib/list/use-rows.ts';
import { CheckCell, GridRow, HeaderCheckCell } from '../../lib/list/grid-row.tsx';
import { VirtualGrid, ROW_HEIGHT } from '../../lib/list/virtual-grid.tsx';
import { useLayout } from '../../lib/media-query.ts';
import type { InboxRow } from './approval-rows.ts';
import { APPROVAL_LABELS, APPROVAL_TONES } from './approval-labels.ts';

const ROW_ID_PREFIX = 'approval-row';
/** A row as a card on a phone (`.grid-cards .approval-row` in phone.css has this height). */
export const CARD_HEIGHT = 76;

export interface ApprovalsTableProps {
  rows: ListRows<InboxRow>;
  total: number;
  loaded: boolean;
  selected: ReadonlySet<string>;
  headerState: 'none' | 'some' | 'all';
  active: number;
  openId: string | undefined;
  queryKey: string;
  emptyText: string;
  /** The claimant's name from reference data (it can arrive after the rows were read). */
  userName(id: string): string;
  scrollRef: RefObject<HTMLDivElement | null>;
  onHeaderToggle(): void;
  onToggle(index: number, row: InboxRow, shift: boolean): void;
  onRowClick(index: number, row: InboxRow): void;
  onKeyDown(e: KeyboardEvent<HTMLDivElement>): void;
  onFocus(): void;
  onVisibleRange(first: number, last: number): void;
}

/**
 * The inbox grid: a checkbox, claimant (or requester), type (a claim's type or "Card request"),
 * description (a card request's card, limit and reason), claim date, amount, when it was
 * submitted, the review's status and its sync mark. On a phone the same rows are cards.
 */
export function ApprovalsTable(props: ApprovalsTableProps) {
  const { active, openId, selected, userName, onRowClick, onToggle } = props;
  const phone = useLayout() === 'phone';
  return (
    <VirtualGrid
      label="Approvals"
      className={phone ? 'grid-approvals grid-cards' : 'grid-approvals'}
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
      emptyText={props.emptyText}
      waitingText="Opening your saved approvals…"
      renderRow={(row, index, top) => (
        <Row
          index={index}
          top={top}
          row={row}
          claimant={userName(row.approval.user_id) || row.claimant}
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

const HeaderRow = memo(function HeaderRow({ state, onToggle }: { state: ApprovalsTableProps['headerState']; onToggle(): void }) {
  return (
    <div className="grid-row approval-row grid-header" role="row" aria-rowindex={1}>
      <HeaderCheckCell state={state} onToggle={onToggle} />
      <div role="columnheader" className="cell cell-claimant">Submitted by</div>
      <div role="columnheader" className="cell cell-type">Type</div>
      <div role="columnheader" className="cell cell-merchant">Description</div>
      <div role="columnheader" className="cell cell-date">Date</div>
      <div role="columnheader" className="cell cell-amount">Amount</div>
      <div role="columnheader" className="cell cell-submitted">Submitted</div>
      <div role="columnheader" className="cell cell-status">Status</div>
    </div>
  );
});

interface RowProps {
  index: number;
  top: number;
  row: InboxRow;
  claimant: string;
  selected: boolean;
  active: boolean;
  open: boolean;
  onRowClick: ApprovalsTableProps['onRowClick'];
  onToggle: ApprovalsTableProps['onToggle'];
}

const Row = memo(function Row({ index, top, row, claimant, selected, active, open, onRowClick, onToggle }: RowProps) {
  const amount = row.amount !== null && row.currency ? formatMoney(row.amount, row.currency) : '—';
  return (
    <GridRow
      index={index}
      top={top}
      idPrefix={ROW_ID_PREFIX}
      className="approval-row"
      selected={selected}
      active={active}
      open={open}
      pending={row.pending}
      onClick={() => onRowClick(index, row)}
    >
      <CheckCell label={`Select ${claimant}: ${row.summary}, ${amount}`} checked={selected} onToggle={(shift) => onToggle(index, row, shift)} />
      <div role="gridcell" className="cell cell-claimant">{claimant}</div>
      <div role="gridcell" className="cell cell-type">
        {row.claim && <ClaimIcon type={row.claim.type} />}
        {row.kind === 'card_request' && <CardRequestIcon />}
        <span className="claim-type-label">{row.typeLabel}</span>
      </div>
      <div role="gridcell" className="cell cell-merchant" title={row.claim?.memo ?? row.reason ?? undefined}>
        {row.description}
        {row.reason && <span className="muted"> · {row.reason}</span>}
      </div>
      <div role="gridcell" className="cell cell-date">{row.date ? formatClaimDate(row.date) : ''}</div>
      <div role="gridcell" className="cell cell-amount">{amount}</div>
      <div role="gridcell" className="cell cell-submitted">
        <time dateTime={row.submitted_at}>{formatShortDay(row.submitted_at)}</time>
      </div>
      <div role="gridcell" className="cell cell-status">
        <span className="marks">
          <StatusPill tone={APPROVAL_TONES[row.approval.status]}>{APPROVAL_LABELS[row.approval.status]}</StatusPill>
          <SyncMark row={row} />
        </span>
      </div>
    </GridRow>
  );
});

/** A card's glyph beside "Card request" (decorative: the words are always beside it). */
function CardRequestIcon() {
  return (
    <svg className="claim-icon" width={16} height={16} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d="M1.5 3.5h13v9h-13zM1.5 6.5h13M3.5 10h3" fill="none" stroke="currentColor" strokeWidth="1.3" strokeLinejoin="round" />
    </svg>
  );
}
