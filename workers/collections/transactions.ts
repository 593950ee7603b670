import { transactionEntity, type Transaction } from '../../schema/entities/transaction.ts';
import { fullName } from '../../schema/entities/spend-user.ts';
import type { MirroredTransaction } from '../../schema/mirror.ts';
import type { TransactionFilter, TransactionSort } from '../../schema/transaction-query.ts';
import { SPEND_TRANSACTION_STATES } from '../../schema/reports.ts';
import type { OutboxIndex } from '../outbox-index.ts';
import { QueryEngine, type EngineSpec, type MoneyFields, type SlotRows, type SortKeys } from '../query-engine.ts';
import { rebaser, type RowShape } from '../rebase.ts';
import type { ReferenceCache } from '../reference-cache.ts';
import type { SlotCompare } from '../sorted-order.ts';
import type { WorkerCollection } from './worker-collection.ts';
import { StringTable, TransactionColumns } from './transaction-columns.ts';
import { grownTo } from '../typed-arrays.ts';
import { engineTransactions, serverTransactions, storedTransactions } from './generated/transactions.ts';

/**
 * What only transactions have in the worker, on top of their definition's query spec: the row
 * shapers (generated from the definition's columns: generated/transactions.ts), the compiled filter, typed-array sort keys with the merchant rank,
 * and the search text the server builds (ll_transaction_search_text). The transaction path is
 * the hot one (100k rows: query p95 of a few ms, a 10,000-row bulk coding ~100 ms).
 */

/** A transaction as the worker holds it anywhere: stored, on the wire, or in the engine. */
export type AnyTransactionRow = Omit<Transaction, 'deleted' | 'receipt_ids'> & {
  receipt_ids?: string[]; deleted?: boolean; occurred_desc?: number; server?: Transaction;
};

/**
 * The query engine's row: the entity as shown (commands applied), with `server`, the confirmed
 * server row underneath, while commands are on top (memory only, never stored).
 */
export type EngineRow = Transaction & { occurred_desc: number; server: Transaction | undefined };

/** The server's fields as one object literal (see RowShape: one hidden class), generated from the columns. */
export const serverRow: (r: AnyTransactionRow) => Transaction = serverTransactions;

const engineRow: (r: AnyTransactionRow, server: Transaction | undefined) => EngineRow = engineTransactions;

/** A server row as the engine holds it when no command sits on it. */
export function toEngineRow(r: AnyTransactionRow): EngineRow {
  return engineTransactions(r, undefined);
}

/** The row to store: server fields (no `deleted`, see MIRROR_OMITTED_FIELDS) and the sort key. */
export const toMirrored: (r: AnyTransactionRow) => MirroredTransaction = storedTransactions;

const TRANSACTION_ROWS: RowShape<AnyTransactionRow, Transaction, EngineRow> = {
  server: serverRow,
  engine: engineRow,
  apply: (index, entry, t) => index.applyTo(entry, t),
};

/** One row as shown (for single reads; the runtime builds its rebaser once). */
export function showRow(index: OutboxIndex, current: AnyTransactionRow): EngineRow {
  return rebaser(index, TRANSACTION_ROWS, 'transactions')(current);
}

/**
 * `matchesTransactionFilter` compiled for a scan of 100k rows: id lists become Sets and only
 * the conditions present are tested. It must mean exactly the same; the query engine's tests
 * compare the two on every filter of their table. Null when there is no structural condition.
 */
