import { emailDomain, enforcingProvider, SSO_ENFORCED_MESSAGE } from '../../../schema/sso-rules.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { providerForDomain, ruleView } from './providers.ts';

/**
 * AUTH_7022 for an email whose domain has a proven, enabled, enforced provider *and* who is a
 * member of that provider's business: password, passwordless and Google sign-in are refused and
 * the person is sent to "Sign in with SSO". People of other businesses who share the domain
 * (a contractor's alice@acme.com at another company) are never refused (issue 24).
 *
 * Asked before any password is checked, so it is no password oracle: a right and a wrong password
 * get the same AUTH_7022. It is an account oracle only within an enforced domain: AUTH_7022 there
 * says "a member of the business that enforces this domain", which that business's SSO page says
 * anyway; the answer for anyone else is the ordinary one (docs/sso.md, the trade-off).
 */
export async function ssoEnforcedRefusal(db: Queryable, email: string): Promise<ApiError | null> {
  const domain = emailDomain(email);
  if (!domain) return null;
  const provider = await providerForDomain(db, domain);
  if (!provider || !enforcingProvider(email, [ruleView(provider)])) return null;
  const [member] = await db.query(
    `SELECT 1 FROM spend_users u JOIN identities i ON i.id = u.identity_id
      WHERE lower(i.email) = $1 AND u.business_id = $2 AND NOT u.deleted LIMIT 1`,
    [email.trim().toLowerCase(), provider.business_id],
  );
  return member ? new ApiError('AUTH_7022', SSO_ENFORCED_MESSAGE) : null;
}
