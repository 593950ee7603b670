import type { Queryable } from '../../db/db.ts';
import type { SurfaceMembership } from './membership.ts';

/** A financing application: a user of the application (§3 financing_application_users; owned by the application server). */
export const financingApplicationMembership: SurfaceMembership<'FINANCING_APPLICATION'> = {
  holds: async () => false,
  choices: async () => [],
};

/** §3 `financing_application_users` of an identity: each application it is a user of. */
export async function applicationUsersOf(
  _db: Queryable,
  _identityId: string,
): Promise<{ financing_application_id: string; business_name: string | null; created_at: string | null }[]> {
  return [];
}
