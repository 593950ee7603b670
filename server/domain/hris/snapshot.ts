import type { Queryable } from '../../db/db.ts';
import { shownUserSql } from '../hidden-users.ts';
import type { Named, Snapshot, SnapshotPerson } from './plan.ts';

/** The people, departments and locations of a business as an import compares them (plan.ts). */
export async function loadSnapshot(db: Queryable, businessId: string): Promise<Snapshot> {
  const people = await db.query<SnapshotPerson>(
    `SELECT u.id::text, u.email, u.first_name, u.last_name, u.role, u.status, u.manager_id::text, u.department_id::text,
            u.location_id::text, u.deleted, NOT (${shownUserSql('u')}) AS hidden, h.employee_id, h.title
       FROM spend_users u LEFT JOIN hris_people h ON h.user_id = u.id
      WHERE u.business_id = $1 ORDER BY u.id`,
    [businessId],
  );
  const named = (table: 'departments' | 'locations') =>
    db.query<Named>(`SELECT id::text, name FROM ${table} WHERE business_id = $1 AND NOT deleted ORDER BY name, id`, [businessId]);
  return { people, departments: await named('departments'), locations: await named('locations') };
}
