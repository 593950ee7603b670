import type { MirroredCollection } from '../../../schema/collections.ts';
import type { EntityEvent, EntityHistory, EventEntityType } from '../../../schema/event-history.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { COLLECTIONS } from '../collections.ts';
import { viewerFor } from '../visibility.ts';

/**
 * Issue 32, event history per entity: the changes migration 077's triggers recorded, newest first,
 * for an entity the caller may see (the entity's own collection visibility rule, as the list and
 * the feed use it; another business's id, or an entity the caller may not see, is 404).
 */
const COLLECTION_OF: Record<EventEntityType, MirroredCollection> = {
  transaction: 'transactions', reimbursement: 'reimbursements', bill: 'bills', card: 'cards', vendor: 'vendors', user: 'users',
};

/** The entity's currency, for amount fields. */
const CURRENCY_OF: Record<EventEntityType, string | null> = {
  transaction: 'r.currency', reimbursement: 'r.currency', bill: 'r.currency', card: 'r.limit_currency', vendor: null, user: null,
};

/** Fields whose values are ids, and the names that read them (SQL over `x`, a row of the table). */
const NAMED_IDS: Record<string, { table: string; name: string }> = {
  gl_account_id: { table: 'gl_accounts', name: `x.code || ' ' || x.name` },
  default_gl_account_id: { table: 'gl_accounts', name: `x.code || ' ' || x.name` },
  department_id: { table: 'departments', name: 'x.name' },
  default_department_id: { table: 'departments', name: 'x.name' },
  location_id: { table: 'locations', name: 'x.name' },
  manager_id: { table: 'spend_users', name: `trim(x.first_name || ' ' || x.last_name)` },
  vendor_id: { table: 'vendors', name: 'x.name' },
  entity_id: { table: 'business_entities', name: 'x.name' },
};

type EventRow = {
  id: number; field: string; old_value: unknown; new_value: unknown; user_id: string | null; device_id: string | null;
  source: { kind: 'api_client' | 'scim' | 'hris'; id: string; label: string } | null; at: string; user_name: string | null;
};

/** The entity's currency when the caller may see it, else 404. */
async function visibleEntity(db: Queryable, user: ActingUser, type: EventEntityType, id: string): Promise<{ currency: string | null }> {
  const c = COLLECTIONS[COLLECTION_OF[type]];
  const viewer = await viewerFor(db, user, [c.visibility]);
  const params: unknown[] = [user.business_id, id];
  const where = c.visibility.where(viewer, 'r', params);
  const currency = CURRENCY_OF[type];
  const rows = await db.query<{ currency: string | null }>(
    `SELECT ${currency ?? 'NULL::text'} AS currency FROM ${c.table} r WHERE r.business_id = $1 AND r.id = $2 AND NOT r.deleted${where}`,
    params,
  );
  if (!rows[0]) throw new ApiError('REQUEST_7004', `No such ${type}.`);
  return { currency: rows[0].currency };
}

export async function entityHistory(
  db: Queryable, user: ActingUser, type: EventEntityType, id: string, page: { page_size: number; start?: string },
): Promise<EntityHistory> {
  const { currency } = await visibleEntity(db, user, type, id);
  const rows = await db.query<EventRow>(
    `SELECT e.id, e.field, e.old_value, e.new_value, e.user_id::text, e.device_id, e.source, ll_iso(e.changed_at) AS at,
            trim(u.first_name || ' ' || u.last_name) AS user_name
       FROM entity_events e LEFT JOIN spend_users u ON u.id = e.user_id
      WHERE e.entity_type = $1 AND e.entity_id = $2 AND e.business_id = $3 AND ($4::bigint IS NULL OR e.id < $4::bigint)
      ORDER BY e.id DESC LIMIT $5`,
    [type, id, user.business_id, page.start ?? null, page.page_size + 1],
  );
  const more = rows.length > page.page_size;
  const shown = rows.slice(0, page.page_size);
  const names = await idNames(db, user.business_id, shown);
  const data: EntityEvent[] = shown.map((r) => ({
    id: String(r.id),
    field: r.field,
    from: r.old_value,
    to: r.new_value,
    from_label: labelOf(names, r.field, r.old_value),
    to_label: labelOf(names, r.field, r.new_value),
    actor: actorOf(r),
    device_id: r.device_id,
    at: r.at,
  }));
  return { data, page: { next: more ? String(shown[shown.length - 1]!.id) : null }, currency };
}

function actorOf(r: EventRow): EntityEvent['actor'] {
  if (r.source) {
    const label = r.source.kind === 'api_client' && r.user_name ? `${r.source.label} (for ${r.user_name})` : r.source.label;
    return { kind: r.source.kind, user_id: r.user_id, label };
  }
  if (r.user_id) return { kind: 'user', user_id: r.user_id, label: r.user_name ?? 'A former user' };
  return { kind: 'system', user_id: null, label: 'System' };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Names for every id value on the page, one query per table named. */
async function idNames(db: Queryable, businessId: string, rows: EventRow[]): Promise<Map<string, string>> {
  const wanted = new Map<string, Set<string>>();
  for (const r of rows) {
    const named = NAMED_IDS[r.field];
    if (!named) continue;
    for (const v of [r.old_value, r.new_value]) {
      if (typeof v === 'string' && UUID.test(v)) {
        const set = wanted.get(named.table) ?? new Set<string>();
        set.add(v);
        wanted.set(named.table, set);
      }
    }
  }
  const names = new Map<string, string>();
  for (const [table, ids] of wanted) {
    const name = Object.values(NAMED_IDS).find((n) => n.table === table)!.name;
    const found = await db.query<{ id: string; name: string }>(
      `SELECT x.id::text, ${name} AS name FROM ${table} x WHERE x.business_id = $1 AND x.id = ANY($2::uuid[])`,
      [businessId, [...ids]],
    );
    for (const f of found) names.set(`${table}:${f.id}`, f.name);
  }
  return names;
}

function labelOf(names: Map<string, string>, field: string, value: unknown): string | null {
  const named = NAMED_IDS[field];
  if (!named || typeof value !== 'string') return null;
  return names.get(`${named.table}:${value}`) ?? null;
}
