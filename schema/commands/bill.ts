import { z } from 'zod';
import { produce } from 'immer';
import { commandPart, defineCommand, type BlankContext, type CommandCheckContext, type CommandPart } from './define-command.ts';
import { asTombstone, createWithId, rowCommand } from './row-commands.ts';
import { createBill, deleteBill, payBillsNow, updateBill } from '../api/calls-bills.ts';
import {
  billCreateSchema, billPatchSchema, type Bill, type BillCreate, type BillLineInput, type BillLineItem, type BillPatch,
} from '../entities/bill.ts';
import {
  BILL_ACTIONS, BULK_BILL_LIMIT, billPatchActions, billTotal, checkBillAction, checkBillPatch, createdStatus, type BillAction,
} from '../bill-rules.ts';

/**
 * Bill commands (issue 11 §7 bill pay). Each `apply` is pure and follows what the server does
 * (server/domain/bills.ts) with the same rules (schema/bill-rules.ts): the amount is always the
 * lines' sum (`billTotal`), a create is a DRAFT or, with `submit`, PENDING_APPROVAL
 * (`createdStatus`), a patch changes only what `checkBillPatch` lets the bill's status change.
 * A move the rules refuse leaves the row as it is: the server refuses the call by name and the
 * outbox keeps the command (failed, args kept) for the user to fix or discard.
 *
 * The API has no separate submit: a bill is submitted by creating it with `submit: true`, or a
 * draft (a rejected bill, after its fix) by patching it with `submit: true` (deciding it is the
 * approvals' business). Creates carry a client id (required here, optional
 * in the call), so a bill made offline keeps its id, and the edits queued on it, once the
 * server has it; the server answers a repeated create under that id with the stored bill.
 * The moment of a write is the row's `updated_at`, stamped by the caller before `apply`.
 */

/**
 * A line as the server stores it: it picks the line ids (random) and replaces every line on a
 * patch, so an optimistic line id only has to be unique within its bill until the server's row
 * replaces it. Derived from the bill id and the position: `apply` stays pure.
 */
export function lineIdOf(billId: string, position: number): string {
  return `${billId.slice(0, 24)}${position.toString(16).padStart(12, '0')}`;
}

export function billLines(billId: string, lines: readonly BillLineInput[]): BillLineItem[] {
  return lines.map((l, i) => ({
    id: lineIdOf(billId, i), description: l.description, amount: l.amount, gl_account_id: l.gl_account_id ?? null,
    department_id: l.department_id ?? null, location_id: l.location_id ?? null, tracking: l.tracking ?? {}, vendor_credit_id: l.vendor_credit_id ?? null,
    po_line_id: l.po_line_id ?? null, quantity: l.quantity ?? null, unit_price: l.unit_price ?? null,
  }));
}

/** The bill with `patch` applied as the server applies it; unchanged when its status refuses any field. */
export function applyBillPatch(row: Bill, patch: BillPatch): Bill {
  if (!checkBillPatch(patch, row.status).ok) return row;
  return produce(row, (d) => {
    if (patch.vendor_id !== undefined) d.vendor_id = patch.vendor_id;
    if (patch.invoice_number !== undefined) d.invoice_number = patch.invoice_number;
    if (patch.invoice_date !== undefined) d.invoice_date = patch.invoice_date;
    if (patch.due_date !== undefined) d.due_date = patch.due_date;
    if (patch.currency !== undefined) d.currency = patch.currency;
    if (patch.memo !== undefined) d.memo = patch.memo;
    if (patch.entity_id !== undefined) d.entity_id = patch.entity_id;
    if (patch.invoice_file_id !== undefined) d.invoice_file_id = patch.invoice_file_id;
    // The match itself is the server's (it reads receipts and other bills): the feed brings it.
    if (patch.purchase_order_id !== undefined) d.purchase_order_id = patch.purchase_order_id;
    if (patch.line_items !== undefined) d.line_items = billLines(d.id, patch.line_items);
    d.amount = billTotal(d.line_items);
    if (patch.submit) {
      d.status = 'PENDING_APPROVAL';
      d.submitted_at = d.updated_at;
      d.rejection_reason = null;
    }
  });
}

