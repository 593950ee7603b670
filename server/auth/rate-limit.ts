import type { Queryable } from '../db/db.ts';
import { ApiError } from '../http/errors.ts';

/**
 * Sign-in throttling: a sliding window of failed attempts stored in the database, so every API
 * process counts the same attempts. Per account it stops password guessing against one user; per
 * client address it stops one client spraying many accounts. Windows slide, so a locked account
 * opens again by itself (the real user is never locked out for good), and a success clears the
 * account's count.
 */
export const LOGIN_WINDOW_SECONDS = 15 * 60;
export const ACCOUNT_MAX_FAILURES = 5;
export const ADDRESS_MAX_FAILURES = 50;

export const accountKey = (email: string) => `account:${email.trim().toLowerCase()}`;
export const addressKey = (address: string) => `address:${address}`;

type Limit = { key: string; max: number };
export const loginLimits = (email: string, address: string | null): Limit[] => [
  { key: accountKey(email), max: ACCOUNT_MAX_FAILURES },
  ...(address ? [{ key: addressKey(address), max: ADDRESS_MAX_FAILURES }] : []),
];

/** Throws AUTH_7029 (with retryAfterSeconds) when any limit is reached within the window. */
export async function assertNotThrottled(db: Queryable, limits: Limit[], nowMs: number): Promise<void> {
  const since = new Date(nowMs - LOGIN_WINDOW_SECONDS * 1000);
  for (const limit of limits) {
    const [row] = await db.query<{ n: number; oldest: Date | null }>(
      `SELECT count(*)::int AS n, min(at) AS oldest FROM (
         SELECT at FROM login_failures WHERE key = $1 AND at > $2 ORDER BY at DESC LIMIT $3) recent`,
      [limit.key, since, limit.max],
    );
    if (row && row.n >= limit.max && row.oldest) {
      // The window opens again when the oldest of the last `max` failures leaves it.
      const retryAfter = Math.max(1, Math.ceil((new Date(row.oldest).getTime() + LOGIN_WINDOW_SECONDS * 1000 - nowMs) / 1000));
      throw new ThrottledError(retryAfter);
    }
  }
}

export class ThrottledError extends ApiError {
  constructor(readonly retryAfterSeconds: number) {
    super('AUTH_7029');
  }
}

export async function recordFailure(db: Queryable, limits: Limit[], nowMs: number): Promise<void> {
  const at = new Date(nowMs);
  for (const limit of limits) await db.query('INSERT INTO login_failures (key, at) VALUES ($1, $2)', [limit.key, at]);
  // Keep the table small: anything outside the window no longer counts.
  await db.query('DELETE FROM login_failures WHERE key = ANY($1) AND at < $2', [
    limits.map((l) => l.key),
    new Date(nowMs - LOGIN_WINDOW_SECONDS * 1000),
  ]);
}

export async function clearAccountFailures(db: Queryable, email: string): Promise<void> {
  await db.query('DELETE FROM login_failures WHERE key = $1', [accountKey(email)]);
}
