import type { Transaction } from '../../schema/entities/transaction.ts';
import type { TransactionFilter } from '../../schema/transaction-query.ts';
import { utcDay } from '../../schema/reports.ts';
import type { RowColumns } from '../query-engine.ts';
import { grownTo } from '../typed-arrays.ts';

/**
 * The transactions engine's filter columns (issue 33): every field a TransactionFilter tests,
 * per slot in a typed array, so a filter over a million rows is a loop over integers instead of
 * a million object reads (each a cache miss). Ids, names, states and currencies are interned in
 * one string table and held as its small integers (-1: null); amounts as numbers; the day of
 * `occurred_at` as YYYYMMDD.
 *
 * The same table de-duplicates the row itself: a row arriving from IndexedDB or the feed holds
 * its own copy of every string (its business, card, cardholder, merchant, category, codes…);
 * `set` swaps each for the table's one copy (equal strings, so nothing a reader sees changes),
 * about 400 bytes of a row's kilobyte.
 */
const INTERNED = [
  'business_id', 'card_id', 'user_id', 'merchant_name', 'merchant_category', 'currency', 'state',
  'gl_account_id', 'department_id', 'location_id', 'fraud_status',
] as const;
type Interned = (typeof INTERNED)[number];

/** One string table: each distinct string once, with its integer. */
export class StringTable {
  private readonly ids = new Map<string, number>();
  private readonly strings: string[] = [];

  /** The string's integer, added when new. */
  id(s: string): number {
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.strings.push(s) - 1;
      this.ids.set(s, id);
    }
    return id;
  }

  /** The integer of a string already in the table (-1: never seen, so no row holds it). */
  find(s: string): number {
    return this.ids.get(s) ?? -1;
  }

  string(id: number): string {
    return this.strings[id]!;
  }

  /** Issue 33: every string in id order (a copy), what `StringTable.of` takes back. */
  snapshot(): string[] {
    return [...this.strings];
  }

  static of(strings: readonly string[]): StringTable {
    const table = new StringTable();
    for (const s of strings) table.id(s);
    if (table.size !== strings.length) throw new Error('string table snapshot: a string twice');
    return table;
  }

  get size(): number {
    return this.strings.length;
  }
}

/** The columns in an engine snapshot (issue 33). */
interface ColumnsSnapshot {
  strings: string[];
  ints: Record<IntColumn, Int32Array<ArrayBuffer>>;
  amount: Float64Array<ArrayBuffer>;
  flags: Uint8Array<ArrayBuffer>;
  /** Pairs (slot, UTC day) of `utcDays`. */
  utcDays: Int32Array<ArrayBuffer>;
}

const columnNames = ['card', 'user', 'department', 'location', 'gl', 'merchant', 'state', 'currency', 'day'] as const;
export type IntColumn = (typeof columnNames)[number];

/**
 * Issue 33: the columns as they are, for aggregates over slots without a row body
 * (workers/report-columns.ts). Not copies: read them at once (the next `set` may replace an array).
 */
export interface ColumnsView {
  readonly table: Pick<StringTable, 'find' | 'string' | 'size'>;
  readonly ints: Readonly<Record<IntColumn, Int32Array>>;
  readonly amount: Float64Array;
  /** `occurred_at`'s UTC day (YYYYMMDD) where it is not the `day` column's (an offset across midnight). */
  readonly utcDays: ReadonlyMap<number, number>;
}

export class TransactionColumns<R extends Transaction> implements RowColumns<R, TransactionFilter> {
  private table = new StringTable();
  private ints: Record<IntColumn, Int32Array> = fresh(1024);
  private amount = new Float64Array(1024);
  /** Bit 1: has a receipt; bit 2: held (fraud_status FLAGGED); bit 4: has tracking options. */
  private flags = new Uint8Array(1024);
  /**
   * A report buckets by `occurred_at`'s UTC day (schema/reports.ts `utcDay`), the filter by its
   * date prefix (`day`): they differ only for an offset that crosses midnight, so those few are
   * kept apart, slot → UTC day.
   */
  private utcDays = new Map<number, number>();
  private readonly dedupeRows: boolean;

