import {
  changePassword, changeUserEmail, putBankDetails, putTaxInfo, sendEmailOtp, setPhoneNumber, stepUp, verifyEmailOtp,
} from '../../schema/api/calls-identity.ts';
import type { Scope } from '../../schema/api/scopes.ts';
import { foldEmail } from '../auth/email-address.ts';
import { consumeEmailOtp, issueEmailOtp } from '../auth/email-otp.ts';
import { last4 } from '../auth/guards.ts';
import { hashPassword, verifyPassword } from '../auth/password.ts';
import {
  assertWithinLimits, clientAddress, emailOtpLimits, recordFailure, takeRateLimit,
} from '../auth/rate-limit.ts';
import { issueToken, STEP_UP_TTL_SECONDS, subjectOfCaller } from '../auth/session.ts';
import { stepUpPasswordLimits } from '../auth/sign-in-limits.ts';
import { consumeCode } from '../auth/totp.ts';
import { relyingParty, verifyAssertion } from '../auth/webauthn.ts';
import { allocateSeqs, announceChange } from '../db/change-seq.ts';
import type { Caller } from '../core/actor.ts';
import type { AppDeps } from '../core/deps.ts';
import { ApiError, validationError } from '../core/errors.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { DUPLICATE_EMAIL_MESSAGE, PASSWORD_IS_EMAIL_MESSAGE } from './identity.ts';
import { callerOf } from './identity-caller.ts';
import { codeGate, refuse, wrongCode } from './identity-code-limits.ts';

const ADMIN_ROLES = ['BUSINESS_OWNER', 'BUSINESS_ADMIN'];

/** Support acting as a user never earns sensitive or email-otp: it must not change their secrets. */
function assertNotImpersonating(actor: Caller): void {
  if (actor.claims.impersonator) throw new ApiError('FORBIDDEN_7003', 'Step-up is not available while impersonating.');
}

/**
 * A step-up token: the caller's scopes plus the earned one, on the same session and surface
 * (sign-out ends it too), living 10 minutes. The client keeps its normal 12 h token and uses this one only for the
 * calls that need the extra scope, so "falling back" is just the step-up token expiring.
 */
async function stepUpToken(deps: AppDeps, actor: Caller, scope: Scope) {
  const scopes = [...new Set([...(actor.claims.ramp_access_scopes as Scope[]), scope])];
  const { token, expiresAt } = await issueToken(
    deps,
    subjectOfCaller(actor),
    {
      scopes, mfaRequired: actor.claims.ramp_mfa_required, mfaAuthed: actor.claims.ramp_mfa_authed,
      ttlSeconds: STEP_UP_TTL_SECONDS, signInProvider: actor.claims.sign_in_provider,
    },
  );
  return ok({ id_token: token, expires_at: expiresAt.toISOString() });
}

