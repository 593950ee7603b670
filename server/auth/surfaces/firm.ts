import type { Queryable } from '../../db/db.ts';
import type { SurfaceMembership } from './membership.ts';

/** The advisor console: an ACTIVE firm user of an ACTIVE firm (issue 31, owned by the firm server). */
export const advisorConsoleMembership: SurfaceMembership<'ADVISOR_CONSOLE'> = {
  holds: async () => false,
  choices: async () => [],
};

/** A firm's application (§3 external_firm_applicant) before the firm exists. */
export const firmApplicationMembership: SurfaceMembership<'ADVISOR_CONSOLE_APPLICATION'> = {
  holds: async () => false,
  choices: async () => [],
};

/** §3 `external_firm_user` of an identity: its ACTIVE firm user, or null. */
export async function firmUserOf(_db: Queryable, _identityId: string): Promise<{ id: string; external_firm_id: string } | null> {
  return null;
}

/** §3 `external_firm_applicant` of an identity: its firm application, or null. */
export async function firmApplicantOf(_db: Queryable, _identityId: string): Promise<{ id: string } | null> {
  return null;
}

/** The names of firms by id (audit rows and people lists name a firm user "Jane Roe (Acme CPAs)"). */
export async function firmNames(_db: Queryable, _firmIds: readonly string[]): Promise<Map<string, string>> {
  return new Map();
}
