// Generated from the entity's column map (schema/entities/columns.ts) by workers/collections/shapers.ts.
// Do not edit: change the entity's columns, then run
//   npx vitest run --project unit workers/collections/shapers.test.ts -u
import type { RowOf } from '../../../schema/collections.ts';
import type { EngineRowFor, ShaperIn } from '../shaper-types.ts';
import type { MirroredRow } from '../../../schema/mirror.ts';

/** notifications: the wire row's own fields. */
export function serverNotifications(r: ShaperIn<'notifications'>): RowOf<'notifications'> {
  return {
    id: r.id,
    owner_id: r.owner_id,
    kind: r.kind,
    title: r.title,
    body: r.body,
    subject_type: r.subject_type,
    subject_id: r.subject_id,
    path: r.path,
    actor_id: r.actor_id,
    read_at: r.read_at,
    created_at: r.created_at,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
    deleted: false,
  } as RowOf<'notifications'>;
}

/** notifications: the engine's row (shown fields, mirror-only fields, the server row underneath). */
export function engineNotifications(r: ShaperIn<'notifications'>, server: RowOf<'notifications'> | undefined): EngineRowFor<'notifications'> {
  return {
    id: r.id,
    owner_id: r.owner_id,
    kind: r.kind,
    title: r.title,
    body: r.body,
    subject_type: r.subject_type,
    subject_id: r.subject_id,
    path: r.path,
    actor_id: r.actor_id,
    read_at: r.read_at,
    created_at: r.created_at,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
    deleted: false,
    server,
  } as EngineRowFor<'notifications'>;
}

/** notifications: the row as the mirror stores it. */
export function storedNotifications(r: ShaperIn<'notifications'>): MirroredRow<'notifications'> {
  return {
    id: r.id,
    owner_id: r.owner_id,
    kind: r.kind,
    title: r.title,
    body: r.body,
    subject_type: r.subject_type,
    subject_id: r.subject_id,
    path: r.path,
    actor_id: r.actor_id,
    read_at: r.read_at,
    created_at: r.created_at,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
  } as MirroredRow<'notifications'>;
}
