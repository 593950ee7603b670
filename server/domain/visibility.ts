import { createHash } from 'node:crypto';
import { canSeeAllTransactions } from '../../schema/roles.ts';
import type { Queryable } from '../db/db.ts';
import type { ActingUser } from '../http/actor.ts';

/**
 * Whose cards and transactions a user may see (§6): business-wide roles see everything; a
 * manager sees their own and every direct or indirect report's; anyone else only their own.
 * `null` means the whole business.
 */
export type Visibility = { all: true } | { all: false; userIds: string[] };

export async function visibilityOf(db: Queryable, user: ActingUser): Promise<Visibility> {
  if (canSeeAllTransactions(user)) return { all: true };
  if (!user.is_manager) return { all: false, userIds: [user.id] };
  // UNION (not UNION ALL) stops a reporting cycle from recursing forever.
  const rows = await db.query<{ id: string }>(
    `WITH RECURSIVE team(id) AS (
       SELECT $1::uuid
       UNION
       SELECT u.id FROM spend_users u JOIN team t ON u.manager_id = t.id
        WHERE u.business_id = $2 AND NOT u.deleted
     ) SELECT id FROM team`,
    [user.id, user.business_id],
  );
  return { all: false, userIds: rows.map((r) => r.id) };
}

/**
 * A SQL condition restricting rows of alias `alias` (with a user_id column) to the visible
 * users; pushes the id list onto `params`. Empty string when everything is visible.
 */
export function visibleUsersClause(vis: Visibility, alias: string, params: unknown[]): string {
  if (vis.all) return '';
  params.push(vis.userIds);
  return ` AND ${alias}.user_id = ANY($${params.length}::uuid[])`;
}

/**
 * Changes whenever what the user may see changes (role, manager flag, team), so a client whose
 * mirror was filtered under the old rules knows to resync from zero.
 */
export function visibilityEpoch(user: ActingUser, vis: Visibility): string {
  const basis = vis.all ? `all:${user.role}` : `users:${user.role}:${user.is_manager}:${[...vis.userIds].sort().join(',')}`;
  return createHash('sha256').update(basis).digest('base64url').slice(0, 16);
}
