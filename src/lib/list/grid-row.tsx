import type { MouseEvent, ReactNode } from 'react';
import { gridRowId, gridRowIndex } from './virtual-grid.tsx';

export interface GridRowProps {
  index: number;
  /** Its offset in the virtual grid's spacer. */
  top: number;
  /** The grid's row id prefix (`VirtualGrid`'s `rowIdPrefix`). */
  idPrefix: string;
  /** Classes of this grid's rows besides the shared state classes. */
  className?: string;
  selected: boolean;
  active: boolean;
  open: boolean;
  /** The row's outbox mark ('pending' | 'failed' …): styled as `sync-<mark>`. */
  pending?: string | null | undefined;
  onClick(e: MouseEvent<HTMLDivElement>): void;
  children: ReactNode;
}

/** One row of a virtual grid: its id and index for the grid's keyboard, its state classes, its place. */
export function GridRow({ index, top, idPrefix, className, selected, active, open, pending, onClick, children }: GridRowProps) {
  const classes = ['grid-row', className, selected && 'selected', active && 'active', open && 'open', pending && `sync-${pending}`]
    .filter(Boolean)
    .join(' ');
  return (
    <div
      id={gridRowId(idPrefix, index)}
      className={classes}
      role="row"
      aria-rowindex={gridRowIndex(index)}
      aria-selected={selected}
      style={{ transform: `translateY(${top}px)` }}
      onClick={onClick}
    >
      {children}
    </div>
  );
}

export interface CheckCellProps {
  /** The checkbox's name: what selecting it selects ("Select Blue Bottle Coffee, $6.25"). */
  label: string;
  checked: boolean;
  onToggle(shift: boolean): void;
}

/**
 * A row's selection cell. The whole cell is the touch target (44 px on a phone), not only the
 * box; a click never reaches the row (which would open it); Shift extends the selection.
 */
export function CheckCell({ label, checked, onToggle }: CheckCellProps) {
  return (
    <div
      role="gridcell"
      className="cell cell-check"
      onClick={(e) => {
        e.stopPropagation();
        if (e.target === e.currentTarget) onToggle(e.shiftKey);
      }}
    >
      <input
        type="checkbox"
        tabIndex={-1}
        aria-label={label}
        checked={checked}
        onChange={(e) => onToggle((e.nativeEvent as unknown as { shiftKey?: boolean }).shiftKey === true)}
      />
    </div>
  );
}

/**
 * The header's selection cell: checked when every matching row is selected, mixed when some are
 * (`headerCheckState`); toggling selects every matching row or clears the selection.
 */
export function HeaderCheckCell({ label = 'Select all', state, onToggle }: { label?: string; state: 'none' | 'some' | 'all'; onToggle(): void }) {
  return (
    <div role="columnheader" className="cell cell-check">
      <input
        type="checkbox"
        aria-label={label}
        checked={state === 'all'}
        ref={(el) => {
          if (el) el.indeterminate = state === 'some';
        }}
        onChange={onToggle}
      />
    </div>
  );
}
