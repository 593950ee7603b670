import { emailDomain, enforcingProvider, SSO_ENFORCED_MESSAGE } from '../../../schema/sso-rules.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { providerForDomain, ruleView } from './providers.ts';

/**
 * AUTH_7022 for an email whose domain has an enabled, enforced provider: password, passwordless
 * and Google sign-in are refused and the person is sent to "Sign in with SSO".
 *
 * Asked before any password is checked, and decided by the email's domain alone (not by whether
 * an account exists, nor by the password): the answer tells nothing a DNS lookup of the company
 * would not, and an enforced domain is no password oracle (a right and a wrong password get the
 * same AUTH_7022).
 */
export async function ssoEnforcedRefusal(db: Queryable, email: string): Promise<ApiError | null> {
  const domain = emailDomain(email);
  if (!domain) return null;
  const provider = await providerForDomain(db, domain);
  return provider && enforcingProvider(email, [ruleView(provider)]) ? new ApiError('AUTH_7022', SSO_ENFORCED_MESSAGE) : null;
}
