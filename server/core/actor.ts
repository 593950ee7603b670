import type { OtherSurfaceClaim, TokenClaims } from '../../schema/api/scopes.ts';
import type { AdvisorRight } from '../../schema/entities/external-firm.ts';

/** The signed-in spend user a request acts as, with what the §6 rules read. */
export type ActingUser = {
  id: string;
  business_id: string;
  role: string;
  is_manager: boolean;
  user_permissions: string[];
  manager_id: string | null;
};

/** Who is calling: set by authentication (http/authenticate.ts), read by every layer below the routes. */
export type Actor = {
  identityId: string;
  sessionId: string;
  businessId: string;
  claims: TokenClaims;
  user: ActingUser;
  /**
   * Set only on an impersonation token (claims.impersonator): the business's support access
   * grant its session was opened under, read live on every request (issue 24). Authentication
   * refuses the token once the grant is revoked or expired, so a present grant is live.
   */
  supportGrant?: { id: string; allowWrites: boolean };
  /**
   * Set only for a firm user's hidden spend user in a client (issue 31, D3): the live
   * authorization binding it, read on every request (auth/advisor-access.ts).
   */
  advisor?: { firmId: string; firmUserId: string; authorizationId: string; rights: AdvisorRight[] };
  /**
   * Set only on an OAuth access token of a customer API client (issue 32): the client, and the
   * API scopes (e.g. `transactions:read`) its token was granted. Event history and audit name it.
   */
  apiClient?: {
    id: string; name: string; scopes: readonly string[];
    /** Issue 32: a developer application's token, acting for the person who connected it (`user`). */
    developerApp?: true;
  };
};

/**
 * A caller on another surface than the main app (issue 31): a firm user in the advisor console, a
 * vendor network admin in the vendor portal, an applicant in a financing application, a firm
 * applicant. It has no spend user and no business; `surface` names what it acts for, and
 * authentication has checked (live, on every request) that the identity still holds it.
 */
export type SurfaceActor = {
  identityId: string;
  sessionId: string;
  claims: TokenClaims;
  surface: OtherSurfaceClaim;
};

/** Who is calling, on any surface. */
export type Caller = Actor | SurfaceActor;
export const isSurfaceActor = (caller: Caller): caller is SurfaceActor => 'surface' in caller;
