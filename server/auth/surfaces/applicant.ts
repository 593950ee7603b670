import { financingApplicationLabel } from '../../../schema/identity-rules.ts';
import type { Queryable } from '../../db/db.ts';
import type { SurfaceMembership } from './membership.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A financing application: a user of the application (§3 financing_application_users; migration
 * 071). Read live on every request, so removing the row ends the application's tokens at once.
 * A withdrawn application is no longer held.
 */
export const financingApplicationMembership: SurfaceMembership<'FINANCING_APPLICATION'> = {
  holds: async (db, identityId, claim) => {
    if (!UUID.test(claim.financing_application_id)) return false;
    const rows = await db.query(
      `SELECT 1 FROM financing_application_users u JOIN financing_applications a ON a.id = u.financing_application_id
        WHERE u.financing_application_id = $1 AND u.identity_id = $2 AND a.status <> 'WITHDRAWN'`,
      [claim.financing_application_id, identityId],
    );
    return rows.length > 0;
  },
  choices: async (db, identityId) =>
    (await applicationUsersOf(db, identityId)).map((app) => ({
      target: { kind: 'FINANCING_APPLICATION' as const, financing_application_id: app.financing_application_id },
      label: financingApplicationLabel(app),
      detail: 'Applicant',
    })),
};

/** §3 `financing_application_users` of an identity: each application it is a user of (oldest first, withdrawn left out). */
export async function applicationUsersOf(
  db: Queryable,
  identityId: string,
): Promise<{ financing_application_id: string; business_name: string | null; created_at: string | null }[]> {
  return db.query(
    `SELECT a.id::text AS financing_application_id, a.business_name, ll_iso(a.created_at) AS created_at
       FROM financing_application_users u JOIN financing_applications a ON a.id = u.financing_application_id
      WHERE u.identity_id = $1 AND a.status <> 'WITHDRAWN'
      ORDER BY a.created_at, a.id`,
    [identityId],
  );
}
