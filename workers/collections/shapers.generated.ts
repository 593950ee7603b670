// Generated from the entities' column maps (schema/entities/columns.ts) by workers/collections/shapers.ts.
// Do not edit: change the entity's columns, then run
//   npx vitest run --project unit workers/collections/shapers.test.ts -u
import type { RowOf } from '../../schema/collections.ts';
import type { EngineRowFor, ShaperIn } from './shaper-types.ts';
import { occurredDesc } from '../../schema/mirror.ts';
import type { MirroredRow } from '../../schema/mirror.ts';

/** One shared empty list for absent list fields (shapers never mutate rows). */
const NO_ITEMS: never[] = [];

/** transactions: the wire row's own fields. */
export function serverTransactions(r: ShaperIn<'transactions'>): RowOf<'transactions'> {
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
    receipt_ids: r.receipt_ids ?? NO_ITEMS,
    accounting_synced_at: r.accounting_synced_at ?? null,
    merchant_country: r.merchant_country ?? null,
    fraud_status: r.fraud_status ?? null,
    fraud_reasons: r.fraud_reasons ?? NO_ITEMS,
    dispute_id: r.dispute_id ?? null,
    attendees: r.attendees,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
    deleted: false,
  } as RowOf<'transactions'>;
}

/** transactions: the engine's row (shown fields, mirror-only fields, the server row underneath). */
export function engineTransactions(r: ShaperIn<'transactions'>, server: RowOf<'transactions'> | undefined): EngineRowFor<'transactions'> {
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
    receipt_ids: r.receipt_ids ?? NO_ITEMS,
    accounting_synced_at: r.accounting_synced_at ?? null,
    merchant_country: r.merchant_country ?? null,
    fraud_status: r.fraud_status ?? null,
    fraud_reasons: r.fraud_reasons ?? NO_ITEMS,
    dispute_id: r.dispute_id ?? null,
    attendees: r.attendees,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
    deleted: false,
    occurred_desc: occurredDesc(r.occurred_at as string),
    server,
  } as EngineRowFor<'transactions'>;
}

/** transactions: the row as the mirror stores it. */
export function storedTransactions(r: ShaperIn<'transactions'>): MirroredRow<'transactions'> {
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
    receipt_ids: r.receipt_ids ?? NO_ITEMS,
    accounting_synced_at: r.accounting_synced_at ?? null,
    merchant_country: r.merchant_country ?? null,
    fraud_status: r.fraud_status ?? null,
    fraud_reasons: r.fraud_reasons ?? NO_ITEMS,
    dispute_id: r.dispute_id ?? null,
    attendees: r.attendees,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
    occurred_desc: occurredDesc(r.occurred_at as string),
  } as MirroredRow<'transactions'>;
}

/** cards: the wire row's own fields. */
export function serverCards(r: ShaperIn<'cards'>): RowOf<'cards'> {
  return {
    id: r.id,
    user_id: r.user_id,
    display_name: r.display_name,
    last_four: r.last_four,
    is_physical: r.is_physical,
    status: r.status,
    limit: r.limit,
    allowed_categories: r.allowed_categories,
    department_id: r.department_id,
    location_id: r.location_id,
    expires: r.expires,
    is_primary: r.is_primary,
    is_favorite: r.is_favorite,
    replaces_id: r.replaces_id,
    replaced_by_id: r.replaced_by_id,
    created_at: r.created_at,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
    deleted: false,
  } as RowOf<'cards'>;
}

/** cards: the engine's row (shown fields, mirror-only fields, the server row underneath). */
export function engineCards(r: ShaperIn<'cards'>, server: RowOf<'cards'> | undefined): EngineRowFor<'cards'> {
  return {
    id: r.id,
    user_id: r.user_id,
    display_name: r.display_name,
    last_four: r.last_four,
    is_physical: r.is_physical,
    status: r.status,
    limit: r.limit,
    allowed_categories: r.allowed_categories,
    department_id: r.department_id,
    location_id: r.location_id,
    expires: r.expires,
    is_primary: r.is_primary,
    is_favorite: r.is_favorite,
    replaces_id: r.replaces_id,
    replaced_by_id: r.replaced_by_id,
    created_at: r.created_at,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
    deleted: false,
    server,
  } as EngineRowFor<'cards'>;
}

