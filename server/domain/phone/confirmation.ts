/**
 * Phone numbers confirmed by a code sent by text message (issue 32). There is no SMS provider in
 * this install: a text goes where mail goes when there is no mail server (sendText: the server
 * log, and the development mailbox's table when it is on), so the demo reads the code there.
 * The code is 6 digits, 10 minutes, stored hashed, 5 guesses; a new code replaces the last.
 */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { PhoneNumberState } from '../../../schema/api/calls-platform.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { inSupportedRegion, SUPPORTED_REGIONS } from './regions.ts';

export const PHONE_CODE_TTL_SECONDS = 10 * 60;
const MAX_GUESSES = 5;
const hashCode = (code: string) => createHash('sha256').update(code).digest();

export type TextDeps = { devOutbox: boolean; log?: (line: string) => void };

/** "Sends" a text message: the server log, and the development mailbox when switched on. */
export async function sendText(deps: TextDeps, db: Queryable, to: string, body: string): Promise<void> {
  (deps.log ?? console.log)(`[ledgerline] text to ${to}: ${body}`);
  if (!deps.devOutbox) return;
  await db.query('INSERT INTO dev_outbox (recipient, subject, body) VALUES ($1, $2, $3)', [to, 'Text message', body]);
}

export async function phoneState(db: Queryable, identityId: string, now: Date): Promise<PhoneNumberState> {
  const [row] = await db.query<{ phone_number: string | null; confirmed_number: string | null; confirmed_at: string | null; pending: string | null; expires_at: string | null }>(
    `SELECT i.phone_number, c.phone_number AS confirmed_number, ll_iso(c.confirmed_at) AS confirmed_at,
            v.phone_number AS pending, ll_iso(v.expires_at) AS expires_at
       FROM identities i
       LEFT JOIN phone_confirmations c ON c.identity_id = i.id
       LEFT JOIN phone_verifications v ON v.identity_id = i.id AND v.expires_at > $2 AND v.attempts < $3
      WHERE i.id = $1`,
    [identityId, now, MAX_GUESSES],
  );
  const confirmed = row?.phone_number != null && row.phone_number === row.confirmed_number;
  return {
    phone_number: row?.phone_number ?? null,
    confirmed,
    confirmed_at: confirmed ? row!.confirmed_at : null,
    pending: row?.pending && row.expires_at ? { phone_number: row.pending, expires_at: row.expires_at } : null,
  };
}

/** Marks a number as having replied STOP (the SMS provider's inbound hook; ops and tests). */
export async function markUnsubscribed(db: Queryable, phoneNumber: string, now: Date): Promise<void> {
  await db.query('INSERT INTO sms_unsubscribed (phone_number, unsubscribed_at) VALUES ($1, $2) ON CONFLICT DO NOTHING', [phoneNumber, now]);
}

/** Texts a new code to `phoneNumber` (6019 out of region, 6020 unsubscribed). */
export async function sendPhoneCode(deps: TextDeps, db: Queryable, identityId: string, phoneNumber: string, now: Date): Promise<PhoneNumberState> {
  if (!inSupportedRegion(phoneNumber)) {
    throw new ApiError('6019', `We can only text numbers in ${SUPPORTED_REGIONS}.`, { phone_number: `We can only text numbers in ${SUPPORTED_REGIONS}.` });
  }
  const [stopped] = await db.query('SELECT 1 FROM sms_unsubscribed WHERE phone_number = $1', [phoneNumber]);
  if (stopped) {
    throw new ApiError('6020', 'This number replied STOP to our texts, so we cannot send it a code. Text START to opt back in, or use another number.');
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await db.query(
    `INSERT INTO phone_verifications (identity_id, phone_number, code_hash, attempts, expires_at, created_at) VALUES ($1, $2, $3, 0, $4, $5)
     ON CONFLICT (identity_id) DO UPDATE SET phone_number = EXCLUDED.phone_number, code_hash = EXCLUDED.code_hash,
       attempts = 0, expires_at = EXCLUDED.expires_at, created_at = EXCLUDED.created_at`,
    [identityId, phoneNumber, hashCode(code).toString('hex'), new Date(now.getTime() + PHONE_CODE_TTL_SECONDS * 1000), now],
  );
  await sendText(deps, db, phoneNumber, `Your Ledgerline code is ${code}. It expires in 10 minutes. Reply STOP to stop texts.`);
  return phoneState(db, identityId, now);
}

/**
 * Checks the code; right, the pending number becomes the profile's, confirmed. A wrong guess is
 * counted and answered (not thrown) by the caller's transaction committing it: `refusal`.
 */
export async function confirmPhoneCode(
  db: Queryable, identityId: string, code: string, now: Date,
): Promise<{ refusal: 'PROFILE_7016' | 'PROFILE_7017' } | { refusal: null; state: PhoneNumberState }> {
  const [row] = await db.query<{ phone_number: string; code_hash: string; attempts: number; expires_at: Date }>(
    'SELECT phone_number, code_hash, attempts, expires_at FROM phone_verifications WHERE identity_id = $1 FOR UPDATE',
    [identityId],
  );
  if (!row || row.attempts >= MAX_GUESSES) return { refusal: 'PROFILE_7017' };
  if (new Date(row.expires_at).getTime() <= now.getTime()) return { refusal: 'PROFILE_7016' };
  if (!timingSafeEqual(hashCode(code), Buffer.from(row.code_hash, 'hex'))) {
    await db.query('UPDATE phone_verifications SET attempts = attempts + 1 WHERE identity_id = $1', [identityId]);
    return { refusal: 'PROFILE_7017' };
  }
  await db.query('DELETE FROM phone_verifications WHERE identity_id = $1', [identityId]);
  await db.query('UPDATE identities SET phone_number = $2, updated_at = now() WHERE id = $1', [identityId, row.phone_number]);
  await db.query(
    `INSERT INTO phone_confirmations (identity_id, phone_number, confirmed_at) VALUES ($1, $2, $3)
     ON CONFLICT (identity_id) DO UPDATE SET phone_number = EXCLUDED.phone_number, confirmed_at = EXCLUDED.confirmed_at`,
    [identityId, row.phone_number, now],
  );
  return { refusal: null, state: await phoneState(db, identityId, now) };
}
