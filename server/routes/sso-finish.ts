import type { Context } from 'hono';
import { SSO_BROWSER_PATHS } from '../../schema/api/calls-sso.ts';
import { ERROR_CATALOGUE } from '../../schema/errors.ts';
import { emailDomain, SSO_ENFORCED_MESSAGE } from '../../schema/sso-rules.ts';
import { loginDownMessage } from '../../schema/web-config.ts';
import { readWebConfig } from '../auth/settings.ts';
import { ssoEnforcedRefusal } from '../auth/sso/enforcement.ts';
import { issueCompletionCode, type SsoKind } from '../auth/sso/flow.ts';
import type { ProviderRow } from '../auth/sso/providers.ts';
import type { AppDeps } from '../core/deps.ts';
import { markAccepted, type InviteLookup } from '../domain/admin-user-status.ts';
import { expireInvites, signInBlock, SUSPENDED_MESSAGE } from '../domain/admin-users.ts';
import { shownUserSql } from '../domain/hidden-users.ts';
import { noUserRefusal, signInTarget } from './auth.ts';

/**
 * The end of every SSO sign-in (OIDC callback, SAML ACS, Google): the IdP has vouched for
 * `email`; find who that is here and answer where the browser goes next — the app's
 * /sso/complete with a one-time code, or /sign-in with words to show.
 *
 * A business provider signs in only an existing user of its own business with that email: an
 * invited one accepts the invite on the way (the IdP proved the email), a suspended or deleted
 * one is refused as password sign-in refuses them. A hidden spend user (a firm's advisor or a vendor
 * network admin in the business, issue 31) is no member here: it is reached only through its own
 * surface, as password sign-in never opens it either. Google signs in any active user whose verified
 * email matches, unless the email's domain enforces its own SSO.
 */
export class SsoRefused extends Error {}

export const NO_ACCOUNT_MESSAGE = 'No Ledgerline account uses this email.';
export const SURFACE_ONLY_MESSAGE =
  'Single sign-on opens a business on Ledgerline, and this email has none. Sign in with your password or an emailed sign-in link to reach your advisor console, vendor portal or application.';
export const EXPIRED_STATE_MESSAGE = 'This sign-in has expired or was already used. Start again.';

/** A redirect the browser follows; never cached, never leaking the code to other sites. */
export function redirectTo(c: Context, location: string): Response {
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'no-referrer');
  return c.redirect(location, 302);
}

export const errorLocation = (words: string) => `/sign-in?sso_error=${encodeURIComponent(words)}`;
export const completeLocation = (code: string) => `${SSO_BROWSER_PATHS.appComplete}?code=${encodeURIComponent(code)}`;

type Member = { id: string; identity_id: string; status: string; deleted: boolean };

/** The open invite of a user (the newest, neither accepted nor revoked), in the shape acceptance takes. */
async function openInviteOf(deps: AppDeps, userId: string): Promise<InviteLookup | null> {
  const [row] = await deps.db.query<{ id: string }>(
    `SELECT id::text FROM user_invites WHERE user_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL ORDER BY created_at DESC LIMIT 1`,
    [userId],
  );
  if (!row) return null;
  // The shape of findInvite (domain/admin-user-status.ts), which looks an invite up by its token.
  const [inv] = await deps.db.query<InviteLookup>(
    `SELECT i.id::text AS invite_id, i.business_id::text, i.user_id::text, u.identity_id::text, d.password_hash,
            i.expires_at, i.accepted_at, i.revoked_at, u.status, u.deleted
       FROM user_invites i JOIN spend_users u ON u.id = i.user_id JOIN identities d ON d.id = u.identity_id
      WHERE i.id = $1`,
    [row.id],
  );
  return inv ?? null;
}

