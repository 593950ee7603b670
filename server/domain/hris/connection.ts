import { randomBytes } from 'node:crypto';
import type { HrisConnection, HrisConnectionBody } from '../../../schema/api/calls-hris.ts';
import { hrisConnectionBodySchema } from '../../../schema/api/calls-hris.ts';
import type { Queryable } from '../../db/db.ts';
import { ApiError } from '../../core/errors.ts';

/**
 * The one HRIS connection of a business (docs/design/issue-32-hris.md). Saving it again changes
 * its settings and makes the saver the person automatic applies act for; its drop folder's name
 * (random, so no business can guess another's) is kept for the connection's life. Disconnecting
 * deletes only the connection: people, departments and the HRIS links of people stay as they are,
 * and past imports stay readable, so connecting again later matches the same people.
 */
export type ConnectionRow = {
  business_id: string; provider: string; mode: 'upload' | 'drop'; invite_new_hires: boolean; suspend_leavers: boolean;
  auto_apply: boolean; default_role: string; drop_token: string; connected_by: string; connected_by_name: string; updated_at: string;
};

const SELECT = `SELECT c.business_id::text, c.provider, c.mode, c.invite_new_hires, c.suspend_leavers, c.auto_apply, c.default_role,
  c.drop_token, c.connected_by::text, trim(u.first_name || ' ' || u.last_name) AS connected_by_name, ll_iso(c.updated_at) AS updated_at
  FROM hris_connections c JOIN spend_users u ON u.id = c.connected_by`;

export async function loadConnection(db: Queryable, businessId: string, lock = false): Promise<ConnectionRow | null> {
  const rows = await db.query<ConnectionRow>(`${SELECT} WHERE c.business_id = $1${lock ? ' FOR UPDATE OF c' : ''}`, [businessId]);
  return rows[0] ?? null;
}

export function connectionDto(row: ConnectionRow, dropWatching: boolean): HrisConnection {
  return {
    provider: row.provider as HrisConnection['provider'], mode: row.mode, invite_new_hires: row.invite_new_hires,
    suspend_leavers: row.suspend_leavers, auto_apply: row.auto_apply, default_role: row.default_role as HrisConnection['default_role'],
    drop_folder: row.mode === 'drop' ? row.drop_token : null, drop_watching: dropWatching,
    connected_by: { id: row.connected_by, name: row.connected_by_name }, updated_at: row.updated_at,
  };
}

export async function saveConnection(tx: Queryable, businessId: string, userId: string, asked: HrisConnectionBody): Promise<ConnectionRow> {
  const body = hrisConnectionBodySchema.parse(asked);
  // Automatic applies exist for dropped files only: an upload is always reviewed by the person who made it.
  const autoApply = body.mode === 'drop' && body.auto_apply;
  await tx.query(
    `INSERT INTO hris_connections (business_id, provider, mode, invite_new_hires, suspend_leavers, auto_apply, default_role, drop_token, connected_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (business_id) DO UPDATE SET provider = EXCLUDED.provider, mode = EXCLUDED.mode, invite_new_hires = EXCLUDED.invite_new_hires,
       suspend_leavers = EXCLUDED.suspend_leavers, auto_apply = EXCLUDED.auto_apply, default_role = EXCLUDED.default_role,
       connected_by = EXCLUDED.connected_by, updated_at = now()`,
    [businessId, body.provider, body.mode, body.invite_new_hires, body.suspend_leavers, autoApply, body.default_role,
      randomBytes(16).toString('hex'), userId],
  );
  return (await loadConnection(tx, businessId))!;
}

export async function deleteConnection(tx: Queryable, businessId: string): Promise<void> {
  const rows = await tx.query('DELETE FROM hris_connections WHERE business_id = $1 RETURNING 1', [businessId]);
  if (rows.length === 0) throw new ApiError('REQUEST_7004', 'No HRIS is connected.');
}

/** The connection an import needs; 422 when there is none (it was disconnected). */
export async function requireConnection(db: Queryable, businessId: string, lock = false): Promise<ConnectionRow> {
  const conn = await loadConnection(db, businessId, lock);
  if (!conn) throw new ApiError('REQUEST_7001', 'Connect an HRIS first (Settings → Integrations → HRIS).');
  return conn;
}
