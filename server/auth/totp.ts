import { randomUUID } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Queryable } from '../db/db.ts';

/** RFC 6238 as the issue fixes it: HMAC-SHA1, 30 s steps, 6 digits, ±1 step of clock drift. */
export const TOTP_PERIOD_SECONDS = 30;
const TOTP_WINDOW = 1;
const ISSUER = 'Ledgerline';

const totpFor = (secret: string, label = 'Ledgerline') =>
  new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secret) });

/** The code an authenticator app shows at `nowMs` (tests and the e2e use it). */
export const totpCode = (secret: string, nowMs: number) => totpFor(secret).generate({ timestamp: nowMs });

/**
 * The time step a code belongs to, when it matches within ±1 step of now; null otherwise.
 * The caller still has to refuse steps at or before the last one used (replay).
 */
export function matchingStep(secret: string, code: string, nowMs: number): number | null {
  const delta = totpFor(secret).validate({ token: code, timestamp: nowMs, window: TOTP_WINDOW });
  if (delta === null) return null;
  return Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

export type Enrolment = { authenticatorId: string; secret: string; uri: string };

/** A new, inactive authenticator (replacing unfinished ones); active after its first code. */
export async function startEnrolment(db: Queryable, identityId: string, email: string): Promise<Enrolment> {
  const secret = new Secret({ size: 20 }).base32;
  const authenticatorId = randomUUID();
  await db.query('DELETE FROM totp_authenticators WHERE identity_id = $1 AND NOT active', [identityId]);
  await db.query('INSERT INTO totp_authenticators (id, identity_id, secret) VALUES ($1, $2, $3)', [authenticatorId, identityId, secret]);
  return { authenticatorId, secret, uri: totpFor(secret, email).toString() };
}

/**
 * Accepts a code for one authenticator (or any active one of the identity when id is null) and
 * records its step in the same statement, so two concurrent uses of one code cannot both pass.
 */
export async function consumeCode(
  db: Queryable,
  identityId: string,
  code: string,
  nowMs: number,
  opts: { authenticatorId?: string; activate?: boolean } = {},
): Promise<string | null> {
  const rows = await db.query<{ id: string; secret: string }>(
    `SELECT id, secret FROM totp_authenticators
      WHERE identity_id = $1 AND (($2::uuid IS NULL AND active) OR id = $2::uuid) ORDER BY created_at`,
    [identityId, opts.authenticatorId ?? null],
  );
  for (const row of rows) {
    const step = matchingStep(row.secret, code, nowMs);
    if (step === null) continue;
    const used = await db.query<{ id: string }>(
      `UPDATE totp_authenticators SET last_step = $2, active = active OR $3
        WHERE id = $1 AND last_step < $2 RETURNING id`,
      [row.id, step, opts.activate ?? false],
    );
    if (used.length > 0) return row.id;
  }
  return null;
}

export async function hasActiveTotp(db: Queryable, identityId: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM totp_authenticators WHERE identity_id = $1 AND active LIMIT 1', [identityId]);
  return rows.length > 0;
}
