import { createHash, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/db.ts';

/** Emailed one-time codes: 6 digits, 10 minutes, at most 5 guesses per code. */
export const EMAIL_OTP_TTL_SECONDS = 10 * 60;
const MAX_ATTEMPTS = 5;

const hashCode = (code: string) => createHash('sha256').update(code).digest();

/** Development mail is readable unless this is production without LEDGERLINE_DEV_OUTBOX=1. */
export const devOutboxEnabled = (env: NodeJS.ProcessEnv = process.env) =>
  env.NODE_ENV !== 'production' || env.LEDGERLINE_DEV_OUTBOX === '1';

/**
 * "Sends" mail: no mail server exists here, so it goes to the server log and the dev outbox
 * table (read by GET /v1/public/dev/outbox in development).
 */
export async function sendMail(db: Queryable, to: string, subject: string, body: string, log = console.log): Promise<void> {
  log(`[ledgerline] mail to ${to}: ${subject} — ${body}`);
  if (devOutboxEnabled()) {
    await db.query('INSERT INTO dev_outbox (recipient, subject, body) VALUES ($1, $2, $3)', [to, subject, body]);
  }
}

export async function issueEmailOtp(db: Queryable, identityId: string, email: string, nowMs: number): Promise<Date> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = new Date(nowMs + EMAIL_OTP_TTL_SECONDS * 1000);
  // A new code replaces the previous ones: only the latest email is valid.
  await db.query('UPDATE email_otps SET used_at = $2 WHERE identity_id = $1 AND used_at IS NULL', [identityId, new Date(nowMs)]);
  await db.query('INSERT INTO email_otps (id, identity_id, code_hash, expires_at, created_at) VALUES ($1, $2, $3, $4, $5)', [
    randomUUID(), identityId, hashCode(code).toString('hex'), expiresAt, new Date(nowMs),
  ]);
  await sendMail(db, email, 'Your Ledgerline verification code', `Your verification code is ${code}. It expires in 10 minutes.`);
  return expiresAt;
}

/**
 * Consumes the latest code: PROFILE_7016 when it expired, PROFILE_7017 when wrong or missing.
 * Answers the refusal instead of throwing it, so the caller can commit the counted attempt
 * (a thrown error would roll the write transaction back).
 */
export async function consumeEmailOtp(
  db: Queryable,
  identityId: string,
  code: string,
  nowMs: number,
): Promise<'PROFILE_7016' | 'PROFILE_7017' | null> {
  const [row] = await db.query<{ id: string; code_hash: string; expires_at: Date; attempts: number }>(
    `SELECT id, code_hash, expires_at, attempts FROM email_otps
      WHERE identity_id = $1 AND used_at IS NULL ORDER BY created_at DESC LIMIT 1`,
    [identityId],
  );
  if (!row || row.attempts >= MAX_ATTEMPTS) return 'PROFILE_7017';
  if (new Date(row.expires_at).getTime() <= nowMs) return 'PROFILE_7016';
  if (!timingSafeEqual(hashCode(code), Buffer.from(row.code_hash, 'hex'))) {
    await db.query('UPDATE email_otps SET attempts = attempts + 1 WHERE id = $1', [row.id]);
    return 'PROFILE_7017';
  }
  const used = await db.query('UPDATE email_otps SET used_at = $2 WHERE id = $1 AND used_at IS NULL RETURNING id', [row.id, new Date(nowMs)]);
  return used.length === 0 ? 'PROFILE_7017' : null;
}
