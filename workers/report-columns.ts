import type { TransactionFilter } from '../schema/transaction-query.ts';
import {
  SPEND_TRANSACTION_STATES, averageOf, bucketStart, compareReportRows, reportRange,
  type ReportDimension, type ReportQuery, type ReportRow,
} from '../schema/reports.ts';
import { TransactionColumns, dayOf, type ColumnsView, type IntColumn } from './collections/transaction-columns.ts';
import type { RowColumns } from './query-engine.ts';

/**
 * Issue 33: a transactions report over the engine's typed columns, no row body read. The
 * transactions engine keeps only some bodies in memory (row-bodies.ts); `aggregateReport`
 * (schema/reports.ts) needs every matching row's body, read back from IndexedDB 2,000 at a time
 * (41.7 → 4,510 ms at 100k in the browser). Every field a report reads but a tracking category's
 * option is a column here (transaction-columns.ts, stored from the rows as shown, so pending
 * edits are in), and the answer is the same rows: the spend rule, the UTC day, the buckets, the
 * average's rounding and the order are schema/reports.ts's own functions.
 *
 * Two passes over the matching slots (in slot order at scale: `inSlotOrder`): the first keeps the rows that count and fall in the range,
 * with their period, and numbers the keys and currencies met (dense, from 0); the second adds each
 * row to its group, a cell of typed arrays indexed (period, key, currency), or of a Map when that
 * grid would be large (merchant × day).
 */

/** The column holding each dimension's key: `transactionSpec.key` over the row (schema/reports.ts). */
const KEY_COLUMNS: Partial<Record<ReportDimension, IntColumn>> = {
  department: 'department', location: 'location', merchant: 'merchant', gl_account: 'gl',
  user: 'user', card: 'card', status: 'state',
};

/** A grid of at most this many cells (8 + 4 bytes each) is dense; a larger one is a Map of the cells met. */
const DENSE_CELLS = 1 << 20;

/** Whether a transactions report by `dimension` can be answered over the columns (all but a tracking category). */
export function reportsOverColumns(dimension: ReportDimension): boolean {
  return dimension === 'none' || KEY_COLUMNS[dimension] !== undefined;
}

/**
 * The report over the transactions engine's columns, or null when it needs row bodies (a tracking
 * category, or an engine without `TransactionColumns`). `scanned`: the matching rows.
 */
export function transactionReportOverColumns(
  engine: { matchingColumns(filter: TransactionFilter): { slots: ArrayLike<number>; columns: RowColumns<never, TransactionFilter> | null } },
  q: ReportQuery,
  now: Date = new Date(),
): { rows: ReportRow[]; scanned: number } | null {
  if (q.collection !== 'transactions' || !reportsOverColumns(q.dimension)) return null;
  const { slots, columns } = engine.matchingColumns((q.filters ?? {}) as TransactionFilter);
  if (!(columns instanceof TransactionColumns)) return null;
  return { rows: columnReport(columns.view(), slots, q, now), scanned: slots.length };
}

/** What the first pass keeps: the rows that count, their periods, and the keys and currencies numbered. */
interface Kept {
  slots: Int32Array;
  periods: Int32Array;
  n: number;
  periodNames: string[];
  /** Table id + 1 (0: no key) → dense key number, -1 when not met; and back. */
  keyOf: Int32Array;
  keys: number[];
  currencyOf: Int32Array;
  currencies: number[];
}

/** `aggregateReport` over these slots' rows, read from the columns (`q.filters` already applied: `slots` are its matches). */
export function columnReport(
  view: ColumnsView, slots: ArrayLike<number>, q: Omit<ReportQuery, 'filters'>, now: Date = new Date(), slotOrderFrom = SLOT_ORDER_FROM,
): ReportRow[] {
  const keyColumn = q.dimension === 'none' ? null : view.ints[KEY_COLUMNS[q.dimension] ?? fail(q.dimension)];
  const currencyColumn = q.measure === 'count' ? null : view.ints.currency;
  const kept = keepCounted(view, slots, q, now, keyColumn, currencyColumn, slotOrderFrom);
  const K = Math.max(1, kept.keys.length);
  const C = Math.max(1, kept.currencies.length);
  const cells = kept.periodNames.length * K * C;
  const { amount } = view;
  const sums = cells <= DENSE_CELLS ? new Float64Array(cells) : null;
  const counts = cells <= DENSE_CELLS ? new Uint32Array(cells) : null;
  const sparse = new Map<number, { sum: number; count: number }>();
  for (let i = 0; i < kept.n; i++) {
    const slot = kept.slots[i]!;
    const k = keyColumn ? kept.keyOf[keyColumn[slot]! + 1]! : 0;
    const c = currencyColumn ? kept.currencyOf[currencyColumn[slot]! + 1]! : 0;
    const cell = (kept.periods[i]! * K + k) * C + c;
    if (sums && counts) {
      sums[cell]! += amount[slot]!;
      counts[cell]!++;
      continue;
    }
    const g = sparse.get(cell);
    if (g) {
      g.sum += amount[slot]!;
      g.count++;
    } else sparse.set(cell, { sum: amount[slot]!, count: 1 });
  }
  const out: ReportRow[] = [];
  const push = (cell: number, sum: number, count: number) => {
    const c = cell % C;
    const k = Math.floor(cell / C) % K;
    const p = Math.floor(cell / (C * K));
    const keyId = keyColumn ? kept.keys[k]! : -1;
    const currencyId = currencyColumn ? kept.currencies[c]! : -1;
    const value = q.measure === 'count' ? count : q.measure === 'sum' ? sum : averageOf(sum, count);
    out.push({
      period: kept.periodNames[p]!,
      key: keyId < 0 ? null : view.table.string(keyId),
      currency: currencyId < 0 ? null : view.table.string(currencyId),
      value,
      count,
    });
  };
  if (sums && counts) {
    for (let cell = 0; cell < cells; cell++) if (counts[cell]! > 0) push(cell, sums[cell]!, counts[cell]!);
  } else for (const [cell, g] of sparse) push(cell, g.sum, g.count);
  return out.sort(compareReportRows);
}

