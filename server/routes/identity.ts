import { randomUUID } from 'node:crypto';
import {
  checkMfa, devOutbox, sendMfa, signUp, totpDelete, totpStart, totpVerify, verifyMfa, webConfig,
} from '../../schema/api/calls-identity.ts';
import { mfaDownMessage } from '../../schema/web-config.ts';
import { foldEmail } from '../auth/email-address.ts';
import { checkEmailOtp, issueEmailOtp, useEmailOtp } from '../auth/email-otp.ts';
import { hashPassword } from '../auth/password.ts';
import { clientAddress, onLoopbackListener } from '../auth/rate-limit.ts';
import { signUpQuotas, takeQuota } from '../auth/quotas.ts';
import { afterMfaGrant, callerMfaRequired, issueToken, mfaPending, openSession, subjectOfCaller } from '../auth/session.ts';
import { readWebConfig } from '../auth/settings.ts';
import { consumeCode, startEnrolment } from '../auth/totp.ts';
import { relyingParty, verifyAssertion } from '../auth/webauthn.ts';
import { deleteOwnFactor, enrolledFactors } from '../auth/webauthn-store.ts';
import { allocateSeqs, announceChange } from '../db/change-seq.ts';
import type { Queryable } from '../db/db.ts';
import type { Caller } from '../core/actor.ts';
import { ApiError, validationError } from '../core/errors.ts';
import { actorOf, ok, servedWhen, type DomainHandlers, type Reply } from '../http/handler.ts';
import { callerOf } from './identity-caller.ts';
import { codeGate, refuse, wrongCode, type CodeAttempt } from './identity-code-limits.ts';

export const DUPLICATE_EMAIL_MESSAGE = 'An account with this email already exists. Sign in instead.';
export const PASSWORD_IS_EMAIL_MESSAGE = 'password must not be your email address';

export async function assertMfaUp(db: Queryable): Promise<void> {
  const config = await readWebConfig(db);
  if (config.isMfaDown) throw new ApiError('AUTH_7022', mfaDownMessage(config));
}

/**
 * A token still waiting for its second factor may not enrol a new one over an existing factor
 * (an authenticator app or a passkey).
 */
export async function assertMayEnrol(db: Queryable, actor: Caller): Promise<void> {
  if (mfaPending(actor.claims) && (await enrolledFactors(db, actor.identityId)).length > 0) throw new ApiError('AUTH_7016');
}

export const FIRST_ENROLMENT_EMAIL_MESSAGE = 'Confirm the code we emailed you to finish setting up two-factor authentication.';

/**
 * A first enrolment from a sign-in still waiting for MFA (enforced MFA rolling out) is bound to
 * the mailbox: the password alone must not let someone bind their own authenticator first. The
 * caller must also give the code send-email-otp mailed. Answers the refusal (a wrong code counts
 * on the second-factor budget), else the checked code's id to use up once the TOTP code is right,
 * or null when none is needed (a fully signed-in caller enrolling from Settings).
 * assertMayEnrol already refused a pending token when an authenticator exists, so pending here
 * means none is active yet.
 */
export async function mailboxCheck(a: CodeAttempt, emailCode: string | undefined): Promise<Reply | { otpId: string } | null> {
  if (!mfaPending(a.actor.claims)) return null;
  if (!emailCode) throw new ApiError('AUTH_7016', FIRST_ENROLMENT_EMAIL_MESSAGE);
  const check = await checkEmailOtp(a.db, a.actor.identityId, emailCode, a.deps.now());
  if (check.refusal === 'PROFILE_7017') return wrongCode(a, check.refusal);
  return check.refusal ? refuse(check.refusal) : { otpId: check.otpId };
}

const emailTaken = async (db: Queryable, email: string) =>
  (await db.query('SELECT 1 FROM identities WHERE lower(email) = $1', [email])).length > 0;

