import { z } from 'zod';
import { produce } from 'immer';
import { allInMirror, chunkedParts, commandPart, defineCommand, type CommandCheckContext, type CommandPart } from './define-command.ts';
import { bulkCodingBodySchema, codingPatchSchema, type CodingPatch } from './coding-patch.ts';
import { rowCommand } from './row-commands.ts';
import { bulkCodeTransactions, patchTransaction } from '../api/calls.ts';
import { BULK_CODE_MAX } from '../constants.ts';
import type { Transaction } from '../entities/transaction.ts';

/** The transaction fields a coding patch may change (its body's keys). */
export type CodingField = keyof CodingPatch;
export const CODING_FIELDS = Object.keys(codingPatchSchema.shape) as CodingField[];

/**
 * Pure: the transaction with the patch applied. Keys absent from the patch stay as they are; an
 * empty memo is none; tracking merges by category (null removes one); any other field is replaced.
 */
export function applyCodingPatch<T extends Pick<Transaction, CodingField>>(txn: T, patch: CodingPatch): T {
  return produce(txn, (d) => {
    for (const field of CODING_FIELDS) {
      const value = patch[field];
      if (value === undefined) continue;
      if (field === 'tracking') {
        for (const [category, option] of Object.entries(patch.tracking ?? {})) {
          if (option === null) delete d.tracking[category];
          else d.tracking[category] = option;
        }
      } else if (field === 'memo') d.memo = patch.memo === '' ? null : (patch.memo ?? null);
      // Copied: immer freezes what it returns, and the patch is the caller's.
      else (d as Record<string, unknown>)[field] = Array.isArray(value) ? [...(value as unknown[])] : value;
    }
  });
}

/**
 * Issue 12: the coding of an item a sync commit exported is frozen until someone marks it not
 * synced (the accounting system holds that coding now). The server refuses with this message
 * (ACCOUNTING_7301); the worker refuses before queueing when its mirror shows the mark.
 */
export function syncedCodingRefusal(syncedAt: string | null | undefined): string | null {
  if (!syncedAt) return null;
  return `This transaction was exported to your accounting system on ${syncedAt.slice(0, 10)}. Mark it as not synced to change its coding.`;
}

/** The memo is part of the patch too: the export carried it. A mirror that cannot read rows passes. */
const noneSynced = (ids: readonly string[], mirror: CommandCheckContext) =>
  mirror.get && ids.some((id) => syncedCodingRefusal(asText(mirror.get!(id)?.accounting_synced_at)) !== null)
    ? ('ACCOUNTING_7301' as const)
    : null;
const asText = (v: unknown) => (typeof v === 'string' ? v : null);

const transaction = rowCommand('transactions', 'transaction_id', 'transaction_canonical_uuid');

export const transactionCode = defineCommand({
  name: 'transaction.code', ...transaction.shared, call: patchTransaction,
  args: transaction.shared.args.extend({ patch: codingPatchSchema }),
  request: (a) => ({ ...transaction.shared.request(a), body: a.patch }),
  apply: (txn, a) => applyCodingPatch(txn, a.patch),
  // PATCH answers with the transaction as stored.
  confirm: 'row',
  check: (a, mirror) => transaction.inMirror(a, mirror) ?? noneSynced([a.transaction_id], mirror),
  edits: { row: (a) => a.transaction_id, patch: (a) => a.patch, withPatch: (a, patch) => ({ ...a, patch: patch as CodingPatch }) },
});

/** A coding action's selection: like the bulk body without its 10,000 cap, repeats allowed. */
const codingSelectionSchema = z.object({ transaction_ids: z.array(z.uuid()).min(1), patch: codingPatchSchema });

export const transactionBulkCode = defineCommand({
  name: 'transaction.bulkCode',
  args: bulkCodingBodySchema,
  collection: 'transactions',
  entityIds: (a) => a.transaction_ids,
  call: bulkCodeTransactions,
  request: (a) => ({ body: a }),
  apply: (txn, a) => applyCodingPatch(txn, a.patch),
  // The bulk call answers with a count and the last change seq it wrote.
  confirm: 'change_seq',
  check: (a, mirror) => allInMirror(a.transaction_ids, mirror) ?? noneSynced(a.transaction_ids, mirror),
  // Issue 25: "1,485 changes waiting", one per row, not one per call.
  items: (a) => a.transaction_ids.length,
  split: { input: codingSelectionSchema, parts: codingParts },
});

/**
 * Any selection: distinct ids in calls of at most 10,000 (the outbox keeps them in order); a
 * lone id goes as transaction.code, whose answer is the row itself.
 */
function codingParts({ transaction_ids, patch }: z.output<typeof codingSelectionSchema>): CommandPart[] {
  return chunkedParts(
    transaction_ids, BULK_CODE_MAX,
    (id) => commandPart(transactionCode, { transaction_id: id, patch }),
    (ids) => commandPart(transactionBulkCode, { transaction_ids: ids, patch }),
  );
}
