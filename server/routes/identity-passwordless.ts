import { randomBytes, randomUUID } from 'node:crypto';
import {
  acceptAndCreateIdentity, passwordlessSend, passwordlessSignIn, passwordlessValidate,
} from '../../schema/api/calls-identity.ts';
import { loginDownMessage } from '../../schema/web-config.ts';
import { foldEmail } from '../auth/email-address.ts';
import { markEmailVerified } from '../auth/email-verification.ts';
import type { MailDeps } from '../auth/email-otp.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { mailLinks } from '../http/mail-links.ts';
import { hashPassword } from '../auth/password.ts';
import { clientAddress } from '../auth/rate-limit.ts';
import { signInLinkQuotas, takeQuota } from '../auth/quotas.ts';
import { passwordSignIn } from '../auth/session.ts';
import { readWebConfig } from '../auth/settings.ts';
import { ssoEnforcedRefusal } from '../auth/sso/enforcement.ts';
import type { Queryable } from '../db/db.ts';
import { findInvite, inviteState, markAccepted } from '../domain/admin-user-status.ts';
import { expireInvitesIn, hashToken, NO_PASSWORD } from '../domain/admin-users.ts';
import { ApiError } from '../core/errors.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { noUserRefusal, openSignIn, signInTarget } from './auth.ts';
import { refuse } from './identity-code-limits.ts';

/** A sign-in link lives 15 minutes and opens one sign-in. */
export const PASSWORDLESS_TTL_MS = 15 * 60 * 1000;

type LinkRow = { id: string; identity_id: string; expires_at: Date; used_at: Date | null };

async function assertLoginUp(db: Queryable): Promise<void> {
  const config = await readWebConfig(db);
  if (config.isLoginDown) throw new ApiError('AUTH_7022', loginDownMessage(config));
}

/** Mails a new link; earlier unused links of the identity die (only the latest email works). */
async function issueLink(deps: MailDeps, db: Queryable, identity: { id: string; email: string }, nowMs: number, links: (path: string) => string): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  const now = new Date(nowMs);
  await db.query('UPDATE passwordless_links SET used_at = $2 WHERE identity_id = $1 AND used_at IS NULL', [identity.id, now]);
  await db.query(
    'INSERT INTO passwordless_links (id, identity_id, token_hash, expires_at, created_at) VALUES ($1, $2, $3, $4, $5)',
    [randomUUID(), identity.id, hashToken(token), new Date(nowMs + PASSWORDLESS_TTL_MS), now],
  );
  await enqueueMail(deps, db, { to: foldEmail(identity.email), template: 'passwordless_link', values: { link: links(`/passwordless?token=${token}`) } });
}

const findLink = async (db: Queryable, token: string): Promise<LinkRow | null> =>
  (await db.query<LinkRow>('SELECT id::text, identity_id::text, expires_at, used_at FROM passwordless_links WHERE token_hash = $1', [
    hashToken(token),
  ]))[0] ?? null;

/** Unknown (or, for sign-in, used) → PROFILE_7017; past its 15 minutes → PROFILE_7016. */
function linkRefusal(link: LinkRow | null, nowMs: number, { usedIsInvalid }: { usedIsInvalid: boolean }): ApiError | null {
  if (!link || (usedIsInvalid && link.used_at)) return new ApiError('PROFILE_7017');
  if (new Date(link.expires_at).getTime() <= nowMs) return new ApiError('PROFILE_7016');
  return null;
}

