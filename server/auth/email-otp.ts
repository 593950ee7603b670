import { createHash, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/db.ts';
import { foldEmail } from './email-address.ts';
import { enqueueMail, type TemplatedMail } from '../mail/outbox.ts';
import type { MailSettings } from '../mail/settings.ts';
import type { MailTemplateName } from '../mail/templates.ts';

/** Emailed one-time codes: 6 digits, 10 minutes, at most 5 guesses per code. */
const EMAIL_OTP_TTL_SECONDS = 10 * 60;
const MAX_ATTEMPTS = 5;

const hashCode = (code: string) => createHash('sha256').update(code).digest();

/**
 * What sending mail needs to know: whether the development mailbox keeps a readable copy, the
 * log, and (tests) mail settings other than the environment's (server/mail/settings.ts).
 */
export type MailDeps = { devOutbox: boolean; log?: (line: string) => void; mail?: MailSettings };

/**
 * Sends a mail its caller wrote (subject and body): the mail layer's `notice` template (server/mail/,
 * issue 32). Codes, sign-in links, invites, the debit check and notifications have templates of
 * their own and enqueue them (enqueueMail, sendInviteMail); this is for the rest. The mail is enqueued in `db`, the caller's transaction, so a rolled-back request sends nothing.
 * With SMTP_URL the mail job delivers it after commit (retried with backoff, sent once); without,
 * the server log line is the delivery, as before (the demo reads codes there). Only when the
 * development mailbox is on (LEDGERLINE_DEV_OUTBOX=1) is a readable copy kept in dev_outbox,
 * which GET /v1/public/dev/outbox reads; off, no body with a code or link stays in the database
 * (the queue empties a mail's bodies once it is sent). An empty subject or body throws
 * MailTemplateError: a mail with nothing in it is a caller's bug, never sent.
 */
export async function sendMail(deps: MailDeps, db: Queryable, to: string, subject: string, body: string): Promise<void> {
  await enqueueMail(deps, db, { to: foldEmail(to), template: 'notice', values: { subject, body } });
}

/**
 * What a code is for (migration 029): the step-up / first-enrolment code, or the sign-up check of
 * the mailbox. A code of one purpose never passes for the other, and a new code replaces only
 * the older ones of its own purpose.
 */
export type EmailOtpPurpose = 'step-up' | 'verify-email';

/** Each purpose's own mail template (server/mail/templates.ts). */
const TEMPLATE = { 'step-up': 'sign_in_code', 'verify-email': 'verify_email' } as const satisfies Record<EmailOtpPurpose, MailTemplateName>;

export async function issueEmailOtp(
  deps: MailDeps,
  db: Queryable,
  identityId: string,
  email: string,
  nowMs: number,
  purpose: EmailOtpPurpose = 'step-up',
  /** The mail when the code confirms something of its own (a firm's application, issue 31: its own template); else the purpose's template. */
  mail?: (code: string) => TemplatedMail,
): Promise<Date> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = new Date(nowMs + EMAIL_OTP_TTL_SECONDS * 1000);
  // A new code replaces the previous ones: only the latest email is valid.
  await db.query('UPDATE email_otps SET used_at = $2 WHERE identity_id = $1 AND purpose = $3 AND used_at IS NULL', [
    identityId, new Date(nowMs), purpose,
  ]);
  await db.query('INSERT INTO email_otps (id, identity_id, code_hash, expires_at, created_at, purpose) VALUES ($1, $2, $3, $4, $5, $6)', [
    randomUUID(), identityId, hashCode(code).toString('hex'), expiresAt, new Date(nowMs), purpose,
  ]);
  if (mail) await enqueueMail(deps, db, { to: foldEmail(email), ...mail(code) });
  else await enqueueMail(deps, db, { to: foldEmail(email), template: TEMPLATE[purpose], values: { code } });
  return expiresAt;
}

export type EmailOtpCheck = { refusal: 'PROFILE_7016' | 'PROFILE_7017' } | { refusal: null; otpId: string };

/**
 * Checks a code against the latest one without using it up: PROFILE_7016 when it expired,
 * PROFILE_7017 when wrong or missing (a wrong guess is counted on the code). The refusal is
 * answered, not thrown, so the caller can commit the counted attempt.
 */
export async function checkEmailOtp(
  db: Queryable,
  identityId: string,
  code: string,
  nowMs: number,
  purpose: EmailOtpPurpose = 'step-up',
): Promise<EmailOtpCheck> {
  const [row] = await db.query<{ id: string; code_hash: string; expires_at: Date; attempts: number }>(
    `SELECT id, code_hash, expires_at, attempts FROM email_otps
      WHERE identity_id = $1 AND purpose = $2 AND used_at IS NULL ORDER BY created_at DESC LIMIT 1`,
    [identityId, purpose],
  );
  if (!row || row.attempts >= MAX_ATTEMPTS) return { refusal: 'PROFILE_7017' };
  if (new Date(row.expires_at).getTime() <= nowMs) return { refusal: 'PROFILE_7016' };
  if (!timingSafeEqual(hashCode(code), Buffer.from(row.code_hash, 'hex'))) {
    await db.query('UPDATE email_otps SET attempts = attempts + 1 WHERE id = $1', [row.id]);
    return { refusal: 'PROFILE_7017' };
  }
  return { refusal: null, otpId: row.id };
}

/** Uses up a checked code by one conditional UPDATE: of two concurrent uses, one wins. */
export async function useEmailOtp(db: Queryable, otpId: string, nowMs: number): Promise<boolean> {
  const used = await db.query('UPDATE email_otps SET used_at = $2 WHERE id = $1 AND used_at IS NULL RETURNING id', [otpId, new Date(nowMs)]);
  return used.length > 0;
}

/** checkEmailOtp then useEmailOtp. */
export async function consumeEmailOtp(
  db: Queryable,
  identityId: string,
  code: string,
  nowMs: number,
  purpose: EmailOtpPurpose = 'step-up',
): Promise<'PROFILE_7016' | 'PROFILE_7017' | null> {
  const check = await checkEmailOtp(db, identityId, code, nowMs, purpose);
  if (check.refusal) return check.refusal;
  return (await useEmailOtp(db, check.otpId, nowMs)) ? null : 'PROFILE_7017';
}
