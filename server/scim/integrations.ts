import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { ScimIntegration } from '../../schema/api/calls-scim.ts';
import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';

/**
 * SCIM integrations: one bearer token each, shown once, stored as its sha256 (32 random bytes need
 * no slow hash: nothing to guess). Revoking stamps `revoked_at`; the bearer check reads it on
 * every request, so a revoked token stops at once.
 */

/** The token's prefix makes a leaked one recognisable to secret scanners; the rest is 32 random bytes. */
const TOKEN_PREFIX = 'llscim_';
export const hashScimToken = (token: string) => createHash('sha256').update(token).digest('hex');

type Row = {
  id: string; name: string; created_at: Date | string; last_used_at: Date | string | null; token_last4: string;
  creator_id: string | null; creator_name: string | null;
};

const iso = (d: Date | string) => new Date(d).toISOString();

const toWire = (r: Row): ScimIntegration => ({
  id: r.id,
  name: r.name,
  created_at: iso(r.created_at),
  created_by: r.creator_id ? { user_id: r.creator_id, name: r.creator_name ?? '' } : null,
  last_used_at: r.last_used_at ? iso(r.last_used_at) : null,
  token_last_four: r.token_last4,
});

const SELECT = `SELECT i.id::text, i.name, i.created_at, i.last_used_at, i.token_last4, u.id::text AS creator_id,
                       trim(u.first_name || ' ' || u.last_name) AS creator_name
                  FROM scim_integrations i LEFT JOIN spend_users u ON u.id = i.created_by`;

/** The live integrations, oldest first. */
export async function listIntegrations(db: Queryable, businessId: string): Promise<ScimIntegration[]> {
  const rows = await db.query<Row>(`${SELECT} WHERE i.business_id = $1 AND i.revoked_at IS NULL ORDER BY i.created_at, i.id`, [businessId]);
  return rows.map(toWire);
}

async function findLive(db: Queryable, businessId: string, id: string): Promise<ScimIntegration> {
  const rows = await db.query<Row>(
    `${SELECT} WHERE i.business_id = $1 AND i.id = $2 AND i.revoked_at IS NULL`, [businessId, id],
  );
  if (!rows[0]) throw new ApiError('REQUEST_7004', 'This SCIM integration was not found.');
  return toWire(rows[0]);
}

export async function createIntegration(
  db: Queryable, businessId: string, createdBy: string, name: string,
): Promise<{ integration: ScimIntegration; token: string }> {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const id = randomUUID();
  await db.query(
    'INSERT INTO scim_integrations (id, business_id, name, token_hash, token_last4, created_by) VALUES ($1, $2, $3, $4, $5, $6)',
    [id, businessId, name, hashScimToken(token), token.slice(-4), createdBy],
  );
  return { integration: await findLive(db, businessId, id), token };
}

export async function renameIntegration(db: Queryable, businessId: string, id: string, name: string): Promise<ScimIntegration> {
  const rows = await db.query(
    'UPDATE scim_integrations SET name = $3 WHERE business_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING 1', [businessId, id, name],
  );
  if (rows.length === 0) throw new ApiError('REQUEST_7004', 'This SCIM integration was not found.');
  return findLive(db, businessId, id);
}

/** Revokes: a conditional update, so of two revocations at once exactly one answers, the other 404. */
export async function revokeIntegration(db: Queryable, businessId: string, id: string): Promise<void> {
  const rows = await db.query(
    'UPDATE scim_integrations SET revoked_at = now() WHERE business_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING 1', [businessId, id],
  );
  if (rows.length === 0) throw new ApiError('REQUEST_7004', 'This SCIM integration was not found.');
}

/** The integration a bearer token names (live only), or null. */
export type ScimCaller = { integrationId: string; businessId: string; name: string; createdBy: string };

export async function integrationOfToken(db: Queryable, token: string): Promise<ScimCaller | null> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return null;
  const rows = await db.query<{ id: string; business_id: string; name: string; created_by: string }>(
    `SELECT id::text, business_id::text, name, created_by::text FROM scim_integrations WHERE token_hash = $1 AND revoked_at IS NULL`,
    [hashScimToken(token)],
  );
  const r = rows[0];
  return r ? { integrationId: r.id, businessId: r.business_id, name: r.name, createdBy: r.created_by } : null;
}

/** Records use; at most once a minute per integration, so a busy sync does not write on every read. */
export async function touchIntegration(db: Queryable, id: string): Promise<void> {
  await db.query(
    `UPDATE scim_integrations SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`, [id],
  );
}