export function compileTransactionFilter(f: TransactionFilter): ((t: Transaction) => boolean) | null {
  const checks: ((t: Transaction) => boolean)[] = [];
  if (f.user_ids?.length) {
    const ids = new Set(f.user_ids);
    checks.push((t) => ids.has(t.user_id));
  }
  if (f.card_ids?.length) {
    const ids = new Set(f.card_ids);
    checks.push((t) => ids.has(t.card_id));
  }
  if (f.department_ids?.length) {
    const ids = new Set(f.department_ids);
    checks.push((t) => t.department_id !== null && ids.has(t.department_id));
  }
  if (f.location_ids?.length) {
    const ids = new Set(f.location_ids);
    checks.push((t) => t.location_id !== null && ids.has(t.location_id));
  }
  if (f.gl_account_ids?.length) {
    const ids = new Set(f.gl_account_ids);
    checks.push((t) => t.gl_account_id !== null && ids.has(t.gl_account_id));
  }
  const merchant = f.merchant;
  if (merchant !== undefined) checks.push((t) => t.merchant_name === merchant);
  if (f.states?.length) {
    const states = new Set<string>(f.states);
    checks.push((t) => states.has(t.state));
  }
  const currency = f.currency;
  if (currency !== undefined) checks.push((t) => t.currency === currency);
  const { amount_min: min, amount_max: max, from, to, missing_coding: missing, missing_receipt: noReceipt } = f;
  if (min !== undefined) checks.push((t) => t.amount >= min);
  if (max !== undefined) checks.push((t) => t.amount <= max);
  // occurred_at.slice(0, 10) < from  ⟺  occurred_at < from, as a date prefix sorts before its datetimes.
  if (from) checks.push((t) => t.occurred_at >= from);
  if (to) checks.push((t) => t.occurred_at.slice(0, 10) <= to);
  if (missing === true) checks.push((t) => t.gl_account_id === null);
  if (missing === false) checks.push((t) => t.gl_account_id !== null);
  if (noReceipt === true) checks.push((t) => t.receipt_ids.length === 0);
  if (noReceipt === false) checks.push((t) => t.receipt_ids.length > 0);
  if (f.held === true) checks.push((t) => t.fraud_status === 'FLAGGED');
  if (f.held === false) checks.push((t) => t.fraud_status !== 'FLAGGED');
  if (checks.length === 0) return null;
  if (checks.length === 1) return checks[0]!;
  return (t) => {
    for (const check of checks) if (!check(t)) return false;
    return true;
  };
}

/**
 * Sort keys per slot in typed arrays: comparing numbers from a typed array is an order of
 * magnitude cheaper than reading two objects' properties and comparing their ISO strings, and a
 * merge of 100k rows does that a million times. Ties fall back to the row id (the shared
 * `compareTransactions` ends with it), so the order is exactly the server's whenever
 * occurred_at strings share one format (the API always sends UTC ISO strings with milliseconds,
 * where string order and time order agree). Nothing here reads a row body (issue 33: the engine
 * keeps most bodies in IndexedDB only): the merchant is kept per slot as its name's id.
 */
class TransactionSortKeys<R extends Transaction> implements SortKeys<R, TransactionSort> {
  private timeKey = new Float64Array(1024);
  private amountKey = new Float64Array(1024);
  /** slot → the merchant name's id in `names`. */
  private merchantId = new Int32Array(1024);
  private names = new StringTable();
  /** name id → its rank among the distinct names (localeCompare order), for the first `ranked` names. */
  private rankOf = new Int32Array(0);
  private ranked = 0;

  moved(slot: number, row: R): boolean {
    return this.timeKey[slot] !== timeOf(row) || this.amountKey[slot] !== row.amount || this.merchantId[slot] !== this.names.find(row.merchant_name);
  }

  /** A new merchant name shifts every rank: the merchant order is rebuilt on its next use. */
  invalidates(row: R): TransactionSort | null {
    return this.names.find(row.merchant_name) >= 0 ? null : 'merchant_asc';
  }

  set(slot: number, row: R): boolean {
    let grown = false;
    if (slot >= this.timeKey.length) {
      const size = Math.max(slot + 1, this.timeKey.length * 2);
      this.timeKey = grownTo(this.timeKey, size);
      this.amountKey = grownTo(this.amountKey, size);
      this.merchantId = grownTo(this.merchantId, size);
      grown = true;
    }
    this.timeKey[slot] = timeOf(row);
    this.amountKey[slot] = row.amount;
    this.merchantId[slot] = this.names.id(row.merchant_name);
    return grown;
  }

  clear(): void {
    this.names = new StringTable();
    this.rankOf = new Int32Array(0);
    this.ranked = 0;
  }

  /** Issue 33 (engine snapshot): the first `slots` slots' keys, copied, and the merchant names (ranks are made again on use). */
  snapshot(slots: number): SortKeysSnapshot {
    const n = Math.min(slots, this.timeKey.length);
    return { time: this.timeKey.slice(0, n), amount: this.amountKey.slice(0, n), merchant: this.merchantId.slice(0, n), names: this.names.snapshot() };
  }

