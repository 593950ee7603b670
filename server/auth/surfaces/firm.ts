import type { ScopeChoice } from '../../../schema/entities/scope-choice.ts';
import type { Queryable } from '../../db/db.ts';
import type { SurfaceMembership } from './membership.ts';

type FirmUserRow = { id: string; firm_id: string; firm_name: string; role: string };

/** The ACTIVE firm users of an identity in ACTIVE firms (one per firm). */
async function activeFirmUsers(db: Queryable, identityId: string): Promise<FirmUserRow[]> {
  return db.query<FirmUserRow>(
    `SELECT u.id::text, u.firm_id::text, f.name AS firm_name, u.role
       FROM external_firm_users u JOIN external_firms f ON f.id = u.firm_id
      WHERE u.identity_id = $1 AND u.status = 'ACTIVE' AND f.status = 'ACTIVE'
      ORDER BY u.created_at, u.id`,
    [identityId],
  );
}

/** The advisor console: an ACTIVE firm user of an ACTIVE firm (issue 31, owned by the firm server). */
export const advisorConsoleMembership: SurfaceMembership<'ADVISOR_CONSOLE'> = {
  holds: async (db, identityId, claim) => {
    const rows = await db.query(
      `SELECT 1 FROM external_firm_users u JOIN external_firms f ON f.id = u.firm_id
        WHERE u.id = $1 AND u.firm_id = $2 AND u.identity_id = $3 AND u.status = 'ACTIVE' AND f.status = 'ACTIVE'`,
      [claim.external_firm_user_id, claim.external_firm_id, identityId],
    );
    return rows.length > 0;
  },
  choices: async (db, identityId): Promise<ScopeChoice[]> =>
    (await activeFirmUsers(db, identityId)).map((u) => ({
      target: { kind: 'ADVISOR_CONSOLE', external_firm_id: u.firm_id, external_firm_user_id: u.id },
      label: u.firm_name,
      detail: u.role === 'EXTERNAL_FIRM_ADMIN' ? 'Firm admin' : 'Firm member',
    })),
};

/** A firm's application (§3 external_firm_applicant) before the firm exists. */
export const firmApplicationMembership: SurfaceMembership<'ADVISOR_CONSOLE_APPLICATION'> = {
  holds: async (db, identityId, claim) => {
    const rows = await db.query('SELECT 1 FROM external_firm_applications WHERE id = $1 AND identity_id = $2', [
      claim.external_firm_application_id, identityId,
    ]);
    return rows.length > 0;
  },
  // An approved application is the firm itself (the console's choice); only one still waiting is listed.
  choices: async (db, identityId): Promise<ScopeChoice[]> => {
    const rows = await db.query<{ id: string; firm_name: string }>(
      `SELECT id::text, firm_name FROM external_firm_applications
        WHERE identity_id = $1 AND status <> 'APPROVED' ORDER BY created_at DESC, id`,
      [identityId],
    );
    return rows.map((r) => ({
      target: { kind: 'ADVISOR_CONSOLE_APPLICATION', external_firm_application_id: r.id },
      label: r.firm_name,
      detail: 'Firm application',
    }));
  },
};

/** §3 `external_firm_user` of an identity: its ACTIVE firm user, or null. */
export async function firmUserOf(db: Queryable, identityId: string): Promise<{ id: string; external_firm_id: string } | null> {
  const [first] = await activeFirmUsers(db, identityId);
  return first ? { id: first.id, external_firm_id: first.firm_id } : null;
}

/** §3 `external_firm_applicant` of an identity: its firm application, or null. */
export async function firmApplicantOf(db: Queryable, identityId: string): Promise<{ id: string } | null> {
  const [row] = await db.query<{ id: string }>(
    'SELECT id::text FROM external_firm_applications WHERE identity_id = $1 ORDER BY created_at DESC, id LIMIT 1',
    [identityId],
  );
  return row ?? null;
}

/** The names of firms by id (audit rows and people lists name a firm user "Jane Roe (Acme CPAs)"). */
export async function firmNames(db: Queryable, firmIds: readonly string[]): Promise<Map<string, string>> {
  if (firmIds.length === 0) return new Map();
  const rows = await db.query<{ id: string; name: string }>('SELECT id::text, name FROM external_firms WHERE id = ANY($1::uuid[])', [[...new Set(firmIds)]]);
  return new Map(rows.map((r) => [r.id, r.name]));
}