  /** `dedupeRows`: swap the row's repeated strings for the table's copies (default; pointless when the engine drops the body). */
  constructor(options: { dedupeRows?: boolean } = {}) {
    this.dedupeRows = options.dedupeRows ?? true;
  }

  set(slot: number, row: R): void {
    if (slot >= this.amount.length) this.grow(slot + 1);
    const table = this.table;
    if (this.dedupeRows && !Object.isFrozen(row)) {
      const fields = row as unknown as Record<Interned, string | null | undefined>;
      for (const f of INTERNED) {
        const v = fields[f];
        if (typeof v === 'string') fields[f] = table.string(table.id(v));
      }
    }
    const ref = (v: string | null | undefined) => (v == null ? -1 : table.id(v));
    const c = this.ints;
    c.card[slot] = ref(row.card_id);
    c.user[slot] = ref(row.user_id);
    c.department[slot] = ref(row.department_id);
    c.location[slot] = ref(row.location_id);
    c.gl[slot] = ref(row.gl_account_id);
    c.merchant[slot] = ref(row.merchant_name);
    c.state[slot] = ref(row.state);
    c.currency[slot] = ref(row.currency);
    const at = row.occurred_at;
    const day = (c.day[slot] = dayOf(at));
    const utc = at.length === 10 || at.endsWith('Z') ? day : dayOf(utcDay(at));
    if (utc !== day) this.utcDays.set(slot, utc);
    else if (this.utcDays.size > 0) this.utcDays.delete(slot);
    this.amount[slot] = row.amount;
    let tracked = 0;
    for (const category in row.tracking) if (Object.hasOwn(row.tracking, category)) tracked = 4;
    this.flags[slot] = (row.receipt_ids.length > 0 ? 1 : 0) | (row.fraud_status === 'FLAGGED' ? 2 : 0) | tracked;
  }

  /**
   * Slots whose search text may name one of `ids` (transactionText: cardholder, GL account,
   * department, location, tracking category and option): the id columns, and every row with
   * tracking options (their ids are not kept as columns).
   */
  naming(ids: ReadonlySet<string>): (slot: number) => boolean {
    const wanted = new Uint8Array(this.table.size);
    for (const id of ids) {
      const n = this.table.find(id);
      if (n >= 0) wanted[n] = 1;
    }
    const { user, gl, department, location } = this.ints;
    const flags = this.flags;
    const named = (n: number) => n >= 0 && wanted[n] === 1;
    return (s) => (flags[s]! & 4) === 4 || named(user[s]!) || named(gl[s]!) || named(department[s]!) || named(location[s]!);
  }

  /** Issue 33: the first `slots` slots' columns (copied) and the string table. */
  snapshot(slots: number): ColumnsSnapshot {
    const n = Math.min(slots, this.amount.length);
    const ints = Object.fromEntries(columnNames.map((name) => [name, this.ints[name].slice(0, n)])) as ColumnsSnapshot['ints'];
    const utcDays = Int32Array.from([...this.utcDays].filter(([slot]) => slot < n).flat());
    return { strings: this.table.snapshot(), ints, amount: this.amount.slice(0, n), flags: this.flags.slice(0, n), utcDays };
  }

  /** Issue 33: the columns as they are (not copies), for a report over slots (report-columns.ts). */
  view(): ColumnsView {
    return { table: this.table, ints: this.ints, amount: this.amount, utcDays: this.utcDays };
  }

  restore(snapshot: unknown): void {
    const s = snapshot as ColumnsSnapshot;
    const n = s.amount.length;
    if (s.flags.length !== n || columnNames.some((name) => s.ints[name]?.length !== n)) throw new Error('columns snapshot: columns of different lengths');
    // A snapshot from before the UTC days is refused (then dropped: the rows are loaded again).
    if (!(s.utcDays instanceof Int32Array) || s.utcDays.length % 2 !== 0) throw new Error('columns snapshot: no UTC days');
    this.table = StringTable.of(s.strings);
    // Grown to a non-empty size: `set` grows by doubling.
    const size = Math.max(1024, n);
    this.ints = Object.fromEntries(columnNames.map((name) => [name, grownTo(s.ints[name], size)])) as Record<IntColumn, Int32Array>;
    this.amount = grownTo(s.amount, size);
    this.flags = grownTo(s.flags, size);
    this.utcDays = new Map();
    for (let i = 0; i < s.utcDays.length; i += 2) this.utcDays.set(s.utcDays[i]!, s.utcDays[i + 1]!);
  }

