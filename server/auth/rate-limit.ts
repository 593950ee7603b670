import type { Context } from 'hono';
import type { Queryable } from '../db/db.ts';
import { ApiError } from '../http/errors.ts';

/**
 * Sliding-window rate limits stored in the database (table `login_failures`, which despite its
 * name holds every counted hit: failed sign-ins and the requests of the limited public calls), so
 * every API process counts the same hits. A limit is a key ('<what>:<who>'), a maximum and a
 * window; windows slide, so a limited caller is let in again by itself (the real user is never
 * locked out for good) and Retry-After says when.
 *
 * Sign-in counts *failures* only (per account against password guessing, per client address
 * against one client spraying many accounts; a success clears the account). The other limited
 * calls count every request (`takeRateLimit`). The check then insert is not atomic: concurrent
 * requests of one caller may overshoot by at most their concurrency, which is fine for limits
 * that only bound abuse.
 */
export const LOGIN_WINDOW_SECONDS = 15 * 60;
export const ACCOUNT_MAX_FAILURES = 5;
export const ADDRESS_MAX_FAILURES = 50;

export type Limit = { key: string; max: number; windowSeconds: number };

export const accountKey = (email: string) => `account:${email.trim().toLowerCase()}`;
export const addressKey = (address: string) => `address:${address}`;

export const loginLimits = (email: string, address: string | null): Limit[] => [
  { key: accountKey(email), max: ACCOUNT_MAX_FAILURES, windowSeconds: LOGIN_WINDOW_SECONDS },
  ...(address ? [{ key: addressKey(address), max: ADDRESS_MAX_FAILURES, windowSeconds: LOGIN_WINDOW_SECONDS }] : []),
];

const HOUR = 60 * 60;
/**
 * The limits of the public and mail-sending calls: generous enough that a person (or the e2e
 * suite from 127.0.0.1) never meets them, tight enough to stop a script creating accounts,
 * flooding a mailbox with codes or filling the telemetry tables.
 */
export const PUBLIC_LIMITS = {
  signUpPerAddress: { max: 20, windowSeconds: HOUR },
  emailOtpPerIdentity: { max: 5, windowSeconds: 15 * 60 },
  emailOtpPerAddress: { max: 30, windowSeconds: HOUR },
  telemetryPerAddress: { max: 600, windowSeconds: 60 },
  passwordlessPerEmail: { max: 5, windowSeconds: 15 * 60 },
  passwordlessPerAddress: { max: 30, windowSeconds: HOUR },
} as const;

const byAddress = (name: string, address: string | null, limit: Omit<Limit, 'key'>): Limit[] =>
  address ? [{ key: `${name}:address:${address}`, ...limit }] : [];

export const signUpLimits = (address: string | null): Limit[] => byAddress('sign-up', address, PUBLIC_LIMITS.signUpPerAddress);
export const emailOtpLimits = (identityId: string, address: string | null): Limit[] => [
  { key: `email-otp:identity:${identityId}`, ...PUBLIC_LIMITS.emailOtpPerIdentity },
  ...byAddress('email-otp', address, PUBLIC_LIMITS.emailOtpPerAddress),
];
/** Per address asked for (known or not, so the limit tells nothing) and per client address. */
export const passwordlessLimits = (email: string, address: string | null): Limit[] => [
  { key: `passwordless:email:${email.trim().toLowerCase()}`, ...PUBLIC_LIMITS.passwordlessPerEmail },
  ...byAddress('passwordless', address, PUBLIC_LIMITS.passwordlessPerAddress),
];
/** Telemetry events and error reports share one budget: both are the client's reporting channel. */
export const telemetryLimits = (address: string | null): Limit[] => byAddress('telemetry', address, PUBLIC_LIMITS.telemetryPerAddress);

/**
 * The client address per-address limits count. Behind a reverse proxy (LEDGERLINE_TRUST_PROXY=1)
 * it is the first X-Forwarded-For hop; otherwise the socket's peer, which a client cannot forge.
 * Null when there is no socket (in-process requests in tests): only per-identity limits apply.
 */
export function clientAddress(c: Context): string | null {
  if (process.env.LEDGERLINE_TRUST_PROXY === '1') {
    const first = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (first) return first;
  }
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? null;
}

export class ThrottledError extends ApiError {
  constructor(readonly retryAfterSeconds: number) {
    super('AUTH_7029');
  }
}

/** Throws ThrottledError (AUTH_7029, retryAfterSeconds) when any limit is reached within its window. */
export async function assertNotThrottled(db: Queryable, limits: Limit[], nowMs: number): Promise<void> {
  for (const limit of limits) {
    const windowMs = limit.windowSeconds * 1000;
    const [row] = await db.query<{ n: number; oldest: Date | null }>(
      `SELECT count(*)::int AS n, min(at) AS oldest FROM (
         SELECT at FROM login_failures WHERE key = $1 AND at > $2 ORDER BY at DESC LIMIT $3) recent`,
      [limit.key, new Date(nowMs - windowMs), limit.max],
    );
    if (row && row.n >= limit.max && row.oldest) {
      // The window opens again when the oldest of the last `max` hits leaves it.
      const retryAfter = Math.max(1, Math.ceil((new Date(row.oldest).getTime() + windowMs - nowMs) / 1000));
      throw new ThrottledError(retryAfter);
    }
  }
}

/** Counts one hit against every limit, and drops what has left its window (keeps the table small). */
export async function recordFailure(db: Queryable, limits: Limit[], nowMs: number): Promise<void> {
  const at = new Date(nowMs);
  for (const limit of limits) {
    await db.query('INSERT INTO login_failures (key, at) VALUES ($1, $2)', [limit.key, at]);
    await db.query('DELETE FROM login_failures WHERE key = $1 AND at < $2', [limit.key, new Date(nowMs - limit.windowSeconds * 1000)]);
  }
}

/**
 * assertNotThrottled for a route: the Retry-After header is set on the context, so it travels
 * with the 429 answer app.ts renders from the thrown ThrottledError.
 */
export async function assertWithinLimits(c: Context, db: Queryable, limits: Limit[], nowMs: number): Promise<void> {
  try {
    await assertNotThrottled(db, limits, nowMs);
  } catch (err) {
    if (err instanceof ThrottledError) c.header('Retry-After', String(err.retryAfterSeconds));
    throw err;
  }
}

/** For calls limited on every request: refuses (429 AUTH_7029, Retry-After) or counts this request. */
export async function takeRateLimit(c: Context, db: Queryable, limits: Limit[], nowMs: number): Promise<void> {
  await assertWithinLimits(c, db, limits, nowMs);
  await recordFailure(db, limits, nowMs);
}

export async function clearAccountFailures(db: Queryable, email: string): Promise<void> {
  await db.query('DELETE FROM login_failures WHERE key = $1', [accountKey(email)]);
}
