import type { Queryable } from '../db/db.ts';
import { shownUserSql } from '../domain/hidden-users.ts';
import { notFound } from './errors.ts';
import { ENTERPRISE_SCHEMA, USER_SCHEMA } from './schemas.ts';

/**
 * Users as SCIM sees them: the business's live spend users, never a hidden one (advisors, vendor
 * admins: `shownUserSql`). userName is the email; active is "not suspended" (an invited person
 * is active: nobody stopped them); the department is both the enterprise `department` and the
 * one group; `meta.version` is the row's change seq, which every write of the row moves.
 */

export type UserRow = {
  id: string; email: string; first_name: string; last_name: string; status: string; change_seq: number | string;
  updated_at: Date | string; manager_id: string | null; manager_name: string | null; department_id: string | null;
  department_name: string | null; external_id: string | null; scim_created_at: Date | string | null;
};

const USER_SQL = `
  SELECT u.id::text, u.email, u.first_name, u.last_name, u.status, u.change_seq, u.updated_at,
         m.id::text AS manager_id, trim(m.first_name || ' ' || m.last_name) AS manager_name,
         d.id::text AS department_id, d.name AS department_name, s.external_id, s.created_at AS scim_created_at
    FROM spend_users u
    LEFT JOIN spend_users m ON m.id = u.manager_id AND NOT m.deleted
    LEFT JOIN departments d ON d.id = u.department_id AND NOT d.deleted
    LEFT JOIN scim_resources s ON s.resource_type = 'User' AND s.resource_id = u.id
   WHERE u.business_id = $1 AND NOT u.deleted AND ${shownUserSql('u')}`;

export async function listUserRows(db: Queryable, businessId: string): Promise<UserRow[]> {
  return db.query<UserRow>(`${USER_SQL} ORDER BY u.email, u.id`, [businessId]);
}

/** One user; another business's, a hidden or a deleted one is 404 (ids are not checked as uuids by the router). */
export async function findUserRow(db: Queryable, businessId: string, id: string, lock = false): Promise<UserRow> {
  if (!UUID.test(id)) throw notFound('User');
  const rows = await db.query<UserRow>(`${USER_SQL} AND u.id = $2${lock ? ' FOR UPDATE OF u' : ''}`, [businessId, id]);
  if (!rows[0]) throw notFound('User');
  return rows[0];
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const weakEtag = (seq: number | string) => `W/"${seq}"`;
const iso = (d: Date | string) => new Date(d).toISOString();

export function userResource(r: UserRow, base: string): Record<string, unknown> {
  const formatted = `${r.first_name} ${r.last_name}`.trim();
  return {
    schemas: [USER_SCHEMA, ENTERPRISE_SCHEMA],
    id: r.id,
    ...(r.external_id !== null && { externalId: r.external_id }),
    userName: r.email,
    name: { givenName: r.first_name, familyName: r.last_name, formatted },
    displayName: formatted,
    active: r.status !== 'SUSPENDED',
    emails: [{ value: r.email, type: 'work', primary: true }],
    groups: r.department_id ? [{ value: r.department_id, display: r.department_name, $ref: `${base}/Groups/${r.department_id}` }] : [],
    [ENTERPRISE_SCHEMA]: {
      ...(r.department_name !== null && { department: r.department_name }),
      ...(r.manager_id !== null && { manager: { value: r.manager_id, $ref: `${base}/Users/${r.manager_id}`, displayName: r.manager_name } }),
    },
    meta: {
      resourceType: 'User',
      created: iso(r.scim_created_at ?? r.updated_at),
      lastModified: iso(r.updated_at),
      location: `${base}/Users/${r.id}`,
      version: weakEtag(r.change_seq),
    },
  };
}