/**
 * The first pass: the slots whose row counts (`SPEND_TRANSACTION_STATES`) on a UTC day inside the
 * report's range, each with its period's number; the keys and currencies met, numbered densely.
 */
function keepCounted(
  view: ColumnsView, slots: ArrayLike<number>, q: Omit<ReportQuery, 'filters'>, now: Date,
  keyColumn: Int32Array | null, currencyColumn: Int32Array | null, slotOrderFrom: number,
): Kept {
  const { table, ints, utcDays } = view;
  const { from, to } = reportRange(q, now);
  const first = dayOf(from);
  const last = dayOf(to);
  const spendIds = SPEND_TRANSACTION_STATES.map((s) => table.find(s)).filter((id) => id >= 0);
  const spend = new Uint8Array(Math.max(0, ...spendIds) + 1);
  for (const id of spendIds) spend[id] = 1;
  const { state, day: dayColumn } = ints;
  const shifted = utcDays.size > 0;
  const n = slots.length;
  const kept: Kept = {
    slots: new Int32Array(n), periods: new Int32Array(n), n: 0, periodNames: [],
    keyOf: keyColumn ? new Int32Array(table.size + 1).fill(-1) : new Int32Array(0), keys: [],
    currencyOf: currencyColumn ? new Int32Array(table.size + 1).fill(-1) : new Int32Array(0), currencies: [],
  };
  const periodOf = periods(first, last, q, from, kept.periodNames);
  const ordered = inSlotOrder(slots, slotOrderFrom);
  for (let i = 0; i < n; i++) {
    const slot = ordered[i]!;
    const st = state[slot]!;
    if (st < 0 || st >= spend.length || spend[st] === 0) continue;
    const day = shifted ? (utcDays.get(slot) ?? dayColumn[slot]!) : dayColumn[slot]!;
    if (day < first || day > last) continue;
    if (keyColumn) number(kept.keyOf, kept.keys, keyColumn[slot]!);
    if (currencyColumn) number(kept.currencyOf, kept.currencies, currencyColumn[slot]!);
    kept.slots[kept.n] = slot;
    kept.periods[kept.n++] = periodOf(day);
  }
  return kept;
}

/** From this many matches on they are visited in slot order (below, the columns fit in the caches whatever the order). */
const SLOT_ORDER_FROM = 1 << 18;

/**
 * The matches in slot order: they come in time order, which reads each column at random places
 * (at 1M rows, five columns of 4–8 MB, beyond the caches); a bitmap of them, scanned once, reads
 * the columns front to back.
 */
function inSlotOrder(slots: ArrayLike<number>, from: number): ArrayLike<number> {
  const n = slots.length;
  if (n < from) return slots;
  let max = 0;
  for (let i = 0; i < n; i++) if (slots[i]! > max) max = slots[i]!;
  const marked = new Uint8Array(max + 1);
  for (let i = 0; i < n; i++) marked[slots[i]!] = 1;
  const out = new Int32Array(n);
  let k = 0;
  for (let slot = 0; slot <= max; slot++) if (marked[slot] === 1) out[k++] = slot;
  return out;
}

/** A day's (YYYYMMDD in [first, last]) period number, the bucket computed once per day met; `names` gets each period's first day. */
function periods(first: number, last: number, q: Omit<ReportQuery, 'filters'>, from: string, names: string[]): (day: number) => number {
  const numbers = new Map<string, number>();
  const compute = (day: number) => {
    const period = bucketStart(isoDay(day), q.time_grain, from);
    let p = numbers.get(period);
    if (p === undefined) numbers.set(period, (p = names.push(period) - 1));
    return p;
  };
  // The range's days as YYYYMMDD integers, one slot each (≈ 10,000 a year); a longer range uses a Map.
  if (last - first < 1 << 22) {
    const byDay = new Int32Array(Math.max(0, last - first + 1)).fill(-1);
    return (day) => {
      const p = byDay[day - first]!;
      return p >= 0 ? p : (byDay[day - first] = compute(day));
    };
  }
  const byDay = new Map<number, number>();
  return (day) => {
    let p = byDay.get(day);
    if (p === undefined) byDay.set(day, (p = compute(day)));
    return p;
  };
}

/** Numbers a table id (-1: none) the first time it is met. */
function number(numberOf: Int32Array, ids: number[], id: number): void {
  if (numberOf[id + 1]! < 0) numberOf[id + 1] = ids.push(id) - 1;
}

/** YYYYMMDD as YYYY-MM-DD. */
function isoDay(day: number): string {
  const s = String(day).padStart(8, '0');
  return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
}

function fail(dimension: string): never {
  throw new Error(`a report by ${dimension} needs row bodies (not a column)`);
}
