import {
  acceptInvite,
  changeUserRole,
  deleteUser as deleteUserCall,
  getUser as getUserCall,
  lookupInvite,
  updateUser as updateUserCall,
  inviteUser as inviteUserCall,
  resendInvite as resendInviteCall,
  suspendUser as suspendUserCall,
  unsuspendUser as unsuspendUserCall,
  removeApClerk as removeApClerkCall,
} from '../../schema/api/calls-admin.ts';
import { sendInviteMail } from '../mail/invite.ts';
import { mailLinks } from '../http/mail-links.ts';
import { requireVerifiedEmail } from '../auth/email-verification.ts';
import { hashPassword, verifyPassword } from '../auth/password.ts';
import { clientAddress, takeRateLimit, type Limit } from '../auth/rate-limit.ts';
import { inviteQuotas, takeQuota } from '../auth/quotas.ts';
import { describeInvite, getAdminUser, updateUser } from '../domain/admin-user-update.ts';
import { passwordSignIn } from '../auth/session.ts';
import { ssoEnforcedRefusal } from '../auth/sso/enforcement.ts';
import { changeRole, deleteUser, findInvite, inviteState, markAccepted, removeApClerk, suspendUser, unsuspendUser } from '../domain/admin-user-status.ts';
import { expireInvites, inviteUser, NO_PASSWORD, resendInvite, type IssuedInvite } from '../domain/admin-users.ts';
import { ApiError } from '../core/errors.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { versionedGet, versionedPatch } from './versioned.ts';
import { adminOf, inWriteTx } from './admin.ts';

/**
 * The invite page's lookup is public: 60 per 15 minutes per client address, like the other
 * public calls (a token is 32 random bytes, so this only stops someone hammering the endpoint).
 */
export const INVITE_LOOKUP_LIMIT = { max: 60, windowSeconds: 15 * 60 } as const;
const inviteLookupLimits = (address: string | null): Limit[] =>
  address ? [{ key: `invite-lookup:address:${address}`, ...INVITE_LOOKUP_LIMIT }] : [];

const inviteAnswer = (issued: IssuedInvite) => ({ user: issued.user, invite: issued.invite });

export const adminUserHandlers = {
  // Admins, and managers within inviteRefusal's rules: the domain decides. Invites and resends
  // count against the inviter's and the business's quotas (inside the write's transaction, so a
  // refused invite does not count).
  [inviteUserCall.id]: async (ctx) => {
    await requireVerifiedEmail(ctx);
    await takeQuota(ctx.c, ctx.db, inviteQuotas(ctx.deps.quotas, actorOf(ctx).user), ctx.deps.now());
    const { user } = actorOf(ctx);
    const issued = await inviteUser(ctx.db, user, ctx.input.body, ctx.deps.now());
    await sendInviteMail(ctx.deps, ctx.db, user.business_id, issued, { kind: 'person', userId: user.id }, mailLinks(ctx));
    return ok(inviteAnswer(issued), 201);
  },
  [resendInviteCall.id]: async (ctx) => {
    await requireVerifiedEmail(ctx);
    await takeQuota(ctx.c, ctx.db, inviteQuotas(ctx.deps.quotas, actorOf(ctx).user), ctx.deps.now());
    const { user } = actorOf(ctx);
    const issued = await resendInvite(ctx.db, user, ctx.input.params.user_uuid, ctx.deps.now());
    await sendInviteMail(ctx.deps, ctx.db, user.business_id, issued, { kind: 'person', userId: user.id }, mailLinks(ctx));
    return ok(inviteAnswer(issued));
  },
  [changeUserRole.id]: async (ctx) => {
    const { user } = adminOf(ctx);
    return ok(await changeRole(ctx.db, user, ctx.input.params.user_uuid, ctx.input.body.role, ctx.input.body.is_manager));
  },
  [suspendUserCall.id]: async (ctx) => ok(await suspendUser(ctx.db, adminOf(ctx).user, ctx.input.params.user_uuid)),
  [unsuspendUserCall.id]: async (ctx) => {
    const { user } = adminOf(ctx);
    return ok(await inWriteTx(ctx, unsuspendUserCall, (tx) => unsuspendUser(tx, user, ctx.input.params.user_uuid)));
  },
  [removeApClerkCall.id]: async (ctx) => {
    const { user } = adminOf(ctx);
    return ok(await inWriteTx(ctx, removeApClerkCall, (tx) => removeApClerk(tx, user, ctx.input.params.user_uuid)));
  },
  [deleteUserCall.id]: async (ctx) => {
    const { user } = adminOf(ctx);
    await inWriteTx(ctx, deleteUserCall, (tx) => deleteUser(tx, user, ctx.input.params.user_uuid));
    return ok({ ok: true });
  },
  [getUserCall.id]: versionedGet('users', 'user_uuid', async (ctx) => ok(await getAdminUser(ctx.db, adminOf(ctx).businessId, ctx.input.params.user_uuid))),
  [updateUserCall.id]: versionedPatch('users', 'user_uuid', async (ctx) => {
    const { user } = adminOf(ctx);
    return ok(await updateUser(ctx.db, user, ctx.input.params.user_uuid, ctx.input.body));
  }),

  [lookupInvite.id]: async (ctx) => {
    const now = ctx.deps.now();
    await takeRateLimit(ctx.c, ctx.deps.db, inviteLookupLimits(clientAddress(ctx.c)), now);
    return ok(await describeInvite(ctx.deps.db, ctx.input.params.token, now));
  },

  [acceptInvite.id]: async (ctx) => {
    const { token } = ctx.input.params;
    const { password } = ctx.input.body;
    const now = ctx.deps.now();
    const invite = await findInvite(ctx.deps.db, token);
    const state = inviteState(invite, now);
    if (state === 'missing' || !invite) throw new ApiError('REQUEST_7004', 'This invite was not found.');
    if (state === 'accepted') throw new ApiError('REQUEST_7001', 'This invite has already been accepted.');
    if (state === 'expired') await expireInvites(ctx.deps.db, now, { userId: invite.user_id });
    if (state === 'expired' || state === 'superseded') throw new ApiError('AUTH_7027');
    // An SSO-enforced domain accepts through "Sign in with SSO" (which accepts the invite), not a password.
    const [invitee] = await ctx.deps.db.query<{ email: string }>('SELECT email FROM identities WHERE id = $1', [invite.identity_id]);
    const enforced = invitee ? await ssoEnforcedRefusal(ctx.deps.db, invitee.email) : null;
    if (enforced) throw enforced;
    // Hash (or check) outside the transaction: scrypt is slow and PGlite has one connection.
    const newIdentity = invite.password_hash === NO_PASSWORD;
    if (!newIdentity && !(await verifyPassword(password, invite.password_hash))) throw new ApiError('AUTH_7001');
    const passwordHash = newIdentity ? await hashPassword(password) : null;
    const sessionId = await ctx.deps.db.transaction((tx) => markAccepted(tx, invite, passwordHash));
    // Accepting is a password sign-in: the same MFA decision and token (half-scoped while the
    // business or identity requires MFA, or the identity already has an authenticator).
    const who = { identityId: invite.identity_id, userId: invite.user_id, businessId: invite.business_id };
    return ok(await passwordSignIn(ctx.deps, ctx.deps.db, who, sessionId));
  },
} satisfies DomainHandlers;
