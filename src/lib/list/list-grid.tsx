import { memo, type MouseEvent } from 'react';
import { useLayout } from '../media-query.ts';
import { CheckCell, GridRow, HeaderCheckCell } from './grid-row.tsx';
import type { ListColumn, ListSpec } from './list-spec.ts';
import { headerCheckState } from './selection.ts';
import type { ListPageState } from './use-list-page.ts';
import { ROW_HEIGHT, VirtualGrid } from './virtual-grid.tsx';

/** A spec's columns over the shared virtual grid: header, rows (check cell, cells, actions), phone cards. */
export function ListGrid<T extends { id: string }>({ spec, list }: { spec: ListSpec<T>; list: ListPageState<T> }) {
  const phone = useLayout() === 'phone' && spec.phone !== undefined;
  const { selection, active, openId, onRowClick, onToggle } = list;
  const selectable = spec.select !== undefined;
  return (
    <VirtualGrid
      label={spec.label}
      className={phone ? `${spec.gridClassName} ${spec.phone!.className}` : spec.gridClassName}
      rowHeight={phone ? spec.phone!.rowHeight : (spec.rowHeight ?? ROW_HEIGHT)}
      rowIdPrefix={spec.rowIdPrefix}
      rows={list.rows}
      total={list.total}
      loaded={list.rows.total !== null}
      active={active.index}
      queryKey={list.key}
      initialRow={list.initialRow}
      scrollRef={list.scrollRef}
      header={
        <HeaderRow
          spec={spec}
          checkState={selectable ? headerCheckState(selection.ids.size, list.total) : null}
          onToggleAll={() => (selection.ids.size > 0 ? selection.clear() : void selection.selectAllMatching())}
        />
      }
      emptyText={spec.emptyText}
      emptyHint={spec.emptyHint}
      waitingText={spec.waitingText}
      renderRow={(row, index, top) => (
        <Row
          spec={spec}
          index={index}
          top={top}
          row={row}
          selected={selection.ids.has(row.id)}
          active={index === active.index}
          open={row.id === openId}
          onRowClick={onRowClick}
          onToggle={onToggle}
        />
      )}
      onKeyDown={active.onGridKeyDown}
      onFocus={active.onGridFocus}
      onVisibleRange={list.onVisibleRange}
    />
  );
}

const cellClass = (c: ListColumn<never>, extra?: string | false) => ['cell', c.className, extra].filter(Boolean).join(' ');

interface HeaderRowProps<T extends { id: string }> {
  spec: ListSpec<T>;
  checkState: 'none' | 'some' | 'all' | null;
  onToggleAll(): void;
}

function HeaderRow<T extends { id: string }>({ spec, checkState, onToggleAll }: HeaderRowProps<T>) {
  return (
    <div className={`grid-row ${spec.rowClassName} grid-header`} role="row" aria-rowindex={1}>
      {checkState !== null && <HeaderCheckCell label={spec.select?.allLabel} state={checkState} onToggle={onToggleAll} />}
      {spec.columns.map((c) => (
        <div key={c.key} role="columnheader" className={cellClass(c)} aria-sort={c.sorted}>
          {c.onSort ? (
            <button type="button" className="sort-button column-sort" onClick={c.onSort}>
              {c.header}
              <span className="sort-arrow" aria-hidden="true">
                {c.sorted === 'ascending' ? '↑' : c.sorted === 'descending' ? '↓' : ''}
              </span>
            </button>
          ) : c.hiddenHeader ? (
            <span className="sr-only">{c.header}</span>
          ) : (
            c.header
          )}
        </div>
      ))}
      {spec.rowActions && (
        <div role="columnheader" className="cell cell-actions">
          <span className="sr-only">Actions</span>
        </div>
      )}
    </div>
  );
}

interface RowProps<T extends { id: string }> {
  spec: ListSpec<T>;
  index: number;
  top: number;
  row: T;
  selected: boolean;
  active: boolean;
  open: boolean;
  onRowClick(index: number, row: T, e: MouseEvent): void;
  onToggle(index: number, row: T, shift: boolean): void;
}

function RowView<T extends { id: string }>({ spec, index, top, row, selected, active, open, onRowClick, onToggle }: RowProps<T>) {
  return (
    <GridRow
      index={index}
      top={top}
      idPrefix={spec.rowIdPrefix}
      className={spec.rowClassName}
      // A list without selection marks the open row as the selected one (one at a time).
      selected={spec.select ? selected : open}
      active={active}
      open={open}
      pending={spec.pending?.(row)}
      onClick={(e) => onRowClick(index, row, e)}
    >
      {spec.select && <CheckCell label={spec.select.label(row)} checked={selected} onToggle={(shift) => onToggle(index, row, shift)} />}
      {spec.columns.map((c) => (
        <div key={c.key} role={c.rowHeader ? 'rowheader' : 'gridcell'} className={cellClass(c, c.muted?.(row) ? 'muted' : c.cellClassName?.(row))}
          title={c.title?.(row)}>
          {c.cell(row)}
        </div>
      ))}
      {spec.rowActions && (
        // Its buttons act on the row; a click among them never opens it.
        <div role="gridcell" className="cell cell-actions" onClick={(e) => e.stopPropagation()}>
          {spec.rowActions(row)}
        </div>
      )}
    </GridRow>
  );
}

const Row = memo(RowView) as typeof RowView;