  clear(): void {
    this.table = new StringTable();
    this.utcDays = new Map();
    this.ints = fresh(1024);
    this.amount = new Float64Array(1024);
    this.flags = new Uint8Array(1024);
  }

  /** The filter's structural part as a slot predicate, exactly `compileTransactionFilter`'s meaning (null: none). */
  compile(f: TransactionFilter): ((slot: number) => boolean) | null {
    const checks: ((slot: number) => boolean)[] = [];
    const c = this.ints;
    const anyOf = (col: Int32Array, values: readonly string[] | undefined) => {
      if (!values?.length) return;
      const wanted = new Uint8Array(this.table.size);
      for (const v of values) {
        const id = this.table.find(v);
        if (id >= 0) wanted[id] = 1;
      }
      checks.push((s) => {
        const id = col[s]!;
        return id >= 0 && wanted[id] === 1;
      });
    };
    anyOf(c.user, f.user_ids);
    anyOf(c.card, f.card_ids);
    anyOf(c.department, f.department_ids);
    anyOf(c.location, f.location_ids);
    anyOf(c.gl, f.gl_account_ids);
    anyOf(c.state, f.states);
    if (f.merchant !== undefined) anyOf(c.merchant, [f.merchant]);
    if (f.currency !== undefined) anyOf(c.currency, [f.currency]);
    const { amount_min: min, amount_max: max, from, to, missing_coding: missing, missing_receipt: noReceipt } = f;
    const amount = this.amount;
    if (min !== undefined) checks.push((s) => amount[s]! >= min);
    if (max !== undefined) checks.push((s) => amount[s]! <= max);
    // occurred_at ≥ from ⟺ its date prefix ≥ from (a prefix sorts before its datetimes); to compares the prefix.
    if (from) {
      const day = dayOf(from);
      checks.push((s) => c.day[s]! >= day);
    }
    if (to) {
      const day = dayOf(to);
      checks.push((s) => c.day[s]! <= day);
    }
    if (missing === true) checks.push((s) => c.gl[s]! < 0);
    if (missing === false) checks.push((s) => c.gl[s]! >= 0);
    const flags = this.flags;
    if (noReceipt === true) checks.push((s) => (flags[s]! & 1) === 0);
    if (noReceipt === false) checks.push((s) => (flags[s]! & 1) === 1);
    if (f.held === true) checks.push((s) => (flags[s]! & 2) === 2);
    if (f.held === false) checks.push((s) => (flags[s]! & 2) === 0);
    if (checks.length === 0) return null;
    if (checks.length === 1) return checks[0]!;
    return (s) => {
      for (const check of checks) if (!check(s)) return false;
      return true;
    };
  }

  private grow(min: number): void {
    const size = Math.max(min, this.amount.length * 2);
    for (const name of columnNames) this.ints[name] = grownTo(this.ints[name], size);
    this.amount = grownTo(this.amount, size);
    this.flags = grownTo(this.flags, size);
  }
}

function fresh(size: number): Record<IntColumn, Int32Array> {
  return Object.fromEntries(columnNames.map((n) => [n, new Int32Array(size)])) as Record<IntColumn, Int32Array>;
}

/** YYYY-MM-DD (a date, or the start of an ISO datetime) as the integer YYYYMMDD: same order as the strings. */
export function dayOf(iso: string): number {
  const digit = (i: number) => iso.charCodeAt(i) - 48;
  let n = 0;
  for (const i of [0, 1, 2, 3, 5, 6, 8, 9]) n = n * 10 + digit(i);
  return n;
}