export const passwordlessHandlers = {
  [passwordlessSend.id]: async (ctx) => {
    const email = foldEmail(ctx.input.body.email);
    await assertLoginUp(ctx.db);
    // SSO-enforced domains get no link (decided by the domain, before any account lookup).
    const enforced = await ssoEnforcedRefusal(ctx.db, email);
    if (enforced) throw enforced;
    // Counted per address asked for, known or not: the answer must not tell which accounts exist.
    await takeQuota(ctx.c, ctx.db, signInLinkQuotas(ctx.deps.quotas, clientAddress(ctx.c), email), ctx.deps.now());
    const [identity] = await ctx.db.query<{ id: string; email: string }>(
      'SELECT id::text, email FROM identities WHERE lower(email) = $1', [email],
    );
    if (identity) await issueLink(ctx.deps, ctx.db, identity, ctx.deps.now(), mailLinks(ctx));
    return ctx.c.body(null, 204);
  },

  [passwordlessSignIn.id]: async (ctx) => {
    await assertLoginUp(ctx.db);
    const now = ctx.deps.now();
    const link = await findLink(ctx.db, ctx.input.body.token);
    const refusal = linkRefusal(link, now, { usedIsInvalid: true });
    if (refusal || !link) throw refusal ?? new ApiError('PROFILE_7017');
    // A link mailed before the domain enforced SSO no longer signs in.
    const [owner] = await ctx.db.query<{ email: string }>('SELECT email FROM identities WHERE id = $1', [link.identity_id]);
    const enforced = owner ? await ssoEnforcedRefusal(ctx.db, owner.email) : null;
    if (enforced) throw enforced;
    // A business user, else (issue 31) the first other surface the identity holds, as password sign-in.
    const target = await signInTarget(ctx.db, link.identity_id, null);
    if (!target) throw await noUserRefusal(ctx.deps, link.identity_id);
    // Claimed by one conditional UPDATE: two concurrent uses of one link open one session.
    const claimed = await ctx.db.query('UPDATE passwordless_links SET used_at = $2 WHERE id = $1 AND used_at IS NULL RETURNING id', [
      link.id, new Date(now),
    ]);
    if (claimed.length === 0) throw new ApiError('PROFILE_7017');
    // The link came by mail: using it proves the mailbox.
    await markEmailVerified(ctx.db, link.identity_id, new Date(now));
    // The link replaces the password only: the same MFA decision and token as a password sign-in.
    return ok(await openSignIn(ctx.deps, ctx.db, link.identity_id, target));
  },

  // A used link stays checkable for its 15 minutes: the client asking was usually signed in by it.
  [passwordlessValidate.id]: async (ctx) => {
    const actor = actorOf(ctx);
    const link = await findLink(ctx.db, ctx.input.body.token);
    const refusal = linkRefusal(link, ctx.deps.now(), { usedIsInvalid: false });
    if (refusal || !link) throw refusal ?? new ApiError('PROFILE_7017');
    const [me] = await ctx.db.query<{ email: string }>('SELECT email FROM identities WHERE id = $1', [actor.identityId]);
    if (!me) throw new ApiError('AUTH_7003');
    return ok({ valid: link.identity_id === actor.identityId, email: me.email });
  },

  [acceptAndCreateIdentity.id]: async (ctx) => {
    const actor = actorOf(ctx);
    // Accepting binds a person to a business: never on someone's behalf.
    if (actor.claims.impersonator) throw new ApiError('FORBIDDEN_7003');
    const now = ctx.deps.now();
    const invite = await findInvite(ctx.db, ctx.input.params.token);
    const state = inviteState(invite, now);
    if (state === 'missing' || !invite) throw new ApiError('REQUEST_7004', 'This invite was not found.');
    // Invites find their identity by email, so "same email" is "same identity".
    if (invite.identity_id !== actor.identityId) throw new ApiError('AUTH_7018');
    if (state === 'accepted') throw new ApiError('REQUEST_7001', 'This invite has already been accepted.');
    if (state === 'expired') await expireInvitesIn(ctx.db, now, { userId: invite.user_id });
    // Answered, not thrown, so the transaction still commits the INVITE_EXPIRED mark.
    if (state === 'expired' || state === 'superseded') return refuse('AUTH_7027');
    // The fresh token proves the person; a password is only set where the identity has none.
    const passwordHash = invite.password_hash === NO_PASSWORD ? await hashPassword(ctx.input.body.password) : null;
    const sessionId = await markAccepted(ctx.db, invite, passwordHash);
    const who = { identityId: invite.identity_id, userId: invite.user_id, businessId: invite.business_id };
    return ok(await passwordSignIn(ctx.deps, ctx.db, who, sessionId));
  },
} satisfies DomainHandlers;
