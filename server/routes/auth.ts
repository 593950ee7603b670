import { currentIdentity, signIn, signOut } from '../../schema/api/calls.ts';
import type { OtherSurfaceClaim, SignInProvider } from '../../schema/api/scopes.ts';
import { defaultSpendUser } from '../../schema/roles.ts';
import { loginDownMessage } from '../../schema/web-config.ts';
import { verifyAgainstDummy, verifyPassword } from '../auth/password.ts';
import { foldEmail } from '../auth/email-address.ts';
import { clientAddress, ThrottledError } from '../auth/rate-limit.ts';
import { passwordSignIn, revokeSession, surfaceSignIn } from '../auth/session.ts';
import { clearSignInFailures, recordSignInFailure, signInKeys, signInRetryAfter } from '../auth/sign-in-limits.ts';
import { readWebConfig } from '../auth/settings.ts';
import { ssoEnforcedRefusal } from '../auth/sso/enforcement.ts';
import type { Queryable } from '../db/db.ts';
import type { AppDeps } from '../core/deps.ts';
import { expireInvites, signInBlock } from '../domain/admin-users.ts';
import { isSwitchable } from './business-switch.ts';
import { ApiError } from '../core/errors.ts';
import { ok, type DomainHandlers } from '../http/handler.ts';
import { isSurfaceActor } from '../core/actor.ts';
import { applicationUsersOf } from '../auth/surfaces/applicant.ts';
import { firmApplicantOf, firmUserOf } from '../auth/surfaces/firm.ts';
import { callerOf } from './identity-caller.ts';
import { firstOtherSurface } from './surfaces.ts';

type IdentityRow = { id: string; email: string; password_hash: string; ofac_status: string | null };
type SpendUserDoc = {
  id: string; business_id: string; role: string; is_manager: boolean; user_permissions: string[];
  external_firm: { uuid: string; id: string } | null; has_finished_onboarding: boolean;
  is_business_locked: boolean; has_accepted_cardholder_agreement: boolean; status: string;
  payroll_currency: string | null;
};

/** The full §3 spend user (identity call), relative to no acting user. */
const SPEND_USER_DOC_SQL = `jsonb_build_object(
  'id', r.id, 'role', r.role, 'business_id', r.business_id, 'external_firm', r.external_firm,
  'has_finished_onboarding', r.has_finished_onboarding, 'is_business_locked', r.is_business_locked,
  'is_manager', r.is_manager, 'user_permissions', r.user_permissions, 'payroll_currency', r.payroll_currency,
  'has_accepted_cardholder_agreement', r.has_accepted_cardholder_agreement, 'impersonator', NULL,
  'acting_user_is_in_reporting_chain', false, 'first_name', r.first_name, 'last_name', r.last_name,
  'external_firm_role', r.external_firm_role, 'email', r.email, 'manager_id', r.manager_id,
  'department_id', r.department_id, 'location_id', r.location_id, 'status', r.status)`;

export async function spendUsersOf(db: Queryable, identityId: string): Promise<SpendUserDoc[]> {
  const rows = await db.query<{ doc: SpendUserDoc }>(
    `SELECT ${SPEND_USER_DOC_SQL} AS doc FROM spend_users r WHERE r.identity_id = $1 AND NOT r.deleted ORDER BY r.business_id`,
    [identityId],
  );
  return rows.map((r) => r.doc);
}

type UserStatus = { status: string; deleted: boolean };
const INVITE_STATUSES = ['INVITED', 'INVITE_EXPIRED'] as const;
const AFTER_PASSWORD = ['SUSPENDED', 'DELETED'] as const;

/**
 * The statuses of all the identity's users, deleted ones too, after expiring its overdue invites
 * (expireInvites), so an invite past its expiry answers AUTH_7027 before any job marked it.
 */
async function statusesOf(deps: AppDeps, identityId: string): Promise<UserStatus[]> {
  await expireInvites(deps.db, deps.now(), { identityId });
  return deps.db.query<UserStatus>('SELECT status, deleted FROM spend_users WHERE identity_id = $1', [identityId]);
}

/**
 * Why an identity with no active user may not sign in, told by the shared status rule
 * (signInBlock): the first status of `order` one of its users has.
 */
function statusRefusal(users: UserStatus[], order: readonly string[]): ApiError | null {
  for (const want of order) {
    const user = users.find((u) => (want === 'DELETED' ? u.deleted : !u.deleted && u.status === want));
    const block = user && signInBlock(user);
    if (block) return new ApiError(block.code, block.message);
  }
  return null;
}

/**
 * Why a sign-in that proved who the person is (password or passwordless link) opens no spend
 * user: the first status rule that applies (invite first), else 4014.
 */
export async function noUserRefusal(deps: AppDeps, identityId: string): Promise<ApiError> {
  return statusRefusal(await statusesOf(deps, identityId), [...INVITE_STATUSES, ...AFTER_PASSWORD]) ?? new ApiError('4014');
}

/**
 * Which spend user a sign-in opens: the asked-for business when the identity has a switchable
 * (live, shown, usable) user there, else the §6 default spend user among the active ones.
 */
export function signInUser<U extends SpendUserDoc>(users: U[], businessId: string | null): U | undefined {
  const active = users.filter((u) => u.status === 'ACTIVE');
  const asked = businessId ? active.find((u) => u.business_id === businessId && isSwitchable(u)) : undefined;
  return asked ?? defaultSpendUser(active, null);
}

/** What a sign-in opens: a spend user in a business, or another surface (issue 31). */
export type SignInTarget = { user: SpendUserDoc; surface?: never } | { user?: never; surface: OtherSurfaceClaim };

