// Generated from the entity's column map (schema/entities/columns.ts) by workers/collections/shapers.ts.
// Do not edit: change the entity's columns, then run
//   npx vitest run --project unit workers/collections/shapers.test.ts -u
import type { RowOf } from '../../../schema/collections.ts';
import type { EngineRowFor, ShaperIn } from '../shaper-types.ts';
import type { MirroredRow } from '../../../schema/mirror.ts';

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
