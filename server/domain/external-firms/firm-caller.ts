import { isFirmAdmin } from '../../../schema/roles.ts';
import type { SurfaceActor } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';

/** A firm user calling from the advisor console, read live (authentication already held the surface). */
export type FirmCaller = {
  identityId: string;
  firmId: string;
  firmUserId: string;
  role: 'EXTERNAL_FIRM_ADMIN' | 'EXTERNAL_FIRM_USER';
  isAdmin: boolean;
};

export async function firmCallerOf(db: Queryable, actor: SurfaceActor): Promise<FirmCaller> {
  if (actor.surface.kind !== 'ADVISOR_CONSOLE') throw new ApiError('SURFACE_7001');
  const [row] = await db.query<{ role: 'EXTERNAL_FIRM_ADMIN' | 'EXTERNAL_FIRM_USER' }>(
    `SELECT role FROM external_firm_users WHERE id = $1 AND firm_id = $2 AND identity_id = $3 AND status = 'ACTIVE'`,
    [actor.surface.external_firm_user_id, actor.surface.external_firm_id, actor.identityId],
  );
  if (!row) throw new ApiError('4014');
  return {
    identityId: actor.identityId,
    firmId: actor.surface.external_firm_id,
    firmUserId: actor.surface.external_firm_user_id,
    role: row.role,
    isAdmin: isFirmAdmin({ external_firm_role: row.role }),
  };
}

/** Firm administration (invites, proposals, withdrawal): EXTERNAL_FIRM_ADMIN only. */
export function assertFirmAdmin(caller: FirmCaller): void {
  if (!caller.isAdmin) throw new ApiError('FORBIDDEN_7003', 'Only firm administrators can do this.');
}