/** cards: the row as the mirror stores it. */
export function storedCards(r: ShaperIn<'cards'>): MirroredRow<'cards'> {
  return {
    id: r.id,
    user_id: r.user_id,
    display_name: r.display_name,
    last_four: r.last_four,
    is_physical: r.is_physical,
    status: r.status,
    limit: r.limit,
    allowed_categories: r.allowed_categories,
    department_id: r.department_id,
    location_id: r.location_id,
    expires: r.expires,
    is_primary: r.is_primary,
    is_favorite: r.is_favorite,
    replaces_id: r.replaces_id,
    replaced_by_id: r.replaced_by_id,
    created_at: r.created_at,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
  } as MirroredRow<'cards'>;
}

/** reimbursements: the wire row's own fields. */
export function serverReimbursements(r: ShaperIn<'reimbursements'>): RowOf<'reimbursements'> {
  return {
    id: r.id,
    user_id: r.user_id,
    type: r.type,
    status: r.status,
    merchant: r.merchant,
    amount: r.amount,
    currency: r.currency,
    transaction_date: r.transaction_date,
    memo: r.memo,
    gl_account_id: r.gl_account_id,
    department_id: r.department_id,
    distance_miles: r.distance_miles,
    start_location: r.start_location,
    end_location: r.end_location,
    trip_date: r.trip_date,
    location: r.location,
    start_date: r.start_date,
    end_date: r.end_date,
    rejection_reason: r.rejection_reason,
    receipt_ids: r.receipt_ids ?? NO_ITEMS,
    submitted_at: r.submitted_at,
    created_at: r.created_at,
    accounting_synced_at: r.accounting_synced_at ?? null,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
    deleted: false,
  } as RowOf<'reimbursements'>;
}

/** reimbursements: the engine's row (shown fields, mirror-only fields, the server row underneath). */
export function engineReimbursements(r: ShaperIn<'reimbursements'>, server: RowOf<'reimbursements'> | undefined): EngineRowFor<'reimbursements'> {
  return {
    id: r.id,
    user_id: r.user_id,
    type: r.type,
    status: r.status,
    merchant: r.merchant,
    amount: r.amount,
    currency: r.currency,
    transaction_date: r.transaction_date,
    memo: r.memo,
    gl_account_id: r.gl_account_id,
    department_id: r.department_id,
    distance_miles: r.distance_miles,
    start_location: r.start_location,
    end_location: r.end_location,
    trip_date: r.trip_date,
    location: r.location,
    start_date: r.start_date,
    end_date: r.end_date,
    rejection_reason: r.rejection_reason,
    receipt_ids: r.receipt_ids ?? NO_ITEMS,
    submitted_at: r.submitted_at,
    created_at: r.created_at,
    accounting_synced_at: r.accounting_synced_at ?? null,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
    deleted: false,
    date_desc: occurredDesc(r.transaction_date as string),
    server,
  } as EngineRowFor<'reimbursements'>;
}

/** reimbursements: the row as the mirror stores it. */
export function storedReimbursements(r: ShaperIn<'reimbursements'>): MirroredRow<'reimbursements'> {
  return {
    id: r.id,
    user_id: r.user_id,
    type: r.type,
    status: r.status,
    merchant: r.merchant,
    amount: r.amount,
    currency: r.currency,
    transaction_date: r.transaction_date,
    memo: r.memo,
    gl_account_id: r.gl_account_id,
    department_id: r.department_id,
    distance_miles: r.distance_miles,
    start_location: r.start_location,
    end_location: r.end_location,
    trip_date: r.trip_date,
    location: r.location,
    start_date: r.start_date,
    end_date: r.end_date,
    rejection_reason: r.rejection_reason,
    receipt_ids: r.receipt_ids ?? NO_ITEMS,
    submitted_at: r.submitted_at,
    created_at: r.created_at,
    accounting_synced_at: r.accounting_synced_at ?? null,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
    date_desc: occurredDesc(r.transaction_date as string),
  } as MirroredRow<'reimbursements'>;
}

