import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import {
  checkMfa, devOutbox, sendMfa, signUp, totpDelete, totpStart, totpVerify, verifyMfa, webConfig,
} from '../../schema/api/calls-identity.ts';
import { mfaDownMessage } from '../../schema/web-config.ts';
import { ERROR_CATALOGUE, errorBody, type ErrorCode } from '../../schema/errors.ts';
import { consumeEmailOtp, devOutboxEnabled } from '../auth/email-otp.ts';
import { hashPassword } from '../auth/password.ts';
import { clientAddress, signUpLimits, takeRateLimit } from '../auth/rate-limit.ts';
import { issueToken, mfaRequiredFor, openSession } from '../auth/session.ts';
import { readWebConfig } from '../auth/settings.ts';
import { consumeCode, hasActiveTotp, startEnrolment } from '../auth/totp.ts';
import { allocateSeqs, announceChange } from '../db/change-seq.ts';
import type { Queryable } from '../db/db.ts';
import type { Actor } from '../http/actor.ts';
import type { AppDeps } from '../http/deps.ts';
import { ApiError, validationError } from '../http/errors.ts';
import { actorOf, ok, register, type Reply } from '../http/register.ts';

export const DUPLICATE_EMAIL_MESSAGE = 'An account with this email already exists. Sign in instead.';
export const PASSWORD_IS_EMAIL_MESSAGE = 'password must not be your email address';

async function assertMfaUp(db: Queryable): Promise<void> {
  const config = await readWebConfig(db);
  if (config.isMfaDown) throw new ApiError('AUTH_7022', mfaDownMessage(config));
}

/** A token still waiting for its second factor may not enrol a new one over an existing factor. */
async function assertMayEnrol(db: Queryable, actor: Actor): Promise<void> {
  const pending = actor.claims.ramp_mfa_required && !actor.claims.ramp_mfa_authed;
  if (pending && (await hasActiveTotp(db, actor.identityId))) throw new ApiError('AUTH_7016');
}

export const FIRST_ENROLMENT_EMAIL_MESSAGE = 'Confirm the code we emailed you to finish setting up two-factor authentication.';

/**
 * A refusal answered (not thrown) so the write transaction commits what it counted: a failed
 * attempt must stay counted, and a thrown error would roll it back.
 */
export const refuse = (code: ErrorCode): Reply => ({ status: ERROR_CATALOGUE[code].status, body: errorBody(code) });

/**
 * A first enrolment from a sign-in still waiting for MFA (enforced MFA rolling out) is bound to
 * the mailbox: the password alone must not let someone bind their own authenticator first. The
 * caller must also give the code send-email-otp mailed; null when it checks out or is not needed
 * (a fully signed-in caller enrolling from Settings). assertMayEnrol already refused a pending
 * token when an authenticator exists, so pending here means none is active yet.
 */
async function mailboxRefusal(db: Queryable, actor: Actor, emailCode: string | undefined, nowMs: number): Promise<Reply | null> {
  const pending = actor.claims.ramp_mfa_required && !actor.claims.ramp_mfa_authed;
  if (!pending) return null;
  if (!emailCode) throw new ApiError('AUTH_7016', FIRST_ENROLMENT_EMAIL_MESSAGE);
  const refusal = await consumeEmailOtp(db, actor.identityId, emailCode, nowMs);
  return refusal ? refuse(refusal) : null;
}

const emailTaken = async (db: Queryable, email: string) =>
  (await db.query('SELECT 1 FROM identities WHERE lower(email) = lower($1)', [email])).length > 0;

