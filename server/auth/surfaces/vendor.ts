import type { SurfaceMembership } from './membership.ts';

/** The vendor portal: an admin of the network vendor (issue 31, owned by the vendor network server). */
export const vendorPortalMembership: SurfaceMembership<'VENDOR_PORTAL'> = {
  holds: async () => false,
  choices: async () => [],
};
