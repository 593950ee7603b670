import { transactionEntity, type Transaction } from '../../schema/entities/transaction.ts';
import { fullName } from '../../schema/entities/spend-user.ts';
import type { MirroredTransaction } from '../../schema/mirror.ts';
import { compareTransactions, type TransactionFilter, type TransactionSort } from '../../schema/transaction-query.ts';
import type { OutboxIndex } from '../outbox-index.ts';
import { QueryEngine, type EngineSpec, type SortKeys } from '../query-engine.ts';
import { rebaser, type RowShape } from '../rebase.ts';
import type { ReferenceCache } from '../reference-cache.ts';
import type { SlotCompare } from '../sorted-order.ts';
import type { WorkerCollection } from './worker-collection.ts';
import { TransactionColumns } from './transaction-columns.ts';
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
 * merge of 100k rows does that a million times. Ties fall back to the shared
 * `compareTransactions`, so the order is exactly the server's whenever occurred_at strings share
 * one format (the API always sends UTC ISO strings, where string order and time order agree).
 */
class TransactionSortKeys<R extends Transaction> implements SortKeys<R, TransactionSort> {
  private timeKey = new Float64Array(1024);
  private amountKey = new Float64Array(1024);
  private merchantKey = new Int32Array(1024);
  private merchantRank = new Map<string, number>();

  moved(a: R, b: R): boolean {
    return a.occurred_at !== b.occurred_at || a.amount !== b.amount || a.merchant_name !== b.merchant_name;
  }

  /** A new merchant name shifts every rank: the merchant order is rebuilt on its next use. */
  invalidates(row: R): TransactionSort | null {
    if (this.merchantRank.has(row.merchant_name)) return null;
    this.merchantRank.clear();
    return 'merchant_asc';
  }

  set(slot: number, row: R): boolean {
    let grown = false;
    if (slot >= this.timeKey.length) {
      const size = Math.max(slot + 1, this.timeKey.length * 2);
      this.timeKey = grownTo(this.timeKey, size);
      this.amountKey = grownTo(this.amountKey, size);
      this.merchantKey = grownTo(this.merchantKey, size);
      grown = true;
    }
    const desc = (row as { occurred_desc?: number }).occurred_desc;
    this.timeKey[slot] = desc !== undefined ? -desc : Date.parse(row.occurred_at);
    this.amountKey[slot] = row.amount;
    this.merchantKey[slot] = this.merchantRank.get(row.merchant_name) ?? -1;
    return grown;
  }

  clear(): void {
    this.merchantRank.clear();
  }

  compare(sort: TransactionSort, rows: readonly (R | undefined)[]): SlotCompare {
    const exact = compareTransactions(sort);
    const tie = (a: number, b: number) => exact(rows[a]!, rows[b]!);
    const time = this.timeKey;
    const amount = this.amountKey;
    switch (sort) {
      case 'occurred_desc':
        return (a, b) => time[b]! - time[a]! || tie(a, b);
      case 'occurred_asc':
        return (a, b) => time[a]! - time[b]! || tie(a, b);
      case 'amount_desc':
        return (a, b) => amount[b]! - amount[a]! || time[b]! - time[a]! || tie(a, b);
      case 'amount_asc':
        return (a, b) => amount[a]! - amount[b]! || time[b]! - time[a]! || tie(a, b);
      case 'merchant_asc': {
        // localeCompare per comparison would cost seconds at 100k rows: compare the rank of the
        // merchant name among the distinct names (sorted once with localeCompare) instead.
        this.merchantRanks(rows);
        const rank = this.merchantKey;
        const byTime = compareTransactions('occurred_desc');
        return (a, b) => rank[a]! - rank[b]! || time[b]! - time[a]! || byTime(rows[a]!, rows[b]!);
      }
    }
  }

  private merchantRanks(rows: readonly (R | undefined)[]): void {
    if (this.merchantRank.size === 0) {
      const names = new Set<string>();
      for (const row of rows) if (row) names.add(row.merchant_name);
      const sorted = [...names].sort((a, b) => a.localeCompare(b));
      let rank = 0;
      sorted.forEach((name, i) => {
        if (i > 0 && sorted[i - 1]!.localeCompare(name) !== 0) rank++;
        this.merchantRank.set(name, rank);
      });
    }
    for (let slot = 0; slot < rows.length; slot++) {
      const row = rows[slot];
      if (row) this.merchantKey[slot] = this.merchantRank.get(row.merchant_name)!;
    }
  }
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

function transactionEngineSpec<R extends Transaction>(textOf: (row: R) => string): EngineSpec<R, TransactionFilter, TransactionSort> {
  return {
    sorts: transactionEntity.query.sorts,
    textOf,
    compileFilter: compileTransactionFilter,
    sortKeys: () => new TransactionSortKeys<R>(),
    columns: () => new TransactionColumns<R>(),
  };
}

export function createTransactionEngine<R extends Transaction = Transaction>(textOf: (row: R) => string): QueryEngine<R, TransactionFilter, TransactionSort> {
  return new QueryEngine(transactionEngineSpec(textOf));
}

export const transactionCollection: WorkerCollection<'transactions', AnyTransactionRow, EngineRow> = {
  name: 'transactions',
  rows: TRANSACTION_ROWS,
  stored: toMirrored,
  engine: (refs) => createTransactionEngine<EngineRow>(transactionText(refs)),
  firstPage: { sort: 'occurred_desc' },
};
