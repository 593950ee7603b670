import { formatCount, formatMoney } from '../../lib/format.ts';
import type { DataClient } from '../../data-access/types.ts';

/** Count and per-currency sums as the worker answers them (`totals`, `selectionTotals`). */
export type Totals = Pick<Awaited<ReturnType<DataClient['totals']>>, 'count' | 'sums'>;


/** "$12,345.67 · €1,020.00": each currency's sum, formatted as the table formats amounts. */
export const sumsText = (totals: Totals): string => totals.sums.map((s) => formatMoney(s.amount, s.currency)).join(' · ');

/**
 * The result's totals line: "1,204 transactions · $12,345.67 · €1,020.00". `partial`: the first
 * mirror is still running, so the numbers cover only the rows downloaded so far — said, not hidden.
 */
export function resultTotalsText(totals: Totals, partial: boolean, noun: readonly [string, string] = ['transaction', 'transactions']): string {
  const head = `${formatCount(totals.count)} ${totals.count === 1 ? noun[0] : noun[1]}${partial ? ' downloaded so far' : ''}`;
  return totals.sums.length > 0 ? `${head} · ${sumsText(totals)}` : head;
}

/** The selection's: "3 selected · $120.00" (count only until its sums are known). */
export function selectionTotalsText(selected: number, totals: Totals | null): string {
  const head = `${formatCount(selected)} selected`;
  return totals && totals.sums.length > 0 ? `${head} · ${sumsText(totals)}` : head;
}