/** approvals: the wire row's own fields. */
export function serverApprovals(r: ShaperIn<'approvals'>): RowOf<'approvals'> {
  return {
    id: r.id,
    object_type: r.object_type,
    object_id: r.object_id,
    user_id: r.user_id,
    approver_id: r.approver_id,
    status: r.status,
    reason: r.reason,
    decided_by: r.decided_by,
    decided_at: r.decided_at,
    created_at: r.created_at,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
    deleted: false,
  } as RowOf<'approvals'>;
}

/** approvals: the engine's row (shown fields, mirror-only fields, the server row underneath). */
export function engineApprovals(r: ShaperIn<'approvals'>, server: RowOf<'approvals'> | undefined): EngineRowFor<'approvals'> {
  return {
    id: r.id,
    object_type: r.object_type,
    object_id: r.object_id,
    user_id: r.user_id,
    approver_id: r.approver_id,
    status: r.status,
    reason: r.reason,
    decided_by: r.decided_by,
    decided_at: r.decided_at,
    created_at: r.created_at,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
    deleted: false,
    created_desc: occurredDesc(r.created_at as string),
    server,
  } as EngineRowFor<'approvals'>;
}

/** approvals: the row as the mirror stores it. */
export function storedApprovals(r: ShaperIn<'approvals'>): MirroredRow<'approvals'> {
  return {
    id: r.id,
    object_type: r.object_type,
    object_id: r.object_id,
    user_id: r.user_id,
    approver_id: r.approver_id,
    status: r.status,
    reason: r.reason,
    decided_by: r.decided_by,
    decided_at: r.decided_at,
    created_at: r.created_at,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
    created_desc: occurredDesc(r.created_at as string),
  } as MirroredRow<'approvals'>;
}

/** card_requests: the wire row's own fields. */
export function serverCardRequests(r: ShaperIn<'card_requests'>): RowOf<'card_requests'> {
  return {
    id: r.id,
    user_id: r.user_id,
    is_physical: r.is_physical,
    amount: r.amount,
    currency: r.currency,
    interval: r.interval,
    reason: r.reason,
    status: r.status,
    card_id: r.card_id,
    rejection_reason: r.rejection_reason,
    decided_by: r.decided_by,
    decided_at: r.decided_at,
    created_at: r.created_at,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
    deleted: false,
  } as RowOf<'card_requests'>;
}

/** card_requests: the engine's row (shown fields, mirror-only fields, the server row underneath). */
export function engineCardRequests(r: ShaperIn<'card_requests'>, server: RowOf<'card_requests'> | undefined): EngineRowFor<'card_requests'> {
  return {
    id: r.id,
    user_id: r.user_id,
    is_physical: r.is_physical,
    amount: r.amount,
    currency: r.currency,
    interval: r.interval,
    reason: r.reason,
    status: r.status,
    card_id: r.card_id,
    rejection_reason: r.rejection_reason,
    decided_by: r.decided_by,
    decided_at: r.decided_at,
    created_at: r.created_at,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
    deleted: false,
    server,
  } as EngineRowFor<'card_requests'>;
}

/** card_requests: the row as the mirror stores it. */
export function storedCardRequests(r: ShaperIn<'card_requests'>): MirroredRow<'card_requests'> {
  return {
    id: r.id,
    user_id: r.user_id,
    is_physical: r.is_physical,
    amount: r.amount,
    currency: r.currency,
    interval: r.interval,
    reason: r.reason,
    status: r.status,
    card_id: r.card_id,
    rejection_reason: r.rejection_reason,
    decided_by: r.decided_by,
    decided_at: r.decided_at,
    created_at: r.created_at,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
  } as MirroredRow<'card_requests'>;
}

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
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
  } as MirroredRow<'bills'>;
}
