import { randomUUID } from 'node:crypto';
import { allocateSeqs, announceChange } from '../db/change-seq.ts';
import type { Queryable } from '../db/db.ts';
import { ApiError, validationError } from '../core/errors.ts';
import { shownUserSql } from './hidden-users.ts';

/**
 * Departments and locations: mirrored rows, so every write takes a change seq from the business
 * counter and announces it (exactly like transaction coding), and a delete is a tombstone.
 *
 * Deleting one that is in use: users pointing at it are moved to "none" (each user row takes
 * its own seq, so mirrors see the change); transactions keep their coding as history. The
 * tombstone stays in the table, so the reference still resolves server-side, while new coding
 * refuses it (checkCodingRefs reads only live rows).
 */
export type OrgKind = 'departments' | 'locations';
const USER_COLUMN: Record<OrgKind, string> = { departments: 'department_id', locations: 'location_id' };
const LABEL: Record<OrgKind, string> = { departments: 'department', locations: 'location' };

const orgDocSql = `jsonb_build_object('id', r.id, 'name', r.name, 'owner_ids', to_jsonb(r.owner_ids),
  'business_id', r.business_id, 'change_seq', r.change_seq, 'updated_at', ll_iso(r.updated_at), 'deleted', r.deleted)`;

async function takeSeq(tx: Queryable, businessId: string, n = 1) {
  const seqs = await allocateSeqs(tx, businessId, n);
  if (!seqs) throw new ApiError('REQUEST_7004');
  return seqs;
}

async function assertNameFree(tx: Queryable, kind: OrgKind, businessId: string, name: string, exceptId: string | null) {
  const rows = await tx.query(
    `SELECT 1 FROM ${kind} WHERE business_id = $1 AND lower(name) = lower($2) AND NOT deleted AND id IS DISTINCT FROM $3`,
    [businessId, name, exceptId],
  );
  if (rows.length > 0) throw validationError({ name: `A ${LABEL[kind]} named '${name}' already exists.` });
}

export async function createOrg(tx: Queryable, kind: OrgKind, businessId: string, name: string): Promise<unknown> {
  const seq = await takeSeq(tx, businessId);
  await assertNameFree(tx, kind, businessId, name, null);
  const rows = await tx.query<{ doc: unknown }>(
    `INSERT INTO ${kind} AS r (id, business_id, name, change_seq) VALUES ($1, $2, $3, $4) RETURNING ${orgDocSql} AS doc`,
    [randomUUID(), businessId, name, seq.last],
  );
  await announceChange(tx, businessId, seq.last);
  return rows[0]!.doc;
}

/** Locks a live row of the caller's business (404 for anything else, including other tenants). */
async function lockOrg(tx: Queryable, kind: OrgKind, businessId: string, id: string): Promise<void> {
  const rows = await tx.query(`SELECT 1 FROM ${kind} WHERE business_id = $1 AND id = $2 AND NOT deleted FOR UPDATE`, [businessId, id]);
  if (rows.length === 0) throw new ApiError('REQUEST_7004');
}

async function updateOrg(tx: Queryable, kind: OrgKind, businessId: string, id: string, set: string, value: unknown, seq: number) {
  const rows = await tx.query<{ doc: unknown }>(
    `UPDATE ${kind} r SET ${set} = $3, change_seq = $4, updated_at = now()
      WHERE r.business_id = $1 AND r.id = $2 RETURNING ${orgDocSql} AS doc`,
    [businessId, id, value, seq],
  );
  await announceChange(tx, businessId, seq);
  return rows[0]!.doc;
}

export async function renameOrg(tx: Queryable, kind: OrgKind, businessId: string, id: string, name: string): Promise<unknown> {
  const seq = await takeSeq(tx, businessId);
  await lockOrg(tx, kind, businessId, id);
  await assertNameFree(tx, kind, businessId, name, id);
  return updateOrg(tx, kind, businessId, id, 'name', name, seq.last);
}

/** Every id names a live user of the business (a 422 on `user_ids` otherwise, never whose). */
async function assertLiveUsers(tx: Queryable, businessId: string, ids: string[]): Promise<void> {
  const found = await tx.query<{ id: string }>(
    `SELECT id::text FROM spend_users WHERE business_id = $1 AND id = ANY($2::uuid[]) AND NOT deleted AND ${shownUserSql()}`,
    [businessId, ids],
  );
  const missing = ids.filter((u) => !found.some((f) => f.id === u));
  if (missing.length > 0) throw validationError({ user_ids: 'user_ids must be users of this business' });
}

/** Owners must be live users of the same business; the list is stored de-duplicated. */
export async function setOrgOwners(tx: Queryable, kind: OrgKind, businessId: string, id: string, userIds: string[]): Promise<unknown> {
  const seq = await takeSeq(tx, businessId);
  await lockOrg(tx, kind, businessId, id);
  const unique = [...new Set(userIds)];
  await assertLiveUsers(tx, businessId, unique);
  return updateOrg(tx, kind, businessId, id, 'owner_ids', unique, seq.last);
}

