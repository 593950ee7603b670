import type { TokenClaims } from '../../schema/api/scopes.ts';

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
};