export const stepUpHandlers = {
  [stepUp.id]: async (ctx) => {
    const actor = callerOf(ctx);
    assertNotImpersonating(actor);
    const body = ctx.input.body;
    if ('webauthn' in body) {
      const attempt = { c: ctx.c, deps: ctx.deps, db: ctx.db, actor };
      const blocked = await codeGate(attempt);
      if (blocked) return blocked;
      const owner = { identityId: actor.identityId, sessionId: actor.sessionId };
      const checked = await verifyAssertion(ctx.db, relyingParty(ctx.c), owner, body.webauthn, ctx.deps.now());
      if (checked.ok) return stepUpToken(ctx.deps, actor, 'sensitive');
      const r = checked.refusal;
      return r.counted ? wrongCode(attempt, r.code, r.message) : refuse(r.code, r.message);
    }
    if ('mfa_code' in body) {
      const attempt = { c: ctx.c, deps: ctx.deps, db: ctx.db, actor };
      const blocked = await codeGate(attempt);
      if (blocked) return blocked;
      const used = await consumeCode(ctx.db, actor.identityId, body.mfa_code, ctx.deps.now());
      return used ? stepUpToken(ctx.deps, actor, 'sensitive') : wrongCode(attempt, 'AUTH_7025');
    }
    const [identity] = await ctx.db.query<{ password_hash: string }>('SELECT password_hash FROM identities WHERE id = $1', [
      actor.identityId,
    ]);
    if (!identity) throw new ApiError('AUTH_7002');
    // Re-entering the password is guessable like a sign-in, but on its own budget: a signed-in
    // caller's wrong guesses here must not lock the person's sign-in.
    const limits = stepUpPasswordLimits(actor.identityId);
    await assertWithinLimits(ctx.c, ctx.db, limits, ctx.deps.now());
    if (!(await verifyPassword(body.password, identity.password_hash))) {
      await recordFailure(ctx.db, limits, ctx.deps.now());
      return refuse('AUTH_7001');
    }
    return stepUpToken(ctx.deps, actor, 'sensitive');
  },

  [sendEmailOtp.id]: async (ctx) => {
    const actor = callerOf(ctx);
    assertNotImpersonating(actor);
    // Each call mails someone: bounded per person and per client address.
    await takeRateLimit(ctx.c, ctx.db, emailOtpLimits(actor.identityId, clientAddress(ctx.c)), ctx.deps.now());
    const [identity] = await ctx.db.query<{ email: string }>('SELECT email FROM identities WHERE id = $1', [actor.identityId]);
    if (!identity) throw new ApiError('AUTH_7002');
    const expiresAt = await issueEmailOtp(ctx.deps, ctx.db, actor.identityId, identity.email, ctx.deps.now());
    return ok({ sent: true, expires_at: expiresAt.toISOString() });
  },

  [verifyEmailOtp.id]: async (ctx) => {
    const actor = callerOf(ctx);
    assertNotImpersonating(actor);
    const attempt = { c: ctx.c, deps: ctx.deps, db: ctx.db, actor };
    const blocked = await codeGate(attempt);
    if (blocked) return blocked;
    const refusal = await consumeEmailOtp(ctx.db, actor.identityId, ctx.input.body.code, ctx.deps.now());
    // An expired code (7016) is no guess: only wrong ones use up the budget.
    if (refusal === 'PROFILE_7017') return wrongCode(attempt, refusal);
    return refusal ? refuse(refusal) : stepUpToken(ctx.deps, actor, 'email-otp');
  },

  [changePassword.id]: async (ctx) => {
    const actor = actorOf(ctx);
    const { new_password } = ctx.input.body;
    const [identity] = await ctx.db.query<{ email: string }>('SELECT email FROM identities WHERE id = $1', [actor.identityId]);
    if (!identity) throw new ApiError('AUTH_7002');
    if (foldEmail(new_password) === foldEmail(identity.email)) throw validationError({ new_password: PASSWORD_IS_EMAIL_MESSAGE });
    await ctx.db.query('UPDATE identities SET password_hash = $2, updated_at = now() WHERE id = $1', [
      actor.identityId, await hashPassword(new_password),
    ]);
    // Whoever knew the old password is signed out everywhere else.
    await ctx.db.query('UPDATE sessions SET revoked_at = now() WHERE identity_id = $1 AND id <> $2 AND revoked_at IS NULL', [
      actor.identityId, actor.sessionId,
    ]);
    return ok({ ok: true });
  },

  [setPhoneNumber.id]: async (ctx) => {
    const actor = actorOf(ctx);
    const { phone_number } = ctx.input.body;
    await ctx.db.query('UPDATE identities SET phone_number = $2, updated_at = now() WHERE id = $1', [actor.identityId, phone_number]);
    return ok({ phone_number });
  },

  [changeUserEmail.id]: async (ctx) => {
    const actor = actorOf(ctx);
    if (!ADMIN_ROLES.includes(actor.user.role)) throw new ApiError('FORBIDDEN_7003');
    const email = foldEmail(ctx.input.body.email);
    const [target] = await ctx.db.query<{ identity_id: string }>(
      'SELECT identity_id FROM spend_users WHERE id = $1 AND business_id = $2 AND NOT deleted',
      [ctx.input.params.user_uuid, actor.businessId],
    );
    // Another business's user is as unknown as a missing one (tenant isolation).
    if (!target) throw new ApiError('REQUEST_7004');
    // The sign-in address of a person who also belongs to another business is theirs to change,
    // not this business's admin's: a new address would reach a sign-in link or code for every
    // business of that identity (a way into another account, issue 24).
    const elsewhere = await ctx.db.query(
      'SELECT 1 FROM spend_users WHERE identity_id = $1 AND business_id <> $2 AND NOT deleted LIMIT 1',
      [target.identity_id, actor.businessId],
    );
    if (elsewhere.length > 0) {
      throw new ApiError('FORBIDDEN_7003', 'This person also belongs to another business, so only they can change their sign-in email.');
    }
    const clash = await ctx.db.query('SELECT 1 FROM identities WHERE lower(email) = $1 AND id <> $2', [email, target.identity_id]);
    if (clash.length > 0) throw validationError({ email: DUPLICATE_EMAIL_MESSAGE });
    // A new address is a claim until its owner confirms the code mailed to it (email verification).
    await ctx.db.query('UPDATE identities SET email = $2, email_verified_at = NULL, updated_at = now() WHERE id = $1', [target.identity_id, email]);
    await issueEmailOtp(ctx.deps, ctx.db, target.identity_id, email, ctx.deps.now(), 'verify-email');
    // The identity's users in every business show the new address; each is a mirrored row.
    const users = await ctx.db.query<{ id: string; business_id: string }>(
      'SELECT id, business_id FROM spend_users WHERE identity_id = $1', [target.identity_id],
    );
    for (const u of users) {
      const seqs = await allocateSeqs(ctx.db, u.business_id, 1);
      if (!seqs) continue;
      await ctx.db.query('UPDATE spend_users SET email = $2, change_seq = $3, updated_at = now() WHERE id = $1', [u.id, email, seqs.first]);
      await announceChange(ctx.db, u.business_id, seqs.first);
    }
    return ok({ id: ctx.input.params.user_uuid, email });
  },

  [putBankDetails.id]: async (ctx) => {
    const actor = actorOf(ctx);
    const b = ctx.input.body;
    await ctx.db.query(
      `INSERT INTO bank_details (spend_user_id, account_holder_name, routing_number, account_number) VALUES ($1, $2, $3, $4)
       ON CONFLICT (spend_user_id) DO UPDATE SET account_holder_name = $2, routing_number = $3, account_number = $4, updated_at = now()`,
      [actor.user.id, b.account_holder_name, b.routing_number, b.account_number],
    );
    return ok({ account_holder_name: b.account_holder_name, routing_number: b.routing_number, account_number_last4: last4(b.account_number) });
  },

  [putTaxInfo.id]: async (ctx) => {
    const actor = actorOf(ctx);
    if (!ADMIN_ROLES.includes(actor.user.role)) throw new ApiError('FORBIDDEN_7003');
    const b = ctx.input.body;
    await ctx.db.query(
      `INSERT INTO business_tax_info (business_id, legal_name, tin) VALUES ($1, $2, $3)
       ON CONFLICT (business_id) DO UPDATE SET legal_name = $2, tin = $3, updated_at = now()`,
      [actor.businessId, b.legal_name, b.tin],
    );
    return ok({ legal_name: b.legal_name, tin_last4: last4(b.tin) });
  },
} satisfies DomainHandlers;
