// Generated from the entity's column map (schema/entities/columns.ts) by workers/collections/shapers.ts.
// Do not edit: change the entity's columns, then run
//   npx vitest run --project unit workers/collections/shapers.test.ts -u
import type { RowOf } from '../../../schema/collections.ts';
import type { EngineRowFor, ShaperIn } from '../shaper-types.ts';
import type { MirroredRow } from '../../../schema/mirror.ts';

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
    spend_request_id: r.spend_request_id,
    spend_allocation_id: r.spend_allocation_id,
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
    spend_request_id: r.spend_request_id,
    spend_allocation_id: r.spend_allocation_id,
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
    spend_request_id: r.spend_request_id,
    spend_allocation_id: r.spend_allocation_id,
    created_at: r.created_at,
    business_id: r.business_id,
    change_seq: r.change_seq,
    updated_at: r.updated_at,
  } as MirroredRow<'cards'>;
}
