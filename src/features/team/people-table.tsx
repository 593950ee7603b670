import { memo, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { fullName } from '../../../schema/entities/spend-user.ts';
import { roleDisplayName } from '../../../schema/roles.ts';
import { USER_STATUS_LABELS } from '../../../schema/team-rules.ts';
import { StatusPill } from '../../components/status-pill.tsx';
import type { ListRows } from '../../lib/list/use-rows.ts';
import type { ReferenceNames } from '../../lib/reference-data.ts';
import { VirtualGrid, gridRowId, gridRowIndex, ROW_HEIGHT } from '../../lib/list/virtual-grid.tsx';
import { STATUS_TONES, type Person } from './people-view.ts';

const ROW_ID_PREFIX = 'person-row';

export interface PeopleTableProps {
  rows: ListRows<Person>;
  total: number;
  active: number;
  openId: string | undefined;
  queryKey: string;
  names: ReferenceNames;
  scrollRef: RefObject<HTMLDivElement | null>;
  emptyText: string;
  emptyHint: ReactNode;
  onRowClick(index: number, row: Person): void;
  onKeyDown(e: KeyboardEvent<HTMLDivElement>): void;
  onFocus(): void;
}

/** The people grid over the shared virtual grid: name, email, role, manager, department, location, status. */
export function PeopleTable(props: PeopleTableProps) {
  const { active, openId, onRowClick, names } = props;
  return (
    <VirtualGrid
      label="People"
      className="grid-people"
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
      waitingText="Opening your team…"
      renderRow={(row, index, top) => (
        <Row index={index} top={top} row={row} names={names} active={index === active} open={row.id === openId} onRowClick={onRowClick} />
      )}
      onKeyDown={props.onKeyDown}
      onFocus={props.onFocus}
      onVisibleRange={noop}
    />
  );
}

const noop = () => undefined;

const HeaderRow = memo(function HeaderRow() {
  return (
    <div className="grid-row person-row grid-header" role="row" aria-rowindex={1}>
      <div role="columnheader" className="cell" aria-sort="ascending">Name</div>
      <div role="columnheader" className="cell">Email</div>
      <div role="columnheader" className="cell">Role</div>
      <div role="columnheader" className="cell">Manager</div>
      <div role="columnheader" className="cell">Department</div>
      <div role="columnheader" className="cell">Location</div>
      <div role="columnheader" className="cell">Status</div>
    </div>
  );
});

interface RowProps {
  index: number;
  top: number;
  row: Person;
  names: ReferenceNames;
  active: boolean;
  open: boolean;
  onRowClick: PeopleTableProps['onRowClick'];
}

const dash = (text: string) => text || '—';

const Row = memo(function Row({ index, top, row, names, active, open, onRowClick }: RowProps) {
  const classes = ['grid-row', 'person-row', active && 'active', open && 'open'].filter(Boolean).join(' ');
  const manager = row.manager_id ? names.user(row.manager_id) : '';
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
      <div role="gridcell" className="cell person-name">{fullName(row) || row.email}</div>
      <div role="gridcell" className="cell person-email">{row.email}</div>
      <div role="gridcell" className="cell">{roleDisplayName(row.role, row.is_manager)}</div>
      <div role="gridcell" className={manager ? 'cell' : 'cell muted'}>{dash(manager)}</div>
      <div role="gridcell" className={row.department_id ? 'cell' : 'cell muted'}>{dash(names.department(row.department_id))}</div>
      <div role="gridcell" className={row.location_id ? 'cell' : 'cell muted'}>{dash(names.location(row.location_id))}</div>
      <div role="gridcell" className="cell">
        <StatusPill tone={STATUS_TONES[row.status]}>{USER_STATUS_LABELS[row.status]}</StatusPill>
      </div>
    </div>
  );
});
