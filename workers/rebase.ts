import type { Transaction } from '../schema/entities/transaction.ts';
import { occurredDesc, type MirroredTransaction } from '../schema/mirror.ts';
import type { OutboxIndex } from './outbox-index.ts';

/**
 * Optimistic rows, as pure functions. The mirror stores only the server's version of a row
 * (the confirmed copy); the user's edits live in the durable outbox. What a row shows is the
 * server row with the pure `apply` of every command still on top of it (outbox order), computed
 * in memory whenever either side changes: a new server row arrives (rebase), a command is queued,
 * rolled back, retried or confirmed. So a rollback restores exactly the server's version, and
 * there is no window in which a crash leaves a half-written optimistic state on disk.
 */

/** A transaction as the worker holds it anywhere: stored, on the wire, or in the engine. */
export type AnyTransactionRow = Omit<Transaction, 'deleted'> & { deleted?: boolean; occurred_desc?: number; server?: Transaction };

/**
 * The query engine's row: the entity as shown (commands applied), with `server`, the confirmed
 * server row underneath, while commands are on top (memory only, never stored).
 */
export type EngineRow = Transaction & { occurred_desc: number; server: Transaction | undefined };

/**
 * Every row built here is one object literal on purpose: rows built by zod or RxDB get their
 * keys one at a time (computed keys) and V8 keeps such objects in slow dictionary mode, and
 * spreads and rest patterns copy that. A literal gives every row one fast hidden class; this
 * makes rebuilding 10,000 rows (bulk coding) and the engine's sorts and filters several times
 * faster.
 */
export function serverRow(r: AnyTransactionRow): Transaction {
  return {
    id: r.id,
    card_id: r.card_id,
    user_id: r.user_id,
    merchant_name: r.merchant_name,
    merchant_category: r.merchant_category,
    amount: r.amount,
    currency: r.currency,
    occurred_at: r.occurred_at,
    state: r.state,
    memo: r.memo,
    gl_account_id: r.gl_account_id,
    department_id: r.department_id,
    location_id: r.location_id,
    tracking: r.tracking,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
    deleted: false,
  };
}

function engineRow(r: AnyTransactionRow, server: Transaction | undefined): EngineRow {
  return {
    id: r.id,
    card_id: r.card_id,
    user_id: r.user_id,
    merchant_name: r.merchant_name,
    merchant_category: r.merchant_category,
    amount: r.amount,
    currency: r.currency,
    occurred_at: r.occurred_at,
    state: r.state,
    memo: r.memo,
    gl_account_id: r.gl_account_id,
    department_id: r.department_id,
    location_id: r.location_id,
    tracking: r.tracking,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
    deleted: false,
    occurred_desc: occurredDesc(r.occurred_at),
    server,
  };
}

/** A server row as the engine holds it when no command sits on it. */
export function toEngineRow(r: AnyTransactionRow): EngineRow {
  return engineRow(r, undefined);
}

/** The row to store: server fields (no `deleted`, see MIRROR_OMITTED_FIELDS) and the sort key. */
export function toMirrored(r: AnyTransactionRow): MirroredTransaction {
  return {
    id: r.id,
    card_id: r.card_id,
    user_id: r.user_id,
    merchant_name: r.merchant_name,
    merchant_category: r.merchant_category,
    amount: r.amount,
    currency: r.currency,
    occurred_at: r.occurred_at,
    state: r.state,
    memo: r.memo,
    gl_account_id: r.gl_account_id,
    department_id: r.department_id,
    location_id: r.location_id,
    tracking: r.tracking,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
    occurred_desc: occurredDesc(r.occurred_at),
  };
}

/**
 * What the row shows now: its server version (the `server` under an engine row, else the row
 * itself, which then must be a server row) with the commands on top applied in order.
 */
export function showRow(index: OutboxIndex, current: AnyTransactionRow): EngineRow {
  const entries = index.applied(current.id);
  if (entries.length === 0) return engineRow(current.server ?? current, undefined);
  const base = current.server ?? serverRow(current);
  let visible = base;
  for (const entry of entries) visible = index.applyTo(entry, visible);
  return engineRow(visible, base);
}
