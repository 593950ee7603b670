import type { SurfaceMembership } from './membership.ts';

/** A financing application: a user of the application (§3 financing_application_users; owned by the application server). */
export const financingApplicationMembership: SurfaceMembership<'FINANCING_APPLICATION'> = {
  holds: async () => false,
  choices: async () => [],
};