  restore(snapshot: unknown): void {
    const s = snapshot as SortKeysSnapshot;
    const n = s.time.length;
    if (s.amount.length !== n || s.merchant.length !== n) throw new Error('sort keys snapshot: keys of different lengths');
    this.clear();
    this.names = StringTable.of(s.names);
    const size = Math.max(1024, n);
    this.timeKey = grownTo(s.time, size);
    this.amountKey = grownTo(s.amount, size);
    this.merchantId = grownTo(s.merchant, size);
  }

  compare(sort: TransactionSort, slots: SlotRows<R>): SlotCompare {
    const time = this.timeKey;
    const amount = this.amountKey;
    // byDateThenId's descending tie-break: the greater id first.
    const idDesc = (a: number, b: number) => {
      const x = slots.id(a);
      const y = slots.id(b);
      return x < y ? 1 : x > y ? -1 : 0;
    };
    const byTimeDesc = (a: number, b: number) => time[b]! - time[a]! || idDesc(a, b);
    switch (sort) {
      case 'occurred_desc':
        return byTimeDesc;
      case 'occurred_asc':
        return (a, b) => byTimeDesc(b, a);
      case 'amount_desc':
        return (a, b) => amount[b]! - amount[a]! || byTimeDesc(a, b);
      case 'amount_asc':
        return (a, b) => amount[a]! - amount[b]! || byTimeDesc(a, b);
      case 'merchant_asc': {
        // localeCompare per comparison would cost seconds at 100k rows: compare the rank of the
        // merchant name among the distinct names (sorted once with localeCompare) instead.
        const rank = this.merchantRanks();
        const merchant = this.merchantId;
        return (a, b) => rank[merchant[a]!]! - rank[merchant[b]!]! || byTimeDesc(a, b);
      }
    }
  }

  /** Ranks every name seen so far (names equal under localeCompare share one). */
  private merchantRanks(): Int32Array {
    const n = this.names.size;
    if (this.ranked === n) return this.rankOf;
    const ids = Array.from({ length: n }, (_, i) => i);
    const name = (i: number) => this.names.string(i);
    ids.sort((a, b) => name(a).localeCompare(name(b)));
    const rankOf = new Int32Array(n);
    let rank = 0;
    ids.forEach((id, i) => {
      if (i > 0 && name(ids[i - 1]!).localeCompare(name(id)) !== 0) rank++;
      rankOf[id] = rank;
    });
    this.rankOf = rankOf;
    this.ranked = n;
    return rankOf;
  }
}

interface SortKeysSnapshot {
  time: Float64Array<ArrayBuffer>;
  amount: Float64Array<ArrayBuffer>;
  merchant: Int32Array<ArrayBuffer>;
  names: string[];
}

/** The time sort key: the stored negated time when the row carries it, else its parsed occurred_at. */
function timeOf(row: Transaction): number {
  const desc = (row as { occurred_desc?: number }).occurred_desc;
  return desc !== undefined ? -desc : Date.parse(row.occurred_at);
}

type TextFields = Pick<Transaction, 'merchant_name' | 'memo' | 'user_id' | 'gl_account_id' | 'department_id' | 'location_id' | 'tracking'>;

/**
 * The words a transaction is found by, the same as the server's search text
 * (ll_transaction_search_text, migration 001): merchant, memo, cardholder name, GL code and
 * name, department, location, and each tracking category with its option (an option counts only
 * under its own category, so it is looked up by the pair).
 */
export function transactionText(refs: ReferenceCache): (t: TextFields) => string {
  const { users, gl_accounts: gls, departments, locations, tracking_categories: categories } = refs.maps;
  let optionNames = new Map<string, string>();
  let seen = -1;
  const options = () => {
    if (seen !== refs.version('tracking_categories')) {
      seen = refs.version('tracking_categories');
      optionNames = new Map();
      for (const cat of categories.values()) for (const o of cat.options) optionNames.set(`${cat.id}:${o.id}`, `${cat.name} ${o.name}`);
    }
    return optionNames;
  };
  return (t) => {
    const parts: string[] = [t.merchant_name];
    if (t.memo) parts.push(t.memo);
    const user = users.get(t.user_id);
    if (user) parts.push(fullName(user));
    const gl = t.gl_account_id ? gls.get(t.gl_account_id) : undefined;
    if (gl) parts.push(gl.code, gl.name);
    if (t.department_id) parts.push(departments.get(t.department_id)?.name ?? '');
    if (t.location_id) parts.push(locations.get(t.location_id)?.name ?? '');
    for (const [category, option] of Object.entries(t.tracking)) parts.push(options().get(`${category}:${option}`) ?? '');
    return parts.join(' ');
  };
}

