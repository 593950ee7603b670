import { formatCount, formatMoney } from '../../lib/format.ts';
import type { DataClient } from '../../data-access/types.ts';

/**
 * Count and per-currency sums as the worker answers them (`totals`, `selectionTotals`). For card
 * transactions the worker sums spend only (PENDING and CLEARED): each currency's `count` is its
 * spend rows, `excluded` its declined and reversed rows, counted in `count` but never summed.
 */
export type Totals = Pick<Awaited<ReturnType<DataClient['totals']>>, 'count' | 'sums' | 'excluded'>;

/** What the sums include, said beside them (issue 25: a total says which states it counts). */
export const SPEND_STATES_TEXT = 'pending and cleared';

/**
 * "Spend (pending and cleared): $12,345.67 across 1,000 USD · €1,020.00 across 200 EUR · 4 declined
 * or reversed, not in spend": each currency's spend and how many rows make it, then what was left out.
 */
export function spendParts(totals: Totals): string[] {
  const spent = totals.sums.filter((s) => s.count > 0);
  const excluded = totals.excluded ?? 0;
  const parts = spent.map((s, i) => `${i === 0 ? `Spend (${SPEND_STATES_TEXT}): ` : ''}${formatMoney(s.amount, s.currency)} across ${formatCount(s.count)} ${s.currency}`);
  if (excluded > 0) parts.push(`${formatCount(excluded)} declined or reversed, not in spend`);
  return parts;
}

/**
 * One currency's part of the totals (issue 25: with the Currency filter set, the line shows that
 * currency's total only): its spend, its rows and its left-out rows, nothing of another currency.
 */
export function totalsOfCurrency(totals: Totals, currency: string): Totals {
  const mine = totals.sums.filter((s) => s.currency === currency);
  const excluded = mine.reduce((n, s) => n + (s.excluded ?? 0), 0);
  const count = mine.reduce((n, s) => n + s.count + (s.excluded ?? 0), 0);
  return totals.excluded === undefined ? { count, sums: mine } : { count, sums: mine, excluded };
}

/**
 * The result's totals line: "1,204 transactions · Spend (pending and cleared): $12,345.67 across
 * 1,000 USD · …". `partial`: the first mirror is still running, so the numbers cover only the rows
 * downloaded so far — said, not hidden. `currency` (the list's Currency filter): that currency's
 * rows and total only, said in the head ("1,000 USD transactions").
 */
export function resultTotalsText(
  totals: Totals,
  partial: boolean,
  noun: readonly [string, string] = ['transaction', 'transactions'],
  currency?: string,
): string {
  const shown = currency ? totalsOfCurrency(totals, currency) : totals;
  const head = `${formatCount(shown.count)} ${currency ? `${currency} ` : ''}${shown.count === 1 ? noun[0] : noun[1]}${partial ? ' downloaded so far' : ''}`;
  return [head, ...spendParts(shown)].join(' · ');
}

/** The selection's: "3 selected · Spend (pending and cleared): $120.00 across 3 USD" (count only until its sums are known). */
export function selectionTotalsText(selected: number, totals: Totals | null): string {
  const head = `${formatCount(selected)} selected`;
  return totals ? [head, ...spendParts(totals)].join(' · ') : head;
}