export const identityHandlers = {
  [signUp.id]: async (ctx) => {
    const b = { ...ctx.input.body, email: foldEmail(ctx.input.body.email) };
    await takeQuota(ctx.c, ctx.db, signUpQuotas(ctx.deps.quotas, clientAddress(ctx.c), b.email), ctx.deps.now());
    if (foldEmail(b.password) === b.email) throw validationError({ password: PASSWORD_IS_EMAIL_MESSAGE });
    if (await emailTaken(ctx.db, b.email)) throw validationError({ email: DUPLICATE_EMAIL_MESSAGE });
    const hash = await hashPassword(b.password);
    const ids = { identityId: randomUUID(), businessId: randomUUID(), userId: randomUUID() };
    const sessionId = await ctx.deps.db
      .transaction(async (tx) => {
        await tx.query('INSERT INTO businesses (id, name, currency) VALUES ($1, $2, $3)', [ids.businessId, b.business_name, 'USD']);
        // Unverified until the mailed code is confirmed (email-verification.ts): the address is only a claim.
        await tx.query('INSERT INTO identities (id, email, password_hash, email_verified_at) VALUES ($1, $2, $3, NULL)', [
          ids.identityId, b.email, hash,
        ]);
        const seqs = await allocateSeqs(tx, ids.businessId, 1);
        const seq = seqs?.first ?? 1;
        await tx.query(
          `INSERT INTO spend_users (id, business_id, identity_id, role, first_name, last_name, email, change_seq)
           VALUES ($1, $2, $3, 'BUSINESS_OWNER', $4, $5, $6, $7)`,
          [ids.userId, ids.businessId, ids.identityId, b.first_name, b.last_name, b.email, seq],
        );
        await announceChange(tx, ids.businessId, seq);
        await issueEmailOtp(ctx.deps, tx, ids.identityId, b.email, ctx.deps.now(), 'verify-email');
        return openSession(tx, ids.identityId);
      })
      .catch((err: unknown) => {
        // Two sign-ups racing for one email: the unique index decides, with the same answer.
        if ((err as { code?: string }).code === '23505') throw validationError({ email: DUPLICATE_EMAIL_MESSAGE });
        throw err;
      });
    const { token } = await issueToken(ctx.deps, { ...ids, sessionId }, { scopes: ['default'], mfaRequired: false, mfaAuthed: false });
    return ok({ id_token: token, mfa_required: false }, 201);
  },

  // "Continue with Google" shows only where this server has a Google client (server/auth/sso/settings.ts).
  [webConfig.id]: async (ctx) => ok({ ...(await readWebConfig(ctx.db)), googleSignIn: ctx.deps.sso.google !== null }),

  // Switched off the route does not exist (404 as any unknown path); on, it answers only on a
  // loopback listener: anyone who can read it can sign in as anyone.
  [devOutbox.id]: servedWhen((deps) => deps.devOutbox, async (ctx) => {
    if (!onLoopbackListener(ctx.c)) throw new ApiError('REQUEST_7004');
    const messages = await ctx.db.query(
      `SELECT recipient AS "to", subject, body, ll_iso(created_at) AS created_at FROM dev_outbox
        WHERE lower(recipient) = $1 ORDER BY id DESC LIMIT 20`,
      [foldEmail(ctx.input.query.email)],
    );
    return ok({ messages });
  }),

  [totpStart.id]: async (ctx) => {
    const actor = callerOf(ctx);
    await assertMfaUp(ctx.db);
    await assertMayEnrol(ctx.db, actor);
    const [identity] = await ctx.db.query<{ email: string }>('SELECT email FROM identities WHERE id = $1', [actor.identityId]);
    const e = await startEnrolment(ctx.db, actor.identityId, identity?.email ?? 'Ledgerline');
    return ok({ authenticator_id: e.authenticatorId, secret: e.secret, otpauth_uri: e.uri }, 201);
  },

  [totpVerify.id]: async (ctx) => {
    const actor = callerOf(ctx);
    await assertMfaUp(ctx.db);
    await assertMayEnrol(ctx.db, actor);
    const attempt = { c: ctx.c, deps: ctx.deps, db: ctx.db, actor };
    const blocked = await codeGate(attempt);
    if (blocked) return blocked;
    const mailbox = await mailboxCheck(attempt, ctx.input.body.email_code);
    if (mailbox && !('otpId' in mailbox)) return mailbox;
    const id = ctx.input.params.authenticator_id;
    const used = await consumeCode(ctx.db, actor.identityId, ctx.input.body.code, ctx.deps.now(), { authenticatorId: id, activate: true });
    // The email code is only checked so far: after a wrong TOTP code it serves the next try.
    if (!used) return wrongCode(attempt, 'AUTH_7025');
    // Lost to a concurrent use of the same email code: thrown, so the activation rolls back.
    if (mailbox && !(await useEmailOtp(ctx.db, mailbox.otpId, ctx.deps.now()))) throw new ApiError('PROFILE_7017');
    return ok({ authenticator_id: used, active: true });
  },

  [totpDelete.id]: async (ctx) => {
    const actor = actorOf(ctx);
    if (!(await deleteOwnFactor(ctx.db, 'totp_authenticators', ctx.input.params.authenticator_id, actor.identityId))) throw new ApiError('REQUEST_7004');
    return ok({ ok: true });
  },

  [sendMfa.id]: async (ctx) => {
    const actor = callerOf(ctx);
    await assertMfaUp(ctx.db);
    const factors = await enrolledFactors(ctx.db, actor.identityId);
    return ok({ factor: 'totp', enrolled: factors.includes('totp'), factors });
  },

  [checkMfa.id]: async (ctx) => {
    const actor = callerOf(ctx);
    await assertMfaUp(ctx.db);
    const factors = await enrolledFactors(ctx.db, actor.identityId);
    return ok({
      mfa_required: await callerMfaRequired(ctx.db, actor),
      mfa_authed: actor.claims.ramp_mfa_authed,
      totp_enrolled: factors.includes('totp'),
      factors,
    });
  },

  [verifyMfa.id]: async (ctx) => {
    const actor = callerOf(ctx);
    await assertMfaUp(ctx.db);
    const attempt = { c: ctx.c, deps: ctx.deps, db: ctx.db, actor };
    const blocked = await codeGate(attempt);
    if (blocked) return blocked;
    const body = ctx.input.body;
    if ('webauthn' in body) {
      const owner = { identityId: actor.identityId, sessionId: actor.sessionId };
      const checked = await verifyAssertion(ctx.db, relyingParty(ctx.c), owner, body.webauthn, ctx.deps.now());
      if (!checked.ok) {
        const r = checked.refusal;
        return r.counted ? wrongCode(attempt, r.code, r.message) : refuse(r.code, r.message);
      }
    } else if (!(await consumeCode(ctx.db, actor.identityId, body.code, ctx.deps.now()))) {
      return wrongCode(attempt, 'AUTH_7025');
    }
    // The same session, now fully scoped: signing out still ends it.
    // On any surface (issue 31): a surface token is re-issued for the same surface.
    const { token } = await issueToken(ctx.deps, subjectOfCaller(actor), afterMfaGrant(actor));
    return ok({ id_token: token, mfa_required: false });
  },
} satisfies DomainHandlers;
