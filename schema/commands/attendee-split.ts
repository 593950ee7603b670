import { z } from 'zod';
import { produce } from 'immer';
import { defineCommand } from './define-command.ts';
import { rowCommand } from './row-commands.ts';
import { attendeeSplitBodySchema, computeAttendeeSplit } from '../attendee-split.ts';
import { copyRefundReceipts, deleteAttendeeSplit, putAttendeeSplit } from '../api/calls-transaction-extras.ts';
import type { Transaction } from '../entities/transaction.ts';

/**
 * Issue 32: the drawer's attendee split and a refund's copied receipts, offline like the
 * attendees' own edit (`transaction.code`): applied to the mirror at once, sent by the outbox,
 * confirmed by the row the call answers.
 */
const transaction = rowCommand('transactions', 'transaction_id', 'transaction_canonical_uuid');

/**
 * The split applied locally by the same rule the server applies. `names`: the internal attendees'
 * names as the device knows them (the server stores its own). Custom amounts that do not add up
 * change nothing here (the drawer does not send them; the server would refuse them).
 */
function applyAttendeeSplit(row: Transaction, split: z.output<typeof attendeeSplitBodySchema>, names: Record<string, string>): Transaction {
  const result = computeAttendeeSplit(row.amount, row.currency, split, (id) => names[id] ?? '');
  if ('problem' in result) return row;
  return produce(row, (d) => { d.attendee_split = result.split; });
}

export const transactionSplitAttendees = defineCommand({
  name: 'transaction.splitAttendees',
  args: transaction.shared.args.extend({ split: attendeeSplitBodySchema, names: z.record(z.uuid(), z.string().max(200)).default({}) }),
  collection: 'transactions',
  entityIds: transaction.shared.entityIds,
  call: putAttendeeSplit,
  request: (a) => ({ ...transaction.shared.request(a), body: a.split }),
  apply: (row, a) => applyAttendeeSplit(row, a.split, a.names),
  check: transaction.inMirror,
  confirm: 'row',
});

export const transactionClearAttendeeSplit = defineCommand({
  name: 'transaction.clearAttendeeSplit',
  args: transaction.shared.args,
  collection: 'transactions',
  entityIds: transaction.shared.entityIds,
  call: deleteAttendeeSplit,
  request: transaction.shared.request,
  apply: (row) => (row.attendee_split ? produce(row, (d) => { d.attendee_split = null; }) : row),
  check: transaction.inMirror,
  confirm: 'row',
});

/** The refund's receipts with the purchase's appended, each once (as the server links them). */
const withCopiedReceipts = (row: Transaction, receiptIds: readonly string[]): Transaction => {
  const added = receiptIds.filter((id) => !row.receipt_ids.includes(id));
  return added.length === 0 ? row : produce(row, (d) => { d.receipt_ids.push(...added); });
};

/** `receipt_ids`: the purchase's receipts as the mirror holds them when queued, shown on the refund at once. */
export const transactionCopyReceipts = defineCommand({
  name: 'transaction.copyReceipts',
  args: transaction.shared.args.extend({ source_transaction_id: z.uuid(), receipt_ids: z.array(z.uuid()).max(100).default([]) }),
  collection: 'transactions',
  entityIds: transaction.shared.entityIds,
  call: copyRefundReceipts,
  request: (a) => ({ ...transaction.shared.request(a), body: { source_transaction_id: a.source_transaction_id } }),
  apply: (row, a) => withCopiedReceipts(row, a.receipt_ids),
  check: transaction.inMirror,
  confirm: 'row',
});
