// Generated from the entity's column map (schema/entities/columns.ts) by workers/collections/shapers.ts.
// Do not edit: change the entity's columns, then run
//   npx vitest run --project unit workers/collections/shapers.test.ts -u
import type { RowOf } from '../../../schema/collections.ts';
import type { EngineRowFor, ShaperIn } from '../shaper-types.ts';
import type { MirroredRow } from '../../../schema/mirror.ts';

/** bills: the wire row's own fields. */
export function serverBills(r: ShaperIn<'bills'>): RowOf<'bills'> {
  return {
    id: r.id,
    vendor_id: r.vendor_id,
    invoice_number: r.invoice_number,
    invoice_date: r.invoice_date,
    due_date: r.due_date,
    payment_date: r.payment_date,
    currency: r.currency,
    amount: r.amount,
    line_items: r.line_items,
    memo: r.memo,
    status: r.status,
    entity_id: r.entity_id,
    invoice_file_id: r.invoice_file_id,
    created_by: r.created_by,
    submitted_at: r.submitted_at,
    approved_by: r.approved_by,
    approved_at: r.approved_at,
    rejection_reason: r.rejection_reason,
    payment_attempt: r.payment_attempt,
    payment_failure_reason: r.payment_failure_reason,
    paid_at: r.paid_at,
    paid_manually: r.paid_manually,
    reconciled_at: r.reconciled_at,
    created_at: r.created_at,
    accounting_synced_at: r.accounting_synced_at ?? null,
    duplicate_of: r.duplicate_of ?? null,
    purchase_order_id: r.purchase_order_id ?? null,
    po_match: r.po_match ?? null,
    payment_approval: r.payment_approval ?? null,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
    deleted: false,
  } as RowOf<'bills'>;
}

/** bills: the engine's row (shown fields, mirror-only fields, the server row underneath). */
export function engineBills(r: ShaperIn<'bills'>, server: RowOf<'bills'> | undefined): EngineRowFor<'bills'> {
  return {
    id: r.id,
    vendor_id: r.vendor_id,
    invoice_number: r.invoice_number,
    invoice_date: r.invoice_date,
    due_date: r.due_date,
    payment_date: r.payment_date,
    currency: r.currency,
    amount: r.amount,
    line_items: r.line_items,
    memo: r.memo,
    status: r.status,
    entity_id: r.entity_id,
    invoice_file_id: r.invoice_file_id,
    created_by: r.created_by,
    submitted_at: r.submitted_at,
    approved_by: r.approved_by,
    approved_at: r.approved_at,
    rejection_reason: r.rejection_reason,
    payment_attempt: r.payment_attempt,
    payment_failure_reason: r.payment_failure_reason,
    paid_at: r.paid_at,
    paid_manually: r.paid_manually,
    reconciled_at: r.reconciled_at,
    created_at: r.created_at,
    accounting_synced_at: r.accounting_synced_at ?? null,
    duplicate_of: r.duplicate_of ?? null,
    purchase_order_id: r.purchase_order_id ?? null,
    po_match: r.po_match ?? null,
    payment_approval: r.payment_approval ?? null,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
    deleted: false,
    server,
  } as EngineRowFor<'bills'>;
}

/** bills: the row as the mirror stores it. */
export function storedBills(r: ShaperIn<'bills'>): MirroredRow<'bills'> {
  return {
    id: r.id,
    vendor_id: r.vendor_id,
    invoice_number: r.invoice_number,
    invoice_date: r.invoice_date,
    due_date: r.due_date,
    payment_date: r.payment_date,
    currency: r.currency,
    amount: r.amount,
    line_items: r.line_items,
    memo: r.memo,
    status: r.status,
    entity_id: r.entity_id,
    invoice_file_id: r.invoice_file_id,
    created_by: r.created_by,
    submitted_at: r.submitted_at,
    approved_by: r.approved_by,
    approved_at: r.approved_at,
    rejection_reason: r.rejection_reason,
    payment_attempt: r.payment_attempt,
    payment_failure_reason: r.payment_failure_reason,
    paid_at: r.paid_at,
    paid_manually: r.paid_manually,
    reconciled_at: r.reconciled_at,
    created_at: r.created_at,
    accounting_synced_at: r.accounting_synced_at ?? null,
    duplicate_of: r.duplicate_of ?? null,
    purchase_order_id: r.purchase_order_id ?? null,
    po_match: r.po_match ?? null,
    payment_approval: r.payment_approval ?? null,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
  } as MirroredRow<'bills'>;
}