/**
 * Issue 33, the engine snapshot's names: each reference id `transactionText` reads → the words it
 * gives a row's text now. A snapshot keeps them; on restore, an id whose words differ (or that came
 * or went) names rows whose text is re-derived (the runtime's `idsNaming` + `retext`).
 */
export function transactionTextNames(refs: ReferenceCache): Record<string, string> {
  const { users, gl_accounts: gls, departments, locations, tracking_categories: categories } = refs.maps;
  const out: Record<string, string> = {};
  for (const user of users.values()) out[user.id] = fullName(user);
  for (const gl of gls.values()) out[gl.id] = `${gl.code} ${gl.name}`;
  for (const d of departments.values()) out[d.id] = d.name;
  for (const l of locations.values()) out[l.id] = l.name;
  for (const cat of categories.values()) out[cat.id] = [cat.name, ...cat.options.map((o) => `${o.id} ${o.name}`)].join('\n');
  return out;
}

/** A card transaction's money is spend only while PENDING or CLEARED (issue 25: declined and reversed charges are counted apart). */
export const TRANSACTION_SPEND_MONEY = {
  amount: 'amount', currency: 'currency', only: { field: 'state', values: SPEND_TRANSACTION_STATES },
} as const satisfies MoneyFields<Transaction>;
/** Every money-bearing collection so far stores `amount` (minor units) and `currency`. */
export const PLAIN_MONEY = { amount: 'amount', currency: 'currency' } as const satisfies MoneyFields<Transaction>;

/**
 * Issue 33: how many row bodies the mirror's transactions engine keeps in memory besides the held
 * ones (rows with outbox entries, the signed-in person's own); the rest are read back from
 * IndexedDB. Sized by the heap budget: a body costs ≈ 0.95 KB of worker heap (1M rows with 150k
 * bodies: 317 MB against 176 MB with none, goal ≤ 400 MB), so a mirror of up to 150k transactions
 * keeps every body on a computer (reports, exports and bulk commands never read IndexedDB), and a
 * phone reporting less memory (`navigator.deviceMemory`, GB, Chromium) keeps fewer.
 */
export function transactionBodies(deviceMemoryGb: number | undefined = (globalThis.navigator as { deviceMemory?: number } | undefined)?.deviceMemory): number {
  if (deviceMemoryGb === undefined || deviceMemoryGb >= 8) return 150_000;
  return deviceMemoryGb >= 4 ? 100_000 : 40_000;
}

export interface TransactionEngineOptions {
  /** Keep at most this many bodies (EngineSpec `bodies`); absent: every body is kept. */
  bodies?: number;
}

function transactionEngineSpec<R extends Transaction>(textOf: (row: R) => string, options: TransactionEngineOptions): EngineSpec<R, TransactionFilter, TransactionSort> {
  const bodiesOut = options.bodies !== undefined;
  return {
    sorts: transactionEntity.query.sorts,
    textOf,
    compileFilter: compileTransactionFilter,
    sortKeys: () => new TransactionSortKeys<R>(),
    // A body the engine drops need not share its strings (the columns intern their own).
    columns: () => new TransactionColumns<R>({ dedupeRows: !bodiesOut }),
    money: [TRANSACTION_SPEND_MONEY, PLAIN_MONEY] as unknown as MoneyFields<R>[],
    ...(bodiesOut ? { bodies: options.bodies } : {}),
  };
}

export function createTransactionEngine<R extends Transaction = Transaction>(
  textOf: (row: R) => string,
  options: TransactionEngineOptions = {},
): QueryEngine<R, TransactionFilter, TransactionSort> {
  return new QueryEngine(transactionEngineSpec(textOf, options));
}

export const transactionCollection: WorkerCollection<'transactions', AnyTransactionRow, EngineRow> = {
  name: 'transactions',
  rows: TRANSACTION_ROWS,
  stored: toMirrored,
  engine: (refs, options) => createTransactionEngine<EngineRow>(transactionText(refs), { bodies: options?.bodies ?? transactionBodies() }),
  firstPage: { sort: 'occurred_desc' },
};
