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
