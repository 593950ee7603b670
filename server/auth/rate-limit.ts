import type { Context } from 'hono';
import type { Queryable } from '../db/db.ts';
import { ApiError } from '../core/errors.ts';

/**
 * Sliding-window rate limits stored in the database (table `login_failures`, which despite its
 * name holds every counted hit: failed sign-ins, wrong second-factor codes and the requests of the
 * limited public calls), so every API process counts the same hits. A limit is a key
 * ('<what>:<who>'), a maximum and a window; windows slide, so a limited caller is let in again by
 * itself (nobody is locked out for good) and Retry-After says when.
 *
 * The check then insert is not atomic: concurrent requests of one caller may overshoot by at most
 * their concurrency, which is fine for limits that only bound abuse.
 */
export type Limit = { key: string; max: number; windowSeconds: number };

const HOUR = 60 * 60;
/**
 * The limits of the public and mail-sending calls: generous enough that a person (or the e2e
 * suite from 127.0.0.1) never meets them, tight enough to stop a script flooding a mailbox with
 * codes or filling the telemetry tables. Sign-ups and sign-in links are quotas (quotas.ts:
 * QUOTA_EXCEEDED, configurable), not attempts.
 */
export const PUBLIC_LIMITS = {
  emailOtpPerIdentity: { max: 5, windowSeconds: 15 * 60 },
  emailOtpPerAddress: { max: 30, windowSeconds: HOUR },
  telemetryPerAddress: { max: 600, windowSeconds: 60 },
} as const;

const byAddress = (name: string, address: string | null, limit: Omit<Limit, 'key'>): Limit[] =>
  address ? [{ key: `${name}:address:${address}`, ...limit }] : [];

export const emailOtpLimits = (identityId: string, address: string | null): Limit[] => [
  { key: `email-otp:identity:${identityId}`, ...PUBLIC_LIMITS.emailOtpPerIdentity },
  ...byAddress('email-otp', address, PUBLIC_LIMITS.emailOtpPerAddress),
];
/** Telemetry events and error reports share one budget: both are the client's reporting channel. */
export const telemetryLimits = (address: string | null): Limit[] => byAddress('telemetry', address, PUBLIC_LIMITS.telemetryPerAddress);

type NodeEnv = { incoming?: { socket?: { remoteAddress?: string; localAddress?: string } } } | undefined;
let warnedUntrustedProxy = false;

/**
 * The client address per-address limits count. Behind a reverse proxy (LEDGERLINE_TRUST_PROXY=1)
 * it is the first X-Forwarded-For hop; otherwise the socket's peer, which a client cannot forge.
 * Null when there is no socket (in-process requests in tests): only per-identity limits apply.
 */
export function clientAddress(c: Context): string | null {
  const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
  if (process.env.LEDGERLINE_TRUST_PROXY === '1' && forwarded) return forwarded;
  if (forwarded && !warnedUntrustedProxy) {
    // Behind a proxy every client has the proxy's address: the per-address limits then treat all
    // users as one client. Said once, since the header alone cannot be trusted.
    warnedUntrustedProxy = true;
    console.warn('[ledgerline] requests carry X-Forwarded-For but LEDGERLINE_TRUST_PROXY is not 1: '
      + 'sign-in limits see every client as the proxy. Set LEDGERLINE_TRUST_PROXY=1 behind a reverse proxy.');
  }
  return (c.env as NodeEnv)?.incoming?.socket?.remoteAddress ?? null;
}

/**
 * Whether the request came in on a loopback listener (the socket's local address is 127.0.0.0/8
 * or ::1). In-process requests (app.request in tests) have no socket and count as loopback.
 */
export function onLoopbackListener(c: Context): boolean {
  const socket = (c.env as NodeEnv)?.incoming?.socket;
  if (!socket) return true;
  const local = socket.localAddress ?? '';
  return local === '::1' || /^(::ffff:)?127\./.test(local);
}

export class ThrottledError extends ApiError {
  constructor(readonly retryAfterSeconds: number) {
    super('AUTH_7029');
  }
}

/** Seconds until every limit has room again; null when none is full. */
export async function throttledFor(db: Queryable, limits: Limit[], nowMs: number): Promise<number | null> {
  for (const limit of limits) {
    const windowMs = limit.windowSeconds * 1000;
    const [row] = await db.query<{ n: number; oldest: Date | null }>(
      `SELECT count(*)::int AS n, min(at) AS oldest FROM (
         SELECT at FROM login_failures WHERE key = $1 AND at > $2 ORDER BY at DESC LIMIT $3) recent`,
      [limit.key, new Date(nowMs - windowMs), limit.max],
    );
    if (row && row.n >= limit.max && row.oldest) {
      // The window opens again when the oldest of the last `max` hits leaves it.
      return Math.max(1, Math.ceil((new Date(row.oldest).getTime() + windowMs - nowMs) / 1000));
    }
  }
  return null;
}

/** Throws ThrottledError (AUTH_7029, retryAfterSeconds) when any limit is reached within its window. */
async function assertNotThrottled(db: Queryable, limits: Limit[], nowMs: number): Promise<void> {
  const retryAfter = await throttledFor(db, limits, nowMs);
  if (retryAfter !== null) throw new ThrottledError(retryAfter);
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
