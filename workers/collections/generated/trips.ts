// Generated from the entity's column map (schema/entities/columns.ts) by workers/collections/shapers.ts.
// Do not edit: change the entity's columns, then run
//   npx vitest run --project unit workers/collections/shapers.test.ts -u
import type { RowOf } from '../../../schema/collections.ts';
import type { EngineRowFor, ShaperIn } from '../shaper-types.ts';
import type { MirroredRow } from '../../../schema/mirror.ts';

/** One shared empty list for absent list fields (shapers never mutate rows). */
const NO_ITEMS: never[] = [];

/** trips: the wire row's own fields. */
export function serverTrips(r: ShaperIn<'trips'>): RowOf<'trips'> {
  return {
    id: r.id,
    user_id: r.user_id,
    name: r.name,
    destination: r.destination,
    destination_name: r.destination_name,
    start_date: r.start_date,
    end_date: r.end_date,
    purpose: r.purpose,
    status: r.status,
    budget: r.budget,
    total: r.total,
    totals: r.totals ?? NO_ITEMS,
    bookings: r.bookings ?? NO_ITEMS,
    transaction_ids: r.transaction_ids ?? NO_ITEMS,
    reimbursement_ids: r.reimbursement_ids ?? NO_ITEMS,
    card_id: r.card_id,
    canceled_at: r.canceled_at,
    created_at: r.created_at,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
    deleted: false,
  } as RowOf<'trips'>;
}

/** trips: the engine's row (shown fields, mirror-only fields, the server row underneath). */
export function engineTrips(r: ShaperIn<'trips'>, server: RowOf<'trips'> | undefined): EngineRowFor<'trips'> {
  return {
    id: r.id,
    user_id: r.user_id,
    name: r.name,
    destination: r.destination,
    destination_name: r.destination_name,
    start_date: r.start_date,
    end_date: r.end_date,
    purpose: r.purpose,
    status: r.status,
    budget: r.budget,
    total: r.total,
    totals: r.totals ?? NO_ITEMS,
    bookings: r.bookings ?? NO_ITEMS,
    transaction_ids: r.transaction_ids ?? NO_ITEMS,
    reimbursement_ids: r.reimbursement_ids ?? NO_ITEMS,
    card_id: r.card_id,
    canceled_at: r.canceled_at,
    created_at: r.created_at,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
    deleted: false,
    server,
  } as EngineRowFor<'trips'>;
}

/** trips: the row as the mirror stores it. */
export function storedTrips(r: ShaperIn<'trips'>): MirroredRow<'trips'> {
  return {
    id: r.id,
    user_id: r.user_id,
    name: r.name,
    destination: r.destination,
    destination_name: r.destination_name,
    start_date: r.start_date,
    end_date: r.end_date,
    purpose: r.purpose,
    status: r.status,
    budget: r.budget,
    total: r.total,
    totals: r.totals ?? NO_ITEMS,
    bookings: r.bookings ?? NO_ITEMS,
    transaction_ids: r.transaction_ids ?? NO_ITEMS,
    reimbursement_ids: r.reimbursement_ids ?? NO_ITEMS,
    card_id: r.card_id,
    canceled_at: r.canceled_at,
    created_at: r.created_at,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
  } as MirroredRow<'trips'>;
}
