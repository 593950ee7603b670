// Generated from the entity's column map (schema/entities/columns.ts) by workers/collections/shapers.ts.
// Do not edit: change the entity's columns, then run
//   npx vitest run --project unit workers/collections/shapers.test.ts -u
import type { RowOf } from '../../../schema/collections.ts';
import type { EngineRowFor, ShaperIn } from '../shaper-types.ts';
import { occurredDesc } from '../../../schema/mirror.ts';
import type { MirroredRow } from '../../../schema/mirror.ts';

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
    coding_suggestion_dismissed_at: r.coding_suggestion_dismissed_at ?? null,
    attendee_split: r.attendee_split ?? null,
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
    coding_suggestion_dismissed_at: r.coding_suggestion_dismissed_at ?? null,
    attendee_split: r.attendee_split ?? null,
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
    coding_suggestion_dismissed_at: r.coding_suggestion_dismissed_at ?? null,
    attendee_split: r.attendee_split ?? null,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
    occurred_desc: occurredDesc(r.occurred_at as string),
  } as MirroredRow<'transactions'>;
}
