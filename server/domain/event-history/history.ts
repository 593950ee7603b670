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

/**
 * An entity made before migration 080 recorded creations: its creation read from its own row, as
 * its first event, where the row says when and who (a card charge arrives from the card network:
 * the system; a claim is its claimant's; a bill names its creator). Cards, vendors and people keep
 * no creator, so theirs is not invented.
 */
const CREATION_OF: Record<EventEntityType, { at: string; user: string } | null> = {
  transaction: { at: 'r.occurred_at', user: 'NULL::uuid' },
  reimbursement: { at: 'r.created_at', user: 'r.user_id' },
  bill: { at: 'r.created_at', user: 'r.created_by' },
  card: null, vendor: null, user: null,
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
  device_name: string | null;
};

type Entity = { currency: string | null; created: EventRow | null };

/** The entity's currency, and its creation read from the row (see CREATION_OF), when the caller may see it; else 404. */
async function visibleEntity(db: Queryable, user: ActingUser, type: EventEntityType, id: string): Promise<Entity> {
  const c = COLLECTIONS[COLLECTION_OF[type]];
  const viewer = await viewerFor(db, user, [c.visibility]);
  const params: unknown[] = [user.business_id, id];
  const where = c.visibility.where(viewer, 'r', params);
  const currency = CURRENCY_OF[type];
  const creation = CREATION_OF[type];
  const rows = await db.query<{ currency: string | null; created_at: string | null; creator: string | null; creator_name: string | null }>(
    `SELECT ${currency ?? 'NULL::text'} AS currency, ${creation ? `ll_iso(${creation.at})` : 'NULL::text'} AS created_at,
            u.id::text AS creator, trim(u.first_name || ' ' || u.last_name) AS creator_name
       FROM ${c.table} r LEFT JOIN spend_users u ON u.id = ${creation?.user ?? 'NULL::uuid'}
      WHERE r.business_id = $1 AND r.id = $2 AND NOT r.deleted${where}`,
    params,
  );
  const row = rows[0];
  if (!row) throw new ApiError('REQUEST_7004', `No such ${type}.`);
  const created: EventRow | null = row.created_at
    ? { id: 0, field: 'created', old_value: null, new_value: null, user_id: row.creator, device_id: null, source: null, at: row.created_at, user_name: row.creator_name, device_name: null }
    : null;
  return { currency: row.currency, created };
}

export async function entityHistory(
  db: Queryable, user: ActingUser, type: EventEntityType, id: string, page: { page_size: number; start?: string },
): Promise<EntityHistory> {
  const entity = await visibleEntity(db, user, type, id);
  const rows = await db.query<EventRow>(
    `SELECT e.id, e.field, e.old_value, e.new_value, e.user_id::text, e.device_id, e.source, ll_iso(e.changed_at) AS at,
            trim(u.first_name || ' ' || u.last_name) AS user_name, d.name AS device_name
       FROM entity_events e LEFT JOIN spend_users u ON u.id = e.user_id
       LEFT JOIN devices d ON d.business_id = e.business_id AND d.id = e.device_id
      WHERE e.entity_type = $1 AND e.entity_id = $2 AND e.business_id = $3 AND ($4::bigint IS NULL OR e.id < $4::bigint)
      ORDER BY e.id DESC LIMIT $5`,
    [type, id, user.business_id, page.start ?? null, page.page_size + 1],
  );
  let more = rows.length > page.page_size;
  const shown = rows.slice(0, page.page_size);
  // The oldest page of an entity whose creation was not recorded ends with the one its row tells.
  const oldest = shown[shown.length - 1];
  if (!more && entity.created && oldest?.field !== 'created' && !(await hasCreation(db, type, id, user.business_id))) {
    if (shown.length < page.page_size) shown.push(entity.created);
    else more = true;
  }
  const names = await idNames(db, user.business_id, shown);
  const data: EntityEvent[] = shown.map((r) => ({
    id: r.id === 0 ? `created-${id}` : String(r.id),
    field: r.field,
    from: r.old_value,
    to: r.new_value,
    from_label: labelOf(names, r.field, r.old_value),
    to_label: labelOf(names, r.field, r.new_value),
    actor: actorOf(r),
    device_id: r.device_id,
    device_name: r.device_name,
    at: r.at,
  }));
  return { data, page: { next: more ? String(shown[shown.length - 1]!.id) : null }, currency: entity.currency };
}

/** Whether the entity's creation was recorded (an entity made after migration 080). */
async function hasCreation(db: Queryable, type: EventEntityType, id: string, businessId: string): Promise<boolean> {
  const rows = await db.query<{ one: number }>(
    "SELECT 1 AS one FROM entity_events WHERE entity_type = $1 AND entity_id = $2 AND business_id = $3 AND field = 'created' LIMIT 1",
    [type, id, businessId],
  );
  return rows.length > 0;
}

function actorOf(r: EventRow): EntityEvent['actor'] {
  if (r.source) {
    // A developer application's label is "Acme Sync (app)": it reads "Acme Sync (app, for Dana Lee)".
    const forUser = (label: string, name: string) => (label.endsWith(' (app)') ? `${label.slice(0, -1)}, for ${name})` : `${label} (for ${name})`);
    const label = r.source.kind === 'api_client' && r.user_name ? forUser(r.source.label, r.user_name) : r.source.label;
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
