import type { OtherSurfaceClaim } from '../../../schema/api/scopes.ts';
import type { ScopeChoice } from '../../../schema/entities/scope-choice.ts';
import type { Queryable } from '../../db/db.ts';
import { financingApplicationMembership } from './applicant.ts';
import { advisorConsoleMembership, firmApplicationMembership } from './firm.ts';
import type { SurfaceMembership } from './membership.ts';
import { vendorPortalMembership } from './vendor.ts';

const MEMBERSHIPS: { [K in OtherSurfaceClaim['kind']]: SurfaceMembership<K> } = {
  ADVISOR_CONSOLE: advisorConsoleMembership,
  VENDOR_PORTAL: vendorPortalMembership,
  FINANCING_APPLICATION: financingApplicationMembership,
  ADVISOR_CONSOLE_APPLICATION: firmApplicationMembership,
};

/** Whether the identity still holds the surface its token names (authentication, every request). */
export function holdsSurface(db: Queryable, identityId: string, claim: OtherSurfaceClaim): Promise<boolean> {
  // Each membership takes its own claim kind; the map is keyed by that kind.
  return (MEMBERSHIPS[claim.kind] as SurfaceMembership<OtherSurfaceClaim['kind']>).holds(db, identityId, claim as never);
}

/** Every non-business surface the identity holds, in the picker's order: firm, vendor portals, applications. */
export async function surfaceChoices(db: Queryable, identityId: string): Promise<ScopeChoice[]> {
  const order = ['ADVISOR_CONSOLE', 'ADVISOR_CONSOLE_APPLICATION', 'VENDOR_PORTAL', 'FINANCING_APPLICATION'] as const;
  const lists = await Promise.all(order.map((k) => MEMBERSHIPS[k].choices(db, identityId)));
  return lists.flat();
}