export async function deleteOrg(tx: Queryable, kind: OrgKind, businessId: string, id: string): Promise<unknown> {
  const seq = await takeSeq(tx, businessId);
  await lockOrg(tx, kind, businessId, id);
  const column = USER_COLUMN[kind];
  const users = await tx.query<{ id: string }>(
    `SELECT id::text FROM spend_users WHERE business_id = $1 AND ${column} = $2 ORDER BY id FOR UPDATE`,
    [businessId, id],
  );
  let last = seq.last;
  if (users.length > 0) {
    const more = await takeSeq(tx, businessId, users.length);
    // Each user row gets its own seq (the feed pages on seq alone), in id order.
    await tx.query(
      `UPDATE spend_users u SET ${column} = NULL, change_seq = $3 + x.n - 1, updated_at = now()
         FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM unnest($2::uuid[]) AS t(id)) x
        WHERE u.business_id = $1 AND u.id = x.id`,
      [businessId, users.map((u) => u.id), more.first],
    );
    last = more.last;
  }
  const doc = await updateOrg(tx, kind, businessId, id, 'deleted', true, seq.last);
  await announceChange(tx, businessId, last);
  return doc;
}

// ---------------------------------------------------------------------------------------------
// Business entities: mirrored reference data since issue 14 (migration 024), so every write takes
// a change seq and announces it, and a delete is a tombstone the feed carries.

export type EntityFields = { name?: string | undefined; country?: string | undefined; currency?: string | undefined };
const ENTITY_SQL = `jsonb_build_object('id', e.id, 'business_id', e.business_id, 'name', e.name, 'country', e.country,
  'currency', e.currency, 'owner_ids', to_jsonb(e.owner_ids), 'created_at', ll_iso(e.created_at), 'updated_at', ll_iso(e.updated_at))`;

export async function listEntities(db: Queryable, businessId: string): Promise<unknown[]> {
  const rows = await db.query<{ doc: unknown }>(
    `SELECT ${ENTITY_SQL} AS doc FROM business_entities e WHERE e.business_id = $1 AND NOT e.deleted ORDER BY lower(e.name), e.id`,
    [businessId],
  );
  return rows.map((r) => r.doc);
}

async function assertEntityNameFree(tx: Queryable, businessId: string, name: string, exceptId: string | null) {
  const rows = await tx.query(
    'SELECT 1 FROM business_entities WHERE business_id = $1 AND lower(name) = lower($2) AND NOT deleted AND id IS DISTINCT FROM $3',
    [businessId, name, exceptId],
  );
  if (rows.length > 0) throw validationError({ name: `A business entity named '${name}' already exists.` });
}

/** Locks a live entity of the caller's business (404 for anything else, including other tenants). */
async function lockEntity(tx: Queryable, businessId: string, id: string): Promise<void> {
  const live = await tx.query('SELECT 1 FROM business_entities WHERE business_id = $1 AND id = $2 AND NOT deleted FOR UPDATE', [businessId, id]);
  if (live.length === 0) throw new ApiError('REQUEST_7004');
}

export async function createEntity(tx: Queryable, businessId: string, f: Required<EntityFields>): Promise<unknown> {
  const seq = await takeSeq(tx, businessId);
  await assertEntityNameFree(tx, businessId, f.name, null);
  const rows = await tx.query<{ doc: unknown }>(
    `INSERT INTO business_entities AS e (id, business_id, name, country, currency, change_seq) VALUES ($1, $2, $3, $4, $5, $6)
     RETURNING ${ENTITY_SQL} AS doc`,
    [randomUUID(), businessId, f.name, f.country, f.currency, seq.last],
  );
  await announceChange(tx, businessId, seq.last);
  return rows[0]!.doc;
}

export async function updateEntity(tx: Queryable, businessId: string, id: string, f: EntityFields): Promise<unknown> {
  const seq = await takeSeq(tx, businessId);
  await lockEntity(tx, businessId, id);
  if (f.name !== undefined) await assertEntityNameFree(tx, businessId, f.name, id);
  const rows = await tx.query<{ doc: unknown }>(
    `UPDATE business_entities e SET name = coalesce($3, name), country = coalesce($4, country),
            currency = coalesce($5, currency), change_seq = $6, updated_at = now()
      WHERE e.business_id = $1 AND e.id = $2 RETURNING ${ENTITY_SQL} AS doc`,
    [businessId, id, f.name ?? null, f.country ?? null, f.currency ?? null, seq.last],
  );
  await announceChange(tx, businessId, seq.last);
  return rows[0]!.doc;
}

/** Owners must be live users of the same business (as a department's); stored de-duplicated, in the order given. */
export async function setEntityOwners(tx: Queryable, businessId: string, id: string, userIds: string[]): Promise<unknown> {
  const seq = await takeSeq(tx, businessId);
  await lockEntity(tx, businessId, id);
  const unique = [...new Set(userIds)];
  await assertLiveUsers(tx, businessId, unique);
  const rows = await tx.query<{ doc: unknown }>(
    `UPDATE business_entities e SET owner_ids = $3, change_seq = $4, updated_at = now()
      WHERE e.business_id = $1 AND e.id = $2 RETURNING ${ENTITY_SQL} AS doc`,
    [businessId, id, unique, seq.last],
  );
  await announceChange(tx, businessId, seq.last);
  return rows[0]!.doc;
}

/** An entity that live users still belong to cannot go: cards are issued through it. */
export async function deleteEntity(tx: Queryable, businessId: string, id: string): Promise<void> {
  const seq = await takeSeq(tx, businessId);
  await lockEntity(tx, businessId, id);
  const users = await tx.query('SELECT 1 FROM spend_users WHERE business_id = $1 AND entity_id = $2 AND NOT deleted LIMIT 1', [businessId, id]);
  if (users.length > 0) {
    throw new ApiError('REQUEST_7001', 'This business entity still has users. Move them to another entity first.');
  }
  await tx.query(
    'UPDATE business_entities SET deleted = true, change_seq = $3, updated_at = now() WHERE business_id = $1 AND id = $2',
    [businessId, id, seq.last],
  );
  await announceChange(tx, businessId, seq.last);
}
