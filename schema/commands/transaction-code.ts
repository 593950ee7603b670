import { z } from 'zod';
import { produce } from 'immer';
import { defineCommand } from './define-command.ts';
import { bulkCodingBodySchema, codingPatchSchema, type CodingPatch } from './coding-patch.ts';
import { bulkCodeTransactions, patchTransaction } from '../api/calls.ts';
import type { Transaction } from '../entities/transaction.ts';

/** Pure: the transaction with the patch applied. Keys absent from the patch stay as they are. */
export function applyCodingPatch<T extends Pick<Transaction, 'memo' | 'gl_account_id' | 'department_id' | 'location_id' | 'tracking'>>(
  txn: T,
  patch: CodingPatch,
): T {
  return produce(txn, (d) => {
    if (patch.memo !== undefined) d.memo = patch.memo === '' ? null : patch.memo;
    if (patch.gl_account_id !== undefined) d.gl_account_id = patch.gl_account_id;
    if (patch.department_id !== undefined) d.department_id = patch.department_id;
    if (patch.location_id !== undefined) d.location_id = patch.location_id;
    for (const [category, option] of Object.entries(patch.tracking ?? {})) {
      if (option === null) delete d.tracking[category];
      else d.tracking[category] = option;
    }
  });
}

export const transactionCode = defineCommand({
  name: 'transaction.code',
  args: z.object({ transaction_id: z.uuid(), patch: codingPatchSchema }),
  collection: 'transactions',
  entityIds: (a) => [a.transaction_id],
  call: patchTransaction,
  request: (a) => ({ params: { transaction_canonical_uuid: a.transaction_id }, body: a.patch }),
  apply: (txn: Transaction, a) => applyCodingPatch(txn, a.patch),
});

export const transactionBulkCode = defineCommand({
  name: 'transaction.bulkCode',
  args: bulkCodingBodySchema,
  collection: 'transactions',
  entityIds: (a) => a.transaction_ids,
  call: bulkCodeTransactions,
  request: (a) => ({ body: a }),
  apply: (txn: Transaction, a) => applyCodingPatch(txn, a.patch),
});
