import { z } from 'zod';
import { attachReceipt, detachReceipt, discardReceipt, RECEIPT_CONTENT_TYPES, uploadReceipt } from '../api/calls-receipts.ts';
import type { Transaction } from '../entities/transaction.ts';
import { defineCommand } from './define-command.ts';
import { rowCommand } from './row-commands.ts';

/**
 * Receipts (issue 9 §2) through the outbox. A receipt is captured offline under a client id (a
 * uuid the device makes) and its bytes stay in the worker's file store; `receipt.upload` sends
 * them in the `upload` lane, so a 10 MB file never holds back an unrelated edit. The server
 * stores files by content, so its answer may name another id (the same bytes uploaded before):
 * the file store keeps client id → server id, and commands naming the client id wait for the
 * upload (`after`) and are sent with the server's id (`resolve`).
 */

const serverIdOf = <A extends { receipt_id: string }>(a: A, serverId: (id: string) => string | undefined): A => ({
  ...a,
  receipt_id: serverId(a.receipt_id) ?? a.receipt_id,
});

/**
 * Pure: `ids` with each client receipt id the upload answered replaced by the server's (for
 * commands naming a list of receipts, e.g. a reimbursement's `receipt_ids`). Order kept; an id
 * named twice (two client ids whose bytes the server stored once) appears once.
 */
export function serverIdsOf(ids: readonly string[], serverId: (id: string) => string | undefined): string[] {
  return [...new Set(ids.map((id) => serverId(id) ?? id))];
}


export const receiptUpload = defineCommand({
  name: 'receipt.upload',
  args: z.object({
    receipt_id: z.uuid(),
    content_type: z.enum(RECEIPT_CONTENT_TYPES),
    size: z.number().int().positive(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  }),
  // Receipts are not mirrored: the upload names no row (entityIds is empty), only its client id.
  collection: 'transactions',
  entityIds: () => [],
  after: (a) => [a.receipt_id],
  call: uploadReceipt,
  // The body is the file, read from the file store when sent (`file`).
  request: () => ({}),
  file: (a) => a.receipt_id,
  lane: 'upload',
  apply: (row) => row,
  confirm: 'none',
});

/**
 * Issue 25: a receipt a cancelled form stored is given up on the server (`receipts.discard`:
 * deleted only while nothing uses it). Queued under the client id, it waits for the receipt's
 * upload (`after`) and is sent with the server's id; offline, it goes on the next sync.
 */
export const receiptDiscard = defineCommand({
  name: 'receipt.discard',
  args: z.object({ receipt_id: z.uuid() }),
  collection: 'transactions',
  entityIds: () => [],
  after: (a) => [a.receipt_id],
  resolve: serverIdOf,
  call: discardReceipt,
  request: (a) => ({ params: { receipt_uuid: a.receipt_id }, body: {} }),
  apply: (row) => row,
  confirm: 'none',
});

/** Pure: the transaction with the receipt attached (once). */
function applyAttach(txn: Transaction, receiptId: string): Transaction {
  return txn.receipt_ids.includes(receiptId) ? txn : { ...txn, receipt_ids: [...txn.receipt_ids, receiptId] };
}

/** Pure: the transaction without the receipt. */
function applyDetach(txn: Transaction, receiptId: string): Transaction {
  return txn.receipt_ids.includes(receiptId) ? { ...txn, receipt_ids: txn.receipt_ids.filter((id) => id !== receiptId) } : txn;
}

const transaction = rowCommand('transactions', 'transaction_id', 'transaction_canonical_uuid');
/**
 * Attach and detach: a transaction the mirror holds and a receipt, waiting for the receipt's
 * upload and sent with its server id. The answer names the transaction's change seq; the feed
 * brings the row with the server's ids.
 */
const onTransactionReceipt = {
  ...transaction.shared,
  args: transaction.shared.args.extend({ receipt_id: z.uuid() }),
  after: (a: { receipt_id: string }) => [a.receipt_id],
  resolve: serverIdOf,
  check: transaction.inMirror,
  confirm: 'change_seq',
} as const;

export const transactionAttachReceipt = defineCommand({
  name: 'transaction.attachReceipt', ...onTransactionReceipt, call: attachReceipt,
  request: (a) => ({ ...transaction.shared.request(a), body: { receipt_id: a.receipt_id } }),
  apply: (txn, a) => applyAttach(txn, a.receipt_id),
});

export const transactionDetachReceipt = defineCommand({
  name: 'transaction.detachReceipt', ...onTransactionReceipt, call: detachReceipt,
  request: (a) => ({ params: { transaction_canonical_uuid: a.transaction_id, receipt_uuid: a.receipt_id } }),
  apply: (txn, a) => applyDetach(txn, a.receipt_id),
});
