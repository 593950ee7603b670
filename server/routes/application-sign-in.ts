import { createHash, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { APPLICATION_CODE_TTL_SECONDS, APPLICATION_TOKEN_TTL_SECONDS, applicationStart, applicationVerify } from '../../schema/api/calls-application-steps.ts';
import { foldEmail } from '../auth/email-address.ts';
import { markEmailVerified } from '../auth/email-verification.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { clientAddress } from '../auth/rate-limit.ts';
import { takeQuota, waitWords, type Quota, type QuotaSettings } from '../auth/quotas.ts';
import { surfaceSignIn } from '../auth/session.ts';
import { ssoEnforcedRefusal } from '../auth/sso/enforcement.ts';
import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { hashToken, NO_PASSWORD } from '../domain/admin-users.ts';
import { ok, type DomainHandlers } from '../http/handler.ts';

/**
 * Issue 31, the applicant's sign-in (docs/design/issue-31-surfaces.md §2.4, lead's decision 2):
 * `application.start` mails a 6-digit code (10 minutes, 5 guesses, sha256 only, a new code kills
 * the older ones) and answers 204 whatever the address (no account oracle); `application.verify`
 * proves the mailbox, finds or creates the identity (a new one gets an unusable password hash),
 * finds the application (one it is a user of, when named) or opens a new one, and signs in a
 * FINANCING_APPLICATION token carrying `email-otp` for 12 h. An SSO-enforced domain answers
 * AUTH_7022 on both: the code is no way around single sign-on.
 */
const MAX_ATTEMPTS = 5;
const HOUR = 3600;
const hashCode = (code: string) => createHash('sha256').update(code).digest();

function applicationCodeQuotas(q: QuotaSettings, address: string | null, email: string): Quota[] {
  const words = (used: number, wait: number) => `${used} application codes were requested in the last hour; try again in ${waitWords(wait)}.`;
  return [
    ...(address ? [{ key: `application-codes:address:${address}`, max: q.signInLinksPerAddressPerHour, windowSeconds: HOUR, amount: 1, refusal: words }] : []),
    { key: `application-codes:email:${email}`, max: q.signInLinksPerEmailPerHour, windowSeconds: HOUR, amount: 1, refusal: words },
  ];
}

type CodeRow = { id: string; first_name: string; last_name: string; referral_code: string | null; code_hash: string; attempts: number; expires_at: Date };

/** The latest unused code of the address, checked; a wrong guess is counted (and committed: no transaction here). */
async function checkCode(db: Queryable, email: string, code: string, nowMs: number): Promise<CodeRow> {
  const [row] = await db.query<CodeRow>(
    `SELECT id::text, first_name, last_name, referral_code, code_hash, attempts, expires_at FROM application_sign_in_codes
      WHERE email = $1 AND used_at IS NULL ORDER BY created_at DESC LIMIT 1`, [email]);
  if (!row || row.attempts >= MAX_ATTEMPTS) throw new ApiError('PROFILE_7017');
  if (new Date(row.expires_at).getTime() <= nowMs) throw new ApiError('PROFILE_7016');
  if (!timingSafeEqual(hashCode(code), Buffer.from(row.code_hash, 'hex'))) {
    await db.query('UPDATE application_sign_in_codes SET attempts = attempts + 1 WHERE id = $1', [row.id]);
    throw new ApiError('PROFILE_7017');
  }
  return row;
}

async function identityFor(tx: Queryable, email: string, now: Date): Promise<string> {
  const [found] = await tx.query<{ id: string }>('SELECT id::text FROM identities WHERE lower(email) = $1', [email]);
  if (found) return found.id;
  const id = randomUUID();
  // No password: a password sign-in fails as a wrong one until the person sets one (passwordless link).
  await tx.query('INSERT INTO identities (id, email, password_hash, email_verified_at) VALUES ($1, $2, $3, $4)', [id, email, NO_PASSWORD, now]);
  return id;
}

/** An open invite of this address joins its application as a co-applicant (once); any other token is 404. */
async function acceptInvite(tx: Queryable, identityId: string, email: string, code: CodeRow, token: string, now: Date): Promise<string> {
  const [invite] = await tx.query<{ id: string; financing_application_id: string }>(
    `UPDATE application_invites i SET accepted_at = $3 FROM financing_applications a
      WHERE i.token_hash = $1 AND i.email = $2 AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > $3
        AND a.id = i.financing_application_id AND a.status <> 'WITHDRAWN'
      RETURNING i.id::text, i.financing_application_id::text`,
    [hashToken(token), email, now]);
  if (!invite) throw new ApiError('REQUEST_7004', 'This invite was not found.');
  await tx.query(
    `INSERT INTO financing_application_users (financing_application_id, identity_id, role, first_name, last_name)
     VALUES ($1, $2, 'CO_APPLICANT', $3, $4) ON CONFLICT DO NOTHING`, [invite.financing_application_id, identityId, code.first_name, code.last_name]);
  return invite.financing_application_id;
}

/**
 * The named application when the identity is a user of it (else 404); unnamed, the newest draft it
 * started (coming back with a new code resumes it, as a mailed code is the only way back in),
 * or a new draft.
 */
async function applicationFor(tx: Queryable, identityId: string, code: CodeRow, wanted: string | undefined): Promise<string> {
  if (!wanted) {
    const [draft] = await tx.query<{ id: string }>(
      `SELECT a.id::text FROM financing_application_users u JOIN financing_applications a ON a.id = u.financing_application_id
        WHERE u.identity_id = $1 AND u.role = 'APPLICANT' AND a.status = 'DRAFT' ORDER BY a.created_at DESC, a.id LIMIT 1`, [identityId]);
    if (draft) return draft.id;
  }
  if (wanted) {
    const rows = await tx.query(
      `SELECT 1 FROM financing_application_users u JOIN financing_applications a ON a.id = u.financing_application_id
        WHERE u.financing_application_id = $1 AND u.identity_id = $2 AND a.status <> 'WITHDRAWN'`, [wanted, identityId]);
    if (rows.length === 0) throw new ApiError('REQUEST_7004', 'There is no such application.');
    return wanted;
  }
  const id = randomUUID();
  await tx.query(
    'INSERT INTO financing_applications (id, referral_code, created_by_identity_id) VALUES ($1, $2, $3)', [id, code.referral_code, identityId]);
  await tx.query(
    `INSERT INTO financing_application_users (financing_application_id, identity_id, role, first_name, last_name)
     VALUES ($1, $2, 'APPLICANT', $3, $4)`, [id, identityId, code.first_name, code.last_name]);
  return id;
}

export const applicationSignInHandlers = {
  [applicationStart.id]: async (ctx) => {
    const body = ctx.input.body;
    const email = foldEmail(body.email);
    const enforced = await ssoEnforcedRefusal(ctx.db, email);
    if (enforced) throw enforced;
    await takeQuota(ctx.c, ctx.db, applicationCodeQuotas(ctx.deps.quotas, clientAddress(ctx.c), email), ctx.deps.now());
    const now = ctx.deps.now();
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await ctx.deps.db.transaction(async (tx) => {
      await tx.query('UPDATE application_sign_in_codes SET used_at = $2 WHERE email = $1 AND used_at IS NULL', [email, new Date(now)]);
      await tx.query(
        `INSERT INTO application_sign_in_codes (id, email, first_name, last_name, referral_code, code_hash, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [randomUUID(), email, body.first_name, body.last_name, body.referral_code ?? null, hashCode(code).toString('hex'),
          new Date(now + APPLICATION_CODE_TTL_SECONDS * 1000), new Date(now)],
      );
    });
    await enqueueMail(ctx.deps, ctx.db, { to: email, template: 'application_code', values: { code } });
    return ctx.c.body(null, 204);
  },

  [applicationVerify.id]: async (ctx) => {
    const body = ctx.input.body;
    const email = foldEmail(body.email);
    const enforced = await ssoEnforcedRefusal(ctx.db, email);
    if (enforced) throw enforced;
    const now = ctx.deps.now();
    const code = await checkCode(ctx.db, email, body.code, now);
    const answer = await ctx.deps.db.transaction(async (tx) => {
      // Used by one conditional UPDATE: of two concurrent uses of one code, one signs in.
      const used = await tx.query('UPDATE application_sign_in_codes SET used_at = $2 WHERE id = $1 AND used_at IS NULL RETURNING id', [code.id, new Date(now)]);
      if (used.length === 0) throw new ApiError('PROFILE_7017');
      const identityId = await identityFor(tx, email, new Date(now));
      await markEmailVerified(tx, identityId, new Date(now));
      const applicationId = body.invite_token
        ? await acceptInvite(tx, identityId, email, code, body.invite_token, new Date(now))
        : await applicationFor(tx, identityId, code, body.financing_application_id);
      const signedIn = await surfaceSignIn(ctx.deps, tx, identityId, { kind: 'FINANCING_APPLICATION', financing_application_id: applicationId }, {
        extraScopes: ['email-otp'], ttlSeconds: APPLICATION_TOKEN_TTL_SECONDS,
      });
      return { ...signedIn, financing_application_id: applicationId };
    });
    return ok(answer);
  },
} satisfies DomainHandlers;
