// Generated from the entity's column map (schema/entities/columns.ts) by workers/collections/shapers.ts.
// Do not edit: change the entity's columns, then run
//   npx vitest run --project unit workers/collections/shapers.test.ts -u
import type { RowOf } from '../../../schema/collections.ts';
import type { EngineRowFor, ShaperIn } from '../shaper-types.ts';
import { occurredDesc } from '../../../schema/mirror.ts';
import type { MirroredRow } from '../../../schema/mirror.ts';

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
    on_behalf_of: r.on_behalf_of,
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
    on_behalf_of: r.on_behalf_of,
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
    on_behalf_of: r.on_behalf_of,
    decided_at: r.decided_at,
    created_at: r.created_at,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
    created_desc: occurredDesc(r.created_at as string),
  } as MirroredRow<'approvals'>;
}
