/**
 * Email verification at sign-up (issue 24): the code sign-up mailed (purpose 'verify-email' of
 * auth/email-otp.ts: 6 digits, 10 minutes, 5 guesses), resent on the send-email-otp limits, and
 * confirmed here. PROFILE_7016 expired, PROFILE_7017 invalid (counted on the second-factor budget
 * like every code check), PROFILE_7027 already verified.
 */
import { getEmailVerification, sendEmailVerification, verifyEmail, type EmailVerificationState } from '../../schema/api/calls-support-access.ts';
import { consumeEmailOtp, issueEmailOtp } from '../auth/email-otp.ts';
import { markEmailVerified } from '../auth/email-verification.ts';
import { clientAddress, emailOtpLimits, takeRateLimit } from '../auth/rate-limit.ts';
import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { codeGate, refuse, wrongCode } from './identity-code-limits.ts';

async function verificationOf(db: Queryable, identityId: string): Promise<EmailVerificationState> {
  const [row] = await db.query<{ email: string; verified_at: string | null }>(
    'SELECT email, ll_iso(email_verified_at) AS verified_at FROM identities WHERE id = $1', [identityId],
  );
  if (!row) throw new ApiError('AUTH_7002');
  return { email: row.email, verified: row.verified_at !== null, verified_at: row.verified_at };
}

export const emailVerificationHandlers = {
  [getEmailVerification.id]: async (ctx) => ok(await verificationOf(ctx.db, actorOf(ctx).identityId)),

  [sendEmailVerification.id]: async (ctx) => {
    const actor = actorOf(ctx);
    const state = await verificationOf(ctx.db, actor.identityId);
    if (state.verified) throw new ApiError('PROFILE_7027');
    // Each call mails someone: the send-email-otp budget, per person and per client address.
    await takeRateLimit(ctx.c, ctx.db, emailOtpLimits(actor.identityId, clientAddress(ctx.c)), ctx.deps.now());
    const expiresAt = await issueEmailOtp(ctx.deps, ctx.db, actor.identityId, state.email, ctx.deps.now(), 'verify-email');
    return ok({ sent: true, expires_at: expiresAt.toISOString() });
  },

  [verifyEmail.id]: async (ctx) => {
    const actor = actorOf(ctx);
    if ((await verificationOf(ctx.db, actor.identityId)).verified) return refuse('PROFILE_7027');
    const attempt = { c: ctx.c, deps: ctx.deps, db: ctx.db, actor };
    const blocked = await codeGate(attempt);
    if (blocked) return blocked;
    const now = ctx.deps.now();
    const refusal = await consumeEmailOtp(ctx.db, actor.identityId, ctx.input.body.code, now, 'verify-email');
    // An expired code is no guess: only wrong ones use up the budget.
    if (refusal === 'PROFILE_7017') return wrongCode(attempt, refusal);
    if (refusal) return refuse(refusal);
    await markEmailVerified(ctx.db, actor.identityId, new Date(now));
    return ok(await verificationOf(ctx.db, actor.identityId));
  },
} satisfies DomainHandlers;