/** A new bill's fields, then its created status (a draft, or submitted at the write's moment). */
export function applyBillCreate(row: Bill, body: BillCreate): Bill {
  return produce(row, (d) => {
    d.vendor_id = body.vendor_id;
    d.invoice_number = body.invoice_number;
    d.invoice_date = body.invoice_date;
    d.due_date = body.due_date;
    d.currency = body.currency;
    d.memo = body.memo ?? null;
    d.purchase_order_id = body.purchase_order_id ?? null;
    d.line_items = billLines(d.id, body.line_items);
    d.amount = billTotal(d.line_items);
    d.status = createdStatus(body.submit);
    d.submitted_at = body.submit ? d.updated_at : null;
  });
}

/**
 * A bill before its create's `apply` (the worker shows a bill created offline from it at once):
 * created by the actor at `at`, nothing paid or approved yet.
 */
export function newBill(body: BillCreate, { id, actor, at }: BlankContext): Bill {
  return {
    id, vendor_id: body.vendor_id, invoice_number: body.invoice_number, invoice_date: body.invoice_date, due_date: body.due_date,
    payment_date: null, currency: body.currency, amount: 0, line_items: [], memo: null, status: 'DRAFT', entity_id: null,
    invoice_file_id: null, payment_approval: null, created_by: actor.user_id, submitted_at: null, approved_by: null, approved_at: null, rejection_reason: null,
    payment_attempt: 0, payment_failure_reason: null, paid_at: null, paid_manually: false, reconciled_at: null, created_at: at,
    accounting_synced_at: null, duplicate_of: null, purchase_order_id: null, po_match: null,
    business_id: actor.business_id, change_seq: 0, updated_at: at, deleted: false,
  };
}

/**
 * Issue 12: what a sync commit exported of a bill is frozen until someone marks it not synced
 * (the accounting system holds it now). The export carries the vendor, invoice number, invoice
 * date, currency, amount and every line's amount and coding (GL account, department, location,
 * tracking), so the actions that change any of those are refused on a synced bill:
 * - `editPayable` (vendor, invoice number, currency, lines and so the amount: the PATCH and the
 *   bulk amount), `editCoding` (the bulk tracking category), `editDates` (invoice and due date,
 *   PATCH and bulk: the due date is the payable's term in the books).
 * Everything else stays allowed: the memo and invoice document (`editMemo`: notes, the brief's
 * "memo-only" edit), the paying entity (`editEntity`: which account pays, not in the export),
 * and every status move (submit, approve, schedule, pay, mark paid or reconciled, cancel,
 * reverse): they move the bill along, not what the books hold of it.
 * The same rule runs in the worker (`bill.update`'s check) and the server (PATCH and the bulk
 * actions, each bill refused on its own), with ACCOUNTING_7301.
 */
export const SYNC_LOCKED_BILL_ACTIONS: readonly BillAction[] = ['editPayable', 'editCoding', 'editDates'];

/** The refusal (ACCOUNTING_7301's words, with the export's day) when `actions` would change a synced bill; null otherwise. */
export function syncedBillRefusal(syncedAt: string | null | undefined, actions: readonly BillAction[]): string | null {
  if (!syncedAt || !actions.some((a) => SYNC_LOCKED_BILL_ACTIONS.includes(a))) return null;
  return `This bill was exported to your accounting system on ${syncedAt.slice(0, 10)}. ` +
    'Mark it as not synced to change its vendor, invoice number, dates, amounts or coding.';
}

/** The worker's side: a patch the mirror's row shows synced is refused before queueing (a mirror that cannot read rows passes). */
const billPatchNotSynced = (id: string, patch: BillPatch, mirror: CommandCheckContext) => {
  const at = mirror.get?.(id)?.accounting_synced_at;
  return syncedBillRefusal(typeof at === 'string' ? at : null, billPatchActions(patch)) ? ('ACCOUNTING_7301' as const) : null;
};

/**
 * Issue 25: a bill command's args with the duplicate confirmed (`confirm_duplicate: true` on the
 * create's body, or on the update's patch), for re-sending a command the server refused with
 * BILL_PAY_DUPLICATE_INVOICE; null for any other command.
 */
export function withDuplicateConfirmed(command: string, args: unknown): unknown {
  if (typeof args !== 'object' || args === null) return null;
  if (command === 'bill.create') return { ...args, confirm_duplicate: true };
  const patch = (args as { patch?: unknown }).patch;
  if (command === 'bill.update' && typeof patch === 'object' && patch !== null) return { ...args, patch: { ...patch, confirm_duplicate: true } };
  return null;
}

/** Edits and deletes name a bill the mirror holds (a bill created offline counts): anything else is refused before queueing. */
const bill = rowCommand('bills', 'bill_id', 'bill_uuid');

