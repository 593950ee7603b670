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
};
