import { isAdmin } from './roles.ts';

/**
 * The single sign-on rules (issue 14, §8 AUTH_7042 / AUTH_7028 / AUTH_7021 / AUTH_7022), as pure
 * decisions over a business's providers and users. The server applies them (server/routes/sso.ts,
 * sign-in enforcement); the admin page may use them to explain a disabled switch.
 *
 * A provider is *enforced* for a domain only while it is also enabled (the database checks
 * `enabled OR NOT enforced`): then password and passwordless sign-in of that domain's emails are
 * refused (AUTH_7022) and its people sign in through the provider.
 */

/**
 * `domainProven`: the business proved it owns the domain (the DNS TXT record below, issue 24).
 * A pending domain binds nobody: it cannot be enabled or enforced, and sign-in does not find it.
 */
export type SsoRuleProvider = { id: string; domain: string; enabled: boolean; enforced: boolean; verified: boolean; domainProven: boolean };
export type SsoRuleUser = { email: string; role: string; status: string; deleted: boolean };
export type SsoRefusal = { code: 'AUTH_7042' | 'AUTH_7028' | 'AUTH_7021'; message: string };

/** The lower-cased domain of an email (after its last @), '' when there is none. */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? '' : email.slice(at + 1).trim().toLowerCase();
}

/** The provider that enforces SSO for this email, if any: enabled, enforced, on its domain. */
export function enforcingProvider<P extends SsoRuleProvider>(email: string, providers: readonly P[]): P | null {
  const domain = emailDomain(email);
  return providers.find((p) => p.enabled && p.enforced && p.domain === domain) ?? null;
}

/** The DNS TXT record that proves a business owns `domain`: its name, and the value it must hold. */
const DOMAIN_CHALLENGE_LABEL = '_ledgerline-challenge';
export const domainChallengeName = (domain: string): string => `${DOMAIN_CHALLENGE_LABEL}.${domain.toLowerCase()}`;
export const domainChallengeValue = (token: string): string => `ledgerline-domain-verification=${token}`;

/** Why a pending domain cannot do `what` yet, in words that say how to fix it. */
const pendingDomainMessage = (domain: string, what: 'enabling' | 'enforcing'): string =>
  `Prove that your business owns ${domain} before ${what} single sign-on: add the TXT record shown for it at your DNS host, then choose Verify.`;

export const SSO_ENFORCED_MESSAGE = 'Your company signs in with single sign-on. Use “Sign in with SSO”.';

/**
 * Whether this person can still sign in when `providers` are the business's: by password when
 * no provider enforces their domain, else through that provider once it is enabled and has
 * worked at least once (verified).
 */
export function canSignIn(user: Pick<SsoRuleUser, 'email'>, providers: readonly SsoRuleProvider[]): boolean {
  const enforcing = enforcingProvider(user.email, providers);
  return !enforcing || (enforcing.enabled && enforcing.verified);
}

const isActiveAdmin = (u: SsoRuleUser) => !u.deleted && u.status === 'ACTIVE' && isAdmin(u);

/**
 * Why a provider may not become `after` (created or changed; `before` null on create), given the
 * business's other providers and its users; null when it may.
 * - AUTH_7042: enabling a provider whose domain is still pending (not proven by DNS), or for a
 *   domain none of the business's users has an email on.
 * - AUTH_7028 also: enforcing a provider whose domain is still pending.
 * - AUTH_7028: enforcing a provider that is disabled (or disabling an enforced one), enforcing
 *   one nobody has signed in through yet (not verified: it might not work), or any change after
 *   which no active admin could sign in.
 */
export function providerChangeRefusal(
  before: SsoRuleProvider | null,
  after: SsoRuleProvider,
  others: readonly SsoRuleProvider[],
  users: readonly SsoRuleUser[],
): SsoRefusal | null {
  if (!after.domainProven && after.enforced && !before?.enforced) {
    return { code: 'AUTH_7028', message: pendingDomainMessage(after.domain, 'enforcing') };
  }
  if (!after.domainProven && after.enabled && !before?.enabled) {
    return { code: 'AUTH_7042', message: pendingDomainMessage(after.domain, 'enabling') };
  }
  if (after.enabled && !before?.enabled && !users.some((u) => !u.deleted && emailDomain(u.email) === after.domain)) {
    return {
      code: 'AUTH_7042',
      message: `No one in this business has an email at ${after.domain}, so single sign-on cannot be enabled for it.`,
    };
  }
  if (after.enforced && !after.enabled) {
    return {
      code: 'AUTH_7028',
      message: before?.enforced
        ? 'Stop enforcing single sign-on before disabling this provider.'
        : 'Enable this provider before enforcing single sign-on.',
    };
  }
  if (after.enforced && !before?.enforced && !after.verified) {
    return {
      code: 'AUTH_7028',
      message: 'Sign in through this provider once before enforcing it, so you know it works.',
    };
  }
  const touchesAccess = !before || before.enabled !== after.enabled || before.enforced !== after.enforced;
  if (touchesAccess && after.enforced) {
    const all = [...others.filter((p) => p.id !== after.id), after];
    const admins = users.filter(isActiveAdmin);
    if (admins.length > 0 && !admins.some((a) => canSignIn(a, all))) {
      return { code: 'AUTH_7028', message: 'This would leave no administrator able to sign in.' };
    }
  }
  return null;
}

/** Why these providers may not be removed: AUTH_7021 while any of them is enforced. */
export function removalRefusal(providers: readonly SsoRuleProvider[]): SsoRefusal | null {
  const enforced = providers.find((p) => p.enforced);
  return enforced
    ? { code: 'AUTH_7021', message: `Stop enforcing single sign-on for ${enforced.domain} before removing its provider.` }
    : null;
}