export function registerIdentityRoutes(app: Hono, deps: AppDeps): void {
  register(app, deps, signUp, async (ctx) => {
    const b = ctx.input.body;
    await takeRateLimit(ctx.c, ctx.db, signUpLimits(clientAddress(ctx.c)), deps.now());
    if (b.password.trim().toLowerCase() === b.email.trim().toLowerCase()) throw validationError({ password: PASSWORD_IS_EMAIL_MESSAGE });
    if (await emailTaken(ctx.db, b.email)) throw validationError({ email: DUPLICATE_EMAIL_MESSAGE });
    const hash = await hashPassword(b.password);
    const ids = { identityId: randomUUID(), businessId: randomUUID(), userId: randomUUID() };
    const sessionId = await deps.db
      .transaction(async (tx) => {
        await tx.query('INSERT INTO businesses (id, name, currency) VALUES ($1, $2, $3)', [ids.businessId, b.business_name, 'USD']);
        await tx.query('INSERT INTO identities (id, email, password_hash) VALUES ($1, $2, $3)', [ids.identityId, b.email, hash]);
        const seqs = await allocateSeqs(tx, ids.businessId, 1);
        const seq = seqs?.first ?? 1;
        await tx.query(
          `INSERT INTO spend_users (id, business_id, identity_id, role, first_name, last_name, email, change_seq)
           VALUES ($1, $2, $3, 'BUSINESS_OWNER', $4, $5, $6, $7)`,
          [ids.userId, ids.businessId, ids.identityId, b.first_name, b.last_name, b.email, seq],
        );
        await announceChange(tx, ids.businessId, seq);
        return openSession(tx, ids.identityId);
      })
      .catch((err: unknown) => {
        // Two sign-ups racing for one email: the unique index decides, with the same answer.
        if ((err as { code?: string }).code === '23505') throw validationError({ email: DUPLICATE_EMAIL_MESSAGE });
        throw err;
      });
    const { token } = await issueToken(deps, { ...ids, sessionId }, { scopes: ['default'], mfaRequired: false, mfaAuthed: false });
    return ok({ id_token: token, mfa_required: false }, 201);
  });

  register(app, deps, webConfig, async (ctx) => ok(await readWebConfig(ctx.db)));

  register(app, deps, devOutbox, async (ctx) => {
    if (!devOutboxEnabled()) throw new ApiError('REQUEST_7004');
    const messages = await ctx.db.query(
      `SELECT recipient AS "to", subject, body, ll_iso(created_at) AS created_at FROM dev_outbox
        WHERE lower(recipient) = lower($1) ORDER BY id DESC LIMIT 20`,
      [ctx.input.query.email],
    );
    return ok({ messages });
  });

  register(app, deps, totpStart, async (ctx) => {
    const actor = actorOf(ctx);
    await assertMfaUp(ctx.db);
    await assertMayEnrol(ctx.db, actor);
    const [identity] = await ctx.db.query<{ email: string }>('SELECT email FROM identities WHERE id = $1', [actor.identityId]);
    const e = await startEnrolment(ctx.db, actor.identityId, identity?.email ?? 'Ledgerline');
    return ok({ authenticator_id: e.authenticatorId, secret: e.secret, otpauth_uri: e.uri }, 201);
  });

  register(app, deps, totpVerify, async (ctx) => {
    const actor = actorOf(ctx);
    await assertMfaUp(ctx.db);
    await assertMayEnrol(ctx.db, actor);
    // The email code is consumed first; a wrong TOTP code below throws, which rolls the
    // transaction back and leaves the email code usable for the next try.
    const refusal = await mailboxRefusal(ctx.db, actor, ctx.input.body.email_code, deps.now());
    if (refusal) return refusal;
    const id = ctx.input.params.authenticator_id;
    const used = await consumeCode(ctx.db, actor.identityId, ctx.input.body.code, deps.now(), { authenticatorId: id, activate: true });
    if (!used) throw new ApiError('AUTH_7025');
    return ok({ authenticator_id: used, active: true });
  });

  register(app, deps, totpDelete, async (ctx) => {
    const actor = actorOf(ctx);
    const rows = await ctx.db.query('DELETE FROM totp_authenticators WHERE id = $1 AND identity_id = $2 RETURNING id', [
      ctx.input.params.authenticator_id, actor.identityId,
    ]);
    if (rows.length === 0) throw new ApiError('REQUEST_7004');
    return ok({ ok: true });
  });

  register(app, deps, sendMfa, async (ctx) => {
    const actor = actorOf(ctx);
    await assertMfaUp(ctx.db);
    return ok({ factor: 'totp', enrolled: await hasActiveTotp(ctx.db, actor.identityId) });
  });

  register(app, deps, checkMfa, async (ctx) => {
    const actor = actorOf(ctx);
    await assertMfaUp(ctx.db);
    return ok({
      mfa_required: await mfaRequiredFor(ctx.db, actor.identityId, actor.businessId),
      mfa_authed: actor.claims.ramp_mfa_authed,
      totp_enrolled: await hasActiveTotp(ctx.db, actor.identityId),
    });
  });

  register(app, deps, verifyMfa, async (ctx) => {
    const actor = actorOf(ctx);
    await assertMfaUp(ctx.db);
    const used = await consumeCode(ctx.db, actor.identityId, ctx.input.body.code, deps.now());
    if (!used) throw new ApiError('AUTH_7025');
    // The same session, now fully scoped: signing out still ends it.
    const { token } = await issueToken(
      deps,
      { identityId: actor.identityId, userId: actor.user.id, businessId: actor.businessId, sessionId: actor.sessionId },
      { scopes: ['default'], mfaRequired: actor.claims.ramp_mfa_required, mfaAuthed: true },
    );
    return ok({ id_token: token, mfa_required: false });
  });
}