export const billCreate = defineCommand({
  // The id goes with the body: the server creates the bill under it.
  name: 'bill.create', ...createWithId(billCreateSchema), collection: 'bills', call: createBill,
  apply: (row, a) => applyBillCreate(row, a),
  blank: (a, ctx) => newBill(a, ctx),
  // The create answers with the stored bill.
  confirm: 'row',
  // Completing a provisional bill (the bill inbox) deletes it in the same write: gone at once here.
  // Its id among the entry's also orders the create after the provisional bill's own queued create.
  also: {
    provisional_bills: {
      ids: (a) => [a.provisional_bill_id],
      apply: (row) => ({ ...row, deleted: true }),
    },
  },
});

export const billUpdate = defineCommand({
  name: 'bill.update', ...bill.shared,
  args: bill.shared.args.extend({ patch: billPatchSchema }),
  // An invoice file stored on this device waits for its upload, and goes out under the server's id.
  after: (a) => (a.patch.invoice_file_id ? [a.patch.invoice_file_id] : []),
  resolve: (a, serverId) =>
    a.patch.invoice_file_id ? { ...a, patch: { ...a.patch, invoice_file_id: serverId(a.patch.invoice_file_id) ?? a.patch.invoice_file_id } } : a,
  call: updateBill,
  request: (a) => ({ ...bill.shared.request(a), body: a.patch }),
  apply: (row, a) => applyBillPatch(row, a.patch),
  check: (a, mirror) => bill.inMirror(a, mirror) ?? billPatchNotSynced(a.bill_id, a.patch, mirror),
  edits: { row: (a) => a.bill_id, patch: (a) => a.patch, withPatch: (a, patch) => ({ ...a, patch: patch as typeof a.patch }) },
  confirm: 'row',
});

/**
 * Deleting a draft (anything further along is canceled instead; the server refuses it by name).
 * The answer is the tombstone with its seq: confirmed by change seq, so the feed drops the row
 * from every mirror; optimistically the row is a tombstone at once. A non-draft stays shown.
 */
export const billDelete = defineCommand({
  name: 'bill.delete', ...bill.shared, call: deleteBill,
  apply: (row) => (row.status === 'DRAFT' ? asTombstone(row) : row),
  check: bill.inMirror,
  confirm: 'change_seq',
});

/**
 * Paying one approved (or scheduled) bill, queued: what a person confirms offline, naming the
 * amount and the vendor, to be sent once when the device is back online. The command's id is
 * the request's Idempotency-Key, so a retried send replays the first answer and never pays
 * twice; the server's own locks and constraints hold the rest (server/domain/bill-payments.ts).
 * Shown SCHEDULED meanwhile (checkBillAction's `payNow`: a payment on its way, not yet paid).
 * The server sends it PENDING and the bill stays SCHEDULED ("processing") until the settlement
 * job settles it on its bank day (server/domain/bill-settlement.ts); the feed then brings it PAID.
 * pay-now answers per bill with 200: the bill's own refusal (already paid, no longer approved, or
 * BILL_PAY_7101: its vendor has no verified bank account, so it cannot be paid) is the command's
 * refusal, kept failed for the person to see; one the server's row made moot (paid elsewhere) is
 * dropped by the worker (workers/outbox-index.ts `isMoot`).
 */
export const billPayNow = defineCommand({
  name: 'bill.payNow', ...bill.shared, call: payBillsNow,
  request: (a) => ({ body: { bill_ids: [a.bill_id] } }),
  apply: (row) => (checkBillAction('payNow', row.status).ok ? produce(row, (d) => {
    d.status = BILL_ACTIONS.payNow.to;
  }) : row),
  check: bill.inMirror,
  confirm: 'change_seq',
  // The bulk bar queues several at once (at most BULK_BILL_LIMIT, as online): one command per bill,
  // so each bill's payment is sent, answered, retried or refused on its own.
  split: {
    input: z.object({ bill_ids: z.array(z.uuid()).min(1).max(BULK_BILL_LIMIT) }),
    parts: ({ bill_ids }): CommandPart[] => [...new Set(bill_ids)].map((id) => commandPart(billPayNow, { bill_id: id })),
  },
  refusal: (res, a) => {
    const item = res.results.find((r) => r.id === a.bill_id);
    if (!item) return { error_code: 'REQUEST_7004', message: 'The server did not answer for this bill.' };
    return item.ok ? null : { error_code: item.error_v2?.error_code ?? 'REQUEST_7001', message: item.error_v2?.message ?? 'This bill could not be paid.' };
  },
});
