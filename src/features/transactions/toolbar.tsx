import { Button } from '../../components/button.tsx';
import { resultTotalsText, selectionTotalsText, type Totals } from './totals-text.ts';
import { formatCount } from '../../lib/format.ts';


export interface ResultTotalsProps {
  /** Null until the worker answered for this query. */
  totals: Totals | null;
  /** The first mirror is still running: the totals cover what has arrived. */
  partial: boolean;
  /** The list's Currency filter, if set: only that currency's total is shown (issue 25). */
  currency?: string | undefined;
}

/** Count and sum per currency of the whole result (every matching row, not the visible page). */
export function ResultTotals({ totals, partial, currency }: ResultTotalsProps) {
  return (
    <p className="list-totals" data-testid="result-totals">
      {totals ? resultTotalsText(totals, partial, undefined, currency) : '\u00a0'}
    </p>
  );
}

export interface BulkBarProps {
  selected: number;
  /** The selected rows' count and sums per currency (null until known). */
  totals: Totals | null;
  total: number;
  canCode: boolean;
  onSelectAll(): void;
  onCode(): void;
  onClear(): void;
}

/** Shown while rows are selected: the count, "Select all N matching", and the bulk action. */
export function BulkBar({ selected, totals, total, canCode, onSelectAll, onCode, onClear }: BulkBarProps) {
  return (
    <div className="bulk-bar" role="region" aria-label="Selection">
      <strong data-testid="selection-totals">{selectionTotalsText(selected, totals)}</strong>
      {selected < total && (
        <button type="button" className="btn-link" onClick={onSelectAll}>
          Select all {formatCount(total)} matching
        </button>
      )}
      <span className="spacer" />
      {canCode && (
        <Button variant="primary" size="sm" onClick={onCode}>
          Code {formatCount(selected)}…
        </Button>
      )}
      <Button variant="ghost" size="sm" onClick={onClear}>
        Clear selection
      </Button>
    </div>
  );
}
