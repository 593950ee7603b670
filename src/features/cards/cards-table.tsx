import { memo, type KeyboardEvent, type MouseEvent, type RefObject } from 'react';
import { StatusPill } from '../../components/status-pill.tsx';
import { SyncMark } from '../../components/sync-mark.tsx';
import type { CardView } from '../../lib/cards.ts';
import { cardName } from '../../lib/card-labels.ts';
import { CheckCell, GridRow, HeaderCheckCell } from '../../lib/list/grid-row.tsx';
import type { ListRows } from '../../lib/list/use-rows.ts';
import { VirtualGrid, ROW_HEIGHT } from '../../lib/list/virtual-grid.tsx';
import { useLayout } from '../../lib/media-query.ts';
import { chipText, limitText, STATUS_TONES } from './card-view.ts';

const ROW_ID_PREFIX = 'card-row';
/** A card as a card on a phone (`.grid-cards .cardlist-row` in cards.css has this height). */
export const CARD_HEIGHT = 88;

export interface CardsTableProps {
  label: string;
  rows: ListRows<CardView>;
  total: number;
  loaded: boolean;
  filtered: boolean;
  selected: ReadonlySet<string>;
  headerState: 'none' | 'some' | 'all';
  active: number;
  openId: string | undefined;
  queryKey: string;
  /** The cardholder's and department's names from reference data (they can arrive after the rows). */
  userName(id: string): string;
  departmentName(id: string | null): string;
  scrollRef: RefObject<HTMLDivElement | null>;
  onHeaderToggle(): void;
  onToggle(index: number, row: CardView, shift: boolean): void;
  onRowClick(index: number, row: CardView, e: MouseEvent): void;
  onKeyDown(e: KeyboardEvent<HTMLDivElement>): void;
  onFocus(): void;
  onVisibleRange(first: number, last: number): void;
}

/**
 * The managed cards grid over the shared virtual grid: a checkbox, the card (name ••last four),
 * cardholder, status (with its sync state), limit per interval and department. On a phone the
 * same rows are cards.
 */
export function CardsTable(props: CardsTableProps) {
  const { active, openId, selected, userName, departmentName, onRowClick, onToggle } = props;
  const phone = useLayout() === 'phone';
  return (
    <VirtualGrid
      label={props.label}
      className={phone ? 'grid-cardlist grid-cards' : 'grid-cardlist'}
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
      emptyText={props.filtered ? 'No cards match.' : 'No cards yet'}
      emptyHint={props.filtered ? 'Try a shorter search or fewer filters.' : 'Issue a card to get started.'}
      waitingText="Opening your saved cards…"
      renderRow={(row, index, top) => (
        <Row
          index={index}
          top={top}
          row={row}
          holder={userName(row.user_id)}
          department={departmentName(row.department_id)}
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

const HeaderRow = memo(function HeaderRow({ state, onToggle }: { state: CardsTableProps['headerState']; onToggle(): void }) {
  return (
    <div className="grid-row cardlist-row grid-header" role="row" aria-rowindex={1}>
      <HeaderCheckCell state={state} onToggle={onToggle} />
      <div role="columnheader" className="cell cell-card">Card</div>
      <div role="columnheader" className="cell cell-cardholder">Cardholder</div>
      <div role="columnheader" className="cell cell-status">Status</div>
      <div role="columnheader" className="cell cell-limit">Limit</div>
      <div role="columnheader" className="cell cell-department">Department</div>
    </div>
  );
});

interface RowProps {
  index: number;
  top: number;
  row: CardView;
  holder: string;
  department: string;
  selected: boolean;
  active: boolean;
  open: boolean;
  onRowClick: CardsTableProps['onRowClick'];
  onToggle: CardsTableProps['onToggle'];
}

const Row = memo(function Row({ index, top, row, holder, department, selected, active, open, onRowClick, onToggle }: RowProps) {
  const name = cardName(row);
  return (
    <GridRow
      index={index}
      top={top}
      idPrefix={ROW_ID_PREFIX}
      className="cardlist-row"
      selected={selected}
      active={active}
      open={open}
      pending={row.pending}
      onClick={(e) => onRowClick(index, row, e)}
    >
      <CheckCell label={`Select ${name}${holder ? `, ${holder}` : ''}`} checked={selected} onToggle={(shift) => onToggle(index, row, shift)} />
      <div role="gridcell" className="cell cell-card">
        <span className="cardlist-name">{row.display_name}</span>
        <span className="cardlist-four">{row.last_four ? `••${row.last_four}` : 'No number yet'}</span>
        <span className="cardlist-kind muted">{row.is_physical ? 'Physical' : 'Virtual'}</span>
      </div>
      <div role="gridcell" className="cell cell-cardholder">{holder || '—'}</div>
      <div role="gridcell" className="cell cell-status">
        <span className="marks">
          <StatusPill tone={STATUS_TONES[row.status]}>{chipText(row)}</StatusPill>
          {(row.pending === 'failed' || row.pending === 'conflict' || row.pending === 'needs_step_up') && <SyncMark row={row} />}
        </span>
      </div>
      <div role="gridcell" className="cell cell-limit">{limitText(row.limit)}</div>
      <div role="gridcell" className="cell cell-department">{department || '—'}</div>
    </GridRow>
  );
});
