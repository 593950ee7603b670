import type { Transaction } from '../schema/entities/transaction.ts';
import { occurredDesc, type MirroredTransaction, type TransactionMirrorFields } from '../schema/mirror.ts';
import type { OutboxEntry } from '../sync/ports.ts';
import { byAge } from '../sync/outbox-machine.ts';
import type { OutboxIndex } from './outbox-index.ts';

/**
 * Optimistic rows, as pure functions. A mirrored transaction is either the server's row as is,
 * or (while commands are pending on it) the server's row in `shadow` with the pending commands'
 * pure `apply` run over it in outbox order, their ids in `pending_ids`. Every change of either
 * side (a new server row, a command queued, confirmed, rolled back or retried) recomputes the
 * row from these two inputs, so the result never depends on the order events arrived in.
 */

/** A transaction with whatever mirror fields it carries: a stored row, an engine row, a wire row. */
export type AnyTransactionRow = Omit<Transaction, 'deleted'> & Partial<TransactionMirrorFields> & { deleted?: boolean };

/** The query engine's row: the full entity (deleted: false) plus the mirror fields. */
export type EngineRow = Transaction & Partial<TransactionMirrorFields>;

export interface RecomputeOptions {
  /** The command being confirmed or rolled back: no longer on top of the row. */
  exclude?: string;
  /** A command about to return to the applied states (retry), counted before its state says so. */
  include?: OutboxEntry;
  /** The confirmed server row replaces the shadow (confirm, or a row from the change feed). */
  base?: Transaction;
}

/** Server fields only, as the entity: drops the mirror-only fields, restores `deleted`. */
export function serverRow(row: AnyTransactionRow): Transaction {
  const { shadow, pending_ids, occurred_desc, ...rest } = row;
  void shadow;
  void pending_ids;
  void occurred_desc;
  return { ...rest, deleted: false };
}

/** A stored row as the query engine keeps it. */
export function toEngineRow(row: AnyTransactionRow): EngineRow {
  return { ...row, deleted: false };
}

function storable(row: AnyTransactionRow): Omit<Transaction, 'deleted'> {
  const { shadow, pending_ids, occurred_desc, deleted, ...rest } = row;
  void shadow;
  void pending_ids;
  void occurred_desc;
  void deleted;
  return rest;
}

export function toMirrored(row: AnyTransactionRow): MirroredTransaction {
  return { ...storable(row), occurred_desc: occurredDesc(row.occurred_at) };
}

/** The row as it should be stored now. */
export function recomputeRow(index: OutboxIndex, current: AnyTransactionRow, opts: RecomputeOptions = {}): MirroredTransaction {
  const base = opts.base ?? current.shadow ?? serverRow(current);
  let entries = index.applied(current.id);
  if (opts.exclude) entries = entries.filter((e) => e.id !== opts.exclude);
  const include = opts.include;
  if (include && !entries.some((e) => e.id === include.id)) entries = [...entries, include].sort(byAge);
  if (entries.length === 0) return toMirrored(base);
  let visible = serverRow(base);
  for (const entry of entries) visible = index.applyTo(entry, visible);
  return {
    ...storable(visible),
    occurred_desc: occurredDesc(visible.occurred_at),
    shadow: serverRow(base),
    pending_ids: entries.map((e) => e.id),
  };
}

/** True when the stored row already reflects exactly the applied commands. */
export function isCurrent(index: OutboxIndex, row: AnyTransactionRow): boolean {
  const want = index.applied(row.id).map((e) => e.id);
  const have = row.pending_ids ?? [];
  return want.length === have.length && want.every((id, i) => have[i] === id);
}