async function providerMember(deps: AppDeps, provider: ProviderRow, email: string): Promise<{ member: Member; sessionId: string | null }> {
  const now = deps.now();
  const find = () =>
    deps.db.query<Member>(
      `SELECT u.id::text, u.identity_id::text, u.status, u.deleted FROM spend_users u JOIN identities i ON i.id = u.identity_id
        WHERE lower(i.email) = $1 AND u.business_id = $2 AND ${shownUserSql('u')} ORDER BY u.deleted LIMIT 1`,
      [email, provider.business_id],
    );
  let [member] = await find();
  if (!member) throw new SsoRefused(NO_ACCOUNT_MESSAGE);
  // An invite past its expiry is marked first, so it answers as expired (AUTH_7027's words).
  if (member.status === 'INVITED') {
    await expireInvites(deps.db, now, { identityId: member.identity_id });
    [member] = await find();
    if (!member) throw new SsoRefused(NO_ACCOUNT_MESSAGE);
  }
  if (member.status === 'INVITED' && !member.deleted) {
    const invite = await openInviteOf(deps, member.id);
    if (!invite) throw new SsoRefused(ERROR_CATALOGUE.AUTH_7026.message);
    // The IdP proved the email, as the invite's link would have: the invite is accepted now.
    const sessionId = await deps.db.transaction((tx) => markAccepted(tx, invite, null));
    return { member: { ...member, status: 'ACTIVE' }, sessionId };
  }
  const block = signInBlock(member);
  if (block) {
    const words = block.code === 'AUTH_7022' ? (block.message ?? SUSPENDED_MESSAGE) : block.message ?? ERROR_CATALOGUE[block.code].message;
    throw new SsoRefused(words);
  }
  if (member.status !== 'ACTIVE') throw new SsoRefused(NO_ACCOUNT_MESSAGE);
  return { member, sessionId: null };
}

async function googleMember(deps: AppDeps, email: string): Promise<{ member: { id: string; identity_id: string; business_id: string } }> {
  const enforced = await ssoEnforcedRefusal(deps.db, email);
  if (enforced) throw new SsoRefused(SSO_ENFORCED_MESSAGE);
  const [identity] = await deps.db.query<{ id: string }>('SELECT id::text FROM identities WHERE lower(email) = $1', [email]);
  if (!identity) throw new SsoRefused(NO_ACCOUNT_MESSAGE);
  const target = await signInTarget(deps.db, identity.id, null);
  // Issue 31: the completion code names a spend user, so SSO opens a business only; the person's
  // other access (advisor console, vendor portal, application) opens by password or mailed link.
  if (target?.surface) throw new SsoRefused(SURFACE_ONLY_MESSAGE);
  if (!target?.user) {
    const refusal = await noUserRefusal(deps, identity.id);
    throw new SsoRefused(refusal.code === '4014' ? NO_ACCOUNT_MESSAGE : refusal.message);
  }
  return { member: { id: target.user.id, identity_id: identity.id, business_id: target.user.business_id } };
}

/**
 * Who `email` is for this sign-in, and the completion code the app trades for a token. Throws
 * SsoRefused with the words to show.
 */
export async function finishSignIn(
  deps: AppDeps,
  how: { kind: SsoKind; provider: ProviderRow | null; email: string; redirect: string | null },
): Promise<string> {
  const config = await readWebConfig(deps.db);
  if (config.isLoginDown) throw new SsoRefused(loginDownMessage(config));
  const email = how.email.trim().toLowerCase();
  let who: { identityId: string; userId: string; businessId: string; sessionId: string | null };
  if (how.provider) {
    const provider = how.provider;
    if (!provider.enabled || !provider.domain_proven_at) throw new SsoRefused('Single sign-on is turned off for this email. Sign in another way, or ask your administrator.');
    if (emailDomain(email) !== provider.domain.toLowerCase()) {
      throw new SsoRefused(`This identity provider signs in people at ${provider.domain}; it vouched for ${email}.`);
    }
    const { member, sessionId } = await providerMember(deps, provider, email);
    who = { identityId: member.identity_id, userId: member.id, businessId: provider.business_id, sessionId };
    // It works: the admin may now enforce it (AUTH_7028 until then).
    await deps.db.query('UPDATE sso_providers SET verified_at = $2 WHERE id = $1', [provider.id, new Date(deps.now())]);
  } else {
    const { member } = await googleMember(deps, email);
    who = { identityId: member.identity_id, userId: member.id, businessId: member.business_id, sessionId: null };
  }
  return issueCompletionCode(
    deps.db,
    { kind: how.kind, identity_id: who.identityId, user_id: who.userId, business_id: who.businessId, session_id: who.sessionId, redirect: how.redirect },
    deps.now(),
  );
}
