// Generated from the entity's column map (schema/entities/columns.ts) by workers/collections/shapers.ts.
// Do not edit: change the entity's columns, then run
//   npx vitest run --project unit workers/collections/shapers.test.ts -u
import type { RowOf } from '../../../schema/collections.ts';
import type { EngineRowFor, ShaperIn } from '../shaper-types.ts';
import { occurredDesc } from '../../../schema/mirror.ts';
import type { MirroredRow } from '../../../schema/mirror.ts';

/** One shared empty list for absent list fields (shapers never mutate rows). */
const NO_ITEMS: never[] = [];

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
