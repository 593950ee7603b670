/**
 * The attempt limit of every second-factor code (TOTP at verify-mfa, first enrolment and step-up;
 * emailed codes at verify-email-otp and the enrolment email_code): see `secondFactorLimits`.
 * Wrong codes are counted in the request's write transaction, so their refusals are answered
 * (Reply), never thrown: a thrown error would roll the count back.
 */
import type { Context } from 'hono';
import { ERROR_CATALOGUE, errorBody, type ErrorCode } from '../../schema/errors.ts';
import { foldEmail } from '../auth/email-address.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { recordFailure, throttledFor } from '../auth/rate-limit.ts';
import { mfaPending, revokeSession } from '../auth/session.ts';
import { secondFactorLimits, secondFactorNoticeLimit } from '../auth/sign-in-limits.ts';
import type { Queryable } from '../db/db.ts';
import type { Caller } from '../core/actor.ts';
import type { AppDeps } from '../core/deps.ts';
import type { Reply } from '../http/handler.ts';

/**
 * A refusal answered (not thrown) so the write transaction commits what it counted: a failed
 * attempt must stay counted, and a thrown error would roll it back.
 */
export const refuse = (code: ErrorCode, message?: string): Reply => ({ status: ERROR_CATALOGUE[code].status, body: errorBody(code, message) });

/** What a code check runs with: the route's context, its transaction and the caller. */
export type CodeAttempt = { c: Context; deps: AppDeps; db: Queryable; actor: Caller };

export const WRONG_CODES_SUBJECT = 'Wrong verification codes on your Ledgerline account';

const limitsOf = (a: CodeAttempt) => secondFactorLimits(a.actor.identityId, a.actor.sessionId);

/**
 * A token still waiting for its second factor dies with its session once the codes are used up:
 * whoever holds it (perhaps someone who guessed the password) must sign in with it again.
 */
async function endPendingSession(a: CodeAttempt): Promise<void> {
  if (mfaPending(a.actor.claims)) await revokeSession(a.db, a.actor.sessionId);
}

/**
 * Before any code is checked: while the person or this session has used up its wrong codes,
 * every code is refused (a correct one too, or guessing would simply go on) with 429 AUTH_7029
 * and Retry-After; null lets the check go ahead.
 */
export async function codeGate(a: CodeAttempt): Promise<Reply | null> {
  const wait = await throttledFor(a.db, limitsOf(a), a.deps.now());
  if (wait === null) return null;
  a.c.header('Retry-After', String(wait));
  await endPendingSession(a);
  return refuse('AUTH_7029');
}

/**
 * A wrong code: counted, and answered with `code`. The one that uses the budget up also ends a
 * pending session and tells the person by email, once per block.
 */
export async function wrongCode(a: CodeAttempt, code: ErrorCode, message?: string): Promise<Reply> {
  const now = a.deps.now();
  const limits = limitsOf(a);
  await recordFailure(a.db, limits, now);
  if ((await throttledFor(a.db, limits, now)) === null) return refuse(code, message);
  await endPendingSession(a);
  await tellOnce(a, now);
  return refuse(code, message);
}

async function tellOnce(a: CodeAttempt, now: number): Promise<void> {
  const notice = secondFactorNoticeLimit(a.actor.identityId);
  if ((await throttledFor(a.db, [notice], now)) !== null) return;
  await recordFailure(a.db, [notice], now);
  const [identity] = await a.db.query<{ email: string }>('SELECT email FROM identities WHERE id = $1', [a.actor.identityId]);
  if (!identity) return;
  await enqueueMail(a.deps, a.db, { to: foldEmail(identity.email), template: 'wrong_codes', values: { minutes: 15 } });
}
