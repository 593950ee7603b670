import { canManageApiClients } from '../../../schema/roles.ts';
import type { Queryable } from '../../db/db.ts';

/**
 * Issue 32: a developer application's grant as read on every use (an API request with its access
 * token, a refresh): the app, the business that allowed it and the person it acts as. The grant
 * dies at once when it is revoked (Disconnect), the app is deleted, or the person is gone,
 * suspended or no longer an admin or developer admin (checked here, at use time: no job needed).
 */
export type LiveGrantRow = {
  grant_id: string; app_id: string; app_name: string; business_id: string; revoked: boolean; app_deleted: boolean;
  /** The grant's scopes the app still registers (an app narrowed later narrows its grants). */
  scopes: string[]; rate_limit_per_minute: number;
  user_id: string; identity_id: string; role: string; is_manager: boolean; user_permissions: string[]; manager_id: string | null;
  user_deleted: boolean; user_status: string; user_name: string; business_status: string;
};

const GRANT_SQL = `
  SELECT g.id AS grant_id, c.id AS app_id, c.name AS app_name, g.business_id, (g.revoked_at IS NOT NULL) AS revoked,
         (c.deleted_at IS NOT NULL) AS app_deleted,
         ARRAY(SELECT s FROM unnest(g.scopes) s WHERE s = ANY (c.scopes)) AS scopes, c.rate_limit_per_minute,
         u.id AS user_id, u.identity_id, u.role, u.is_manager, u.user_permissions, u.manager_id,
         u.deleted AS user_deleted, u.status AS user_status, trim(u.first_name || ' ' || u.last_name) AS user_name,
         b.status AS business_status
    FROM oauth_grants g
    JOIN api_clients c ON c.id = g.app_id AND c.kind = 'developer_app'
    JOIN spend_users u ON u.id = g.user_id AND u.business_id = g.business_id
    JOIN businesses b ON b.id = g.business_id
   WHERE g.id = $1`;

export async function liveGrant(db: Queryable, grantId: string): Promise<LiveGrantRow | null> {
  const [row] = await db.query<LiveGrantRow>(GRANT_SQL, [grantId]);
  return row ?? null;
}

/** Why the grant may not act now, in words for the app's developer; null when it may. */
export function grantRefusal(row: LiveGrantRow): string | null {
  if (row.revoked) return 'This connection was disconnected by the business.';
  if (row.app_deleted) return 'This application was deleted.';
  if (row.user_deleted || row.user_status !== 'ACTIVE' || !canManageApiClients(row)) {
    return 'The person who connected this application no longer has access: an admin must connect it again.';
  }
  return null;
}

/** Marks the grant used (at most once a minute: Connected apps shows "last used", not a counter). */
export async function touchGrant(db: Queryable, grantId: string, nowMs: number): Promise<void> {
  await db.query(
    `UPDATE oauth_grants SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - interval '1 minute')`,
    [grantId, new Date(nowMs)],
  );
}

/** Revokes the grant (Disconnect, a reused code or refresh token, the app deleted): its tokens stop at once. */
export async function revokeGrants(db: Queryable, where: { grantId: string } | { appId: string }, nowMs: number): Promise<void> {
  const at = new Date(nowMs);
  if ('grantId' in where) {
    await db.query('UPDATE oauth_grants SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [where.grantId, at]);
  } else {
    await db.query('UPDATE oauth_grants SET revoked_at = $2 WHERE app_id = $1 AND revoked_at IS NULL', [where.appId, at]);
  }
}
