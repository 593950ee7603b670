// Generated from the entity's column map (schema/entities/columns.ts) by workers/collections/shapers.ts.
// Do not edit: change the entity's columns, then run
//   npx vitest run --project unit workers/collections/shapers.test.ts -u
import type { RowOf } from '../../../schema/collections.ts';
import type { EngineRowFor, ShaperIn } from '../shaper-types.ts';
import type { MirroredRow } from '../../../schema/mirror.ts';

/** spend_requests: the wire row's own fields. */
export function serverSpendRequests(r: ShaperIn<'spend_requests'>): RowOf<'spend_requests'> {
  return {
    id: r.id,
    user_id: r.user_id,
    requested_by: r.requested_by,
    type: r.type,
    status: r.status,
    amount: r.amount,
    interval: r.interval,
    description: r.description,
    vendor_id: r.vendor_id,
    line_items: r.line_items,
    needed_by: r.needed_by,
    spend_allocation_id: r.spend_allocation_id,
    document_ids: r.document_ids,
    approval_id: r.approval_id,
    rejection_reason: r.rejection_reason,
    card_id: r.card_id,
    purchase_order_id: r.purchase_order_id,
    submitted_at: r.submitted_at,
    decided_at: r.decided_at,
    fulfilled_at: r.fulfilled_at,
    canceled_at: r.canceled_at,
    created_at: r.created_at,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
    deleted: false,
  } as RowOf<'spend_requests'>;
}

/** spend_requests: the engine's row (shown fields, mirror-only fields, the server row underneath). */
export function engineSpendRequests(r: ShaperIn<'spend_requests'>, server: RowOf<'spend_requests'> | undefined): EngineRowFor<'spend_requests'> {
  return {
    id: r.id,
    user_id: r.user_id,
    requested_by: r.requested_by,
    type: r.type,
    status: r.status,
    amount: r.amount,
    interval: r.interval,
    description: r.description,
    vendor_id: r.vendor_id,
    line_items: r.line_items,
    needed_by: r.needed_by,
    spend_allocation_id: r.spend_allocation_id,
    document_ids: r.document_ids,
    approval_id: r.approval_id,
    rejection_reason: r.rejection_reason,
    card_id: r.card_id,
    purchase_order_id: r.purchase_order_id,
    submitted_at: r.submitted_at,
    decided_at: r.decided_at,
    fulfilled_at: r.fulfilled_at,
    canceled_at: r.canceled_at,
    created_at: r.created_at,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
    deleted: false,
    server,
  } as EngineRowFor<'spend_requests'>;
}

/** spend_requests: the row as the mirror stores it. */
export function storedSpendRequests(r: ShaperIn<'spend_requests'>): MirroredRow<'spend_requests'> {
  return {
    id: r.id,
    user_id: r.user_id,
    requested_by: r.requested_by,
    type: r.type,
    status: r.status,
    amount: r.amount,
    interval: r.interval,
    description: r.description,
    vendor_id: r.vendor_id,
    line_items: r.line_items,
    needed_by: r.needed_by,
    spend_allocation_id: r.spend_allocation_id,
    document_ids: r.document_ids,
    approval_id: r.approval_id,
    rejection_reason: r.rejection_reason,
    card_id: r.card_id,
    purchase_order_id: r.purchase_order_id,
    submitted_at: r.submitted_at,
    decided_at: r.decided_at,
    fulfilled_at: r.fulfilled_at,
    canceled_at: r.canceled_at,
    created_at: r.created_at,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
  } as MirroredRow<'spend_requests'>;
}
