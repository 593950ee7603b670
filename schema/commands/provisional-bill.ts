import { z } from 'zod';
import { produce } from 'immer';
import { commandPart, defineCommand, type BlankContext, type CommandPart } from './define-command.ts';
import { asTombstone, createWithId, rowCommand } from './row-commands.ts';
import { createProvisionalBill, deleteProvisionalBill, updateProvisionalBill } from '../api/calls-provisional-bills.ts';
import {
  provisionalBillCreateSchema, provisionalBillPatchSchema, type ProvisionalBill, type ProvisionalBillPatch,
} from '../entities/provisional-bill.ts';
import { validateProvisionalBill } from '../bill-rules.ts';

/**
 * The bill inbox's commands (issue 11 §7 provisional bills: uploaded invoices not yet completed
 * into bills). Provisional bills are reference data (`refs`), shown with these commands applied
 * like any queried row (workers/rebase.ts). Each `apply` is pure and follows
 * server/domain/provisional-bills.ts: only the fields named change, an empty invoice number is
 * none, and a change `validateProvisionalBill` refuses (a due date before the invoice date, an
 * amount without its currency) leaves the row as it is: the server refuses the call by name and
 * the outbox keeps it (failed, args kept) for the person to fix or discard.
 *
 * A create carries a client id, so the row shows at once (`blank`) and edits queued on it keep
 * their target once the server has it; its invoice is a receipt-store file, usually one just
 * kept on this device: the create waits for that file's upload (`after`) and is sent with the
 * server's id for it (`resolve`), as `bill.update` does. Completing one into a bill is
 * `bill.create` with `provisional_bill_id` (commands/bill.ts), which deletes it in the same write.
 */

const PATCHABLE = ['vendor_id', 'invoice_number', 'invoice_date', 'due_date', 'currency', 'amount', 'memo'] as const;

/** The provisional bill with the fields `patch` names set (an empty invoice number clears it); unchanged when the result breaks a rule. */
function applyProvisionalPatch(row: ProvisionalBill, patch: ProvisionalBillPatch): ProvisionalBill {
  const next = produce(row, (d) => {
    for (const key of PATCHABLE) {
      const value = patch[key];
      if (value === undefined) continue;
      (d as Record<string, unknown>)[key] = key === 'invoice_number' && value === '' ? null : value;
    }
  });
  return Object.keys(validateProvisionalBill(next)).length > 0 ? row : next;
}

/** A provisional bill before its create's `apply`: the file, nothing read yet, uploaded by the actor at `at`. */
function newProvisionalBill(invoiceFileId: string, { id, actor, at }: BlankContext): ProvisionalBill {
  return {
    id, invoice_file_id: invoiceFileId, vendor_id: null, invoice_number: null, invoice_date: null, due_date: null, currency: null,
    amount: null, memo: null, created_by: actor.user_id, created_at: at, business_id: actor.business_id, change_seq: 0, updated_at: at,
    deleted: false,
  };
}


export const provisionalBillCreate = defineCommand({
  // The id goes with the body: the server creates the row under it.
  name: 'provisionalBill.create', ...createWithId(provisionalBillCreateSchema), collection: 'provisional_bills',
  // The invoice kept on this device uploads first; the create then names the server's file.
  after: (a) => [a.invoice_file_id],
  resolve: (a, serverId) => ({ ...a, invoice_file_id: serverId(a.invoice_file_id) ?? a.invoice_file_id }),
  call: createProvisionalBill,
  apply: (row, a) => applyProvisionalPatch(row, a),
  blank: (a, ctx) => newProvisionalBill(a.invoice_file_id, ctx),
  // The create answers with the stored row.
  confirm: 'row',
});

/** Edits and deletes name a row the mirror holds (one created offline counts). */
const provisionalBill = rowCommand('provisional_bills', 'provisional_bill_id', 'provisional_bill_uuid');

export const provisionalBillUpdate = defineCommand({
  name: 'provisionalBill.update', ...provisionalBill.shared, call: updateProvisionalBill,
  args: provisionalBill.shared.args.extend({ patch: provisionalBillPatchSchema }),
  request: (a) => ({ ...provisionalBill.shared.request(a), body: a.patch }),
  apply: (row, a) => applyProvisionalPatch(row, a.patch),
  check: provisionalBill.inMirror,
  confirm: 'row',
});

/**
 * Deleting (its invoice file stays in the receipt store). Runs on one or several ids ("Clear
 * inbox": every row shown, each its own call, so what is cleared is exactly what the person
 * saw and counted). The answer is the tombstone with its seq: confirmed by change seq, so the
 * row stays gone until the feed drops it from every mirror.
 */
export const provisionalBillDelete = defineCommand({
  name: 'provisionalBill.delete', ...provisionalBill.shared, call: deleteProvisionalBill,
  apply: asTombstone,
  check: provisionalBill.inMirror,
  confirm: 'change_seq',
  split: {
    input: z.object({ provisional_bill_ids: z.array(z.uuid()).min(1) }),
    parts: ({ provisional_bill_ids }): CommandPart[] =>
      [...new Set(provisional_bill_ids)].map((id) => commandPart(provisionalBillDelete, { provisional_bill_id: id })),
  },
});