/**
 * What a sign-in (password, passwordless link) opens for an identity it proved: its spend user
 * (signInUser), else, with no business to open, the first other surface it holds (firm, firm
 * application, vendor portal, application: `firstOtherSurface`'s order), else null.
 */
export async function signInTarget(db: Queryable, identityId: string, businessId: string | null): Promise<SignInTarget | null> {
  const user = signInUser(await spendUsersOf(db, identityId), businessId);
  if (user) return { user };
  const surface = await firstOtherSurface(db, identityId);
  return surface ? { surface } : null;
}

/**
 * The answer of a sign-in to `target`: the business's MFA decision and token for a spend user
 * (passwordSignIn), the identity's for a surface (surfaceSignIn); on `sessionId` or a new session.
 */
export function openSignIn(
  deps: AppDeps, db: Queryable, identityId: string, target: SignInTarget,
  opts: { sessionId?: string | undefined; signInProvider?: SignInProvider } = {},
): Promise<{ id_token: string; mfa_required: boolean }> {
  if (target.surface) {
    const { sessionId, signInProvider } = opts;
    return surfaceSignIn(deps, db, identityId, target.surface, { ...(sessionId && { sessionId }), ...(signInProvider && { signInProvider }) });
  }
  const who = { identityId, userId: target.user.id, businessId: target.user.business_id };
  return passwordSignIn(deps, db, who, opts.sessionId, opts.signInProvider);
}

export const authHandlers = {
  [signIn.id]: async (ctx) => {
    const { password, business_id } = ctx.input.body;
    const email = foldEmail(ctx.input.body.email);
    const config = await readWebConfig(ctx.db);
    if (config.isLoginDown) throw new ApiError('AUTH_7022', loginDownMessage(config));
    // Before the password is looked at, by the email's domain alone: neither an account oracle
    // nor a password oracle (server/auth/sso/enforcement.ts).
    const enforced = await ssoEnforcedRefusal(ctx.db, email);
    if (enforced) throw enforced;
    const keys = signInKeys(email, clientAddress(ctx.c));
    const wait = await signInRetryAfter(ctx.db, keys, ctx.deps.now());
    if (wait !== null) {
      ctx.c.header('Retry-After', String(wait));
      throw new ThrottledError(wait);
    }
    const rows = await ctx.db.query<IdentityRow>('SELECT * FROM identities WHERE lower(email) = $1', [email]);
    const identity = rows[0];
    // Unknown emails burn the same scrypt work, so timing does not reveal which accounts exist.
    const valid = identity ? await verifyPassword(password, identity.password_hash) : await verifyAgainstDummy(password);
    const statuses = identity ? await statusesOf(ctx.deps, identity.id) : [];
    // Issue 31: no business to open, but another surface held: the sign-in opens that surface.
    const target = identity ? await signInTarget(ctx.db, identity.id, business_id ?? null) : null;
    // An invited person has no usable password yet: the §8 invite message is the useful answer.
    const invite = target ? null : statusRefusal(statuses, INVITE_STATUSES);
    if (invite) throw invite;
    if (!identity || !valid) {
      await recordSignInFailure(ctx.db, keys, ctx.deps.now());
      throw new ApiError('AUTH_7001');
    }
    await clearSignInFailures(ctx.db, keys);
    // A suspension (or deletion) is only told to someone who knows the password.
    if (!target) throw statusRefusal(statuses, AFTER_PASSWORD) ?? new ApiError('4014');
    return ok(await openSignIn(ctx.deps, ctx.db, identity.id, target));
  },

  [signOut.id]: async (ctx) => {
    // Any surface's token (issue 31): the session is the identity's, so every token of it ends.
    await revokeSession(ctx.db, callerOf(ctx).sessionId);
    return ok({ ok: true });
  },

  [currentIdentity.id]: async (ctx) => {
    const caller = callerOf(ctx);
    const actor = isSurfaceActor(caller) ? null : caller;
    const [identity] = await ctx.db.query<IdentityRow>('SELECT * FROM identities WHERE id = $1', [caller.identityId]);
    const [business] = actor
      ? await ctx.db.query(`SELECT id, name, currency, status, ll_iso(created_at) AS created_at FROM businesses WHERE id = $1`, [actor.businessId])
      : [null];
    const spendUsers = await spendUsersOf(ctx.db, caller.identityId);
    const businesses = await ctx.db.query<{ id: string; name: string }>(
      `SELECT b.id, b.name FROM businesses b
        WHERE b.id IN (SELECT business_id FROM spend_users WHERE identity_id = $1 AND NOT deleted) ORDER BY b.name, b.id`,
      [caller.identityId],
    );
    const impersonator = caller.claims.impersonator ?? null;
    const user = actor ? spendUsers.find((u) => u.id === actor.user.id) : null;
    if (!identity || (actor && (!business || !user))) throw new ApiError('4014');
    // §3's surface fields, each from its surface's own tables (issue 31).
    const [firmUser, firmApplicant, applications] = await Promise.all([
      firmUserOf(ctx.db, caller.identityId), firmApplicantOf(ctx.db, caller.identityId), applicationUsersOf(ctx.db, caller.identityId),
    ]);
    return ok({
      identity: {
        id: identity.id,
        email: identity.email,
        spend_users: spendUsers,
        external_firm_user: firmUser,
        external_firm_applicant: firmApplicant,
        financing_application_users: applications,
        identity_ofac_status: identity.ofac_status,
      },
      // A token of another surface acts as no spend user in no business (issue 31).
      user: user ? { ...user, impersonator } : null,
      business: business ?? null,
      businesses,
    });
  },
} satisfies DomainHandlers;

