import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { DeviceToken, pushSubscriptionSchema } from '../../schema/api/calls-push.ts';
import { ApiError, validationError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';

/**
 * Web Push subscriptions (issue 32 "device tokens"). The token is the hex SHA-256 of the endpoint:
 * the same browser registering again refreshes its row (new keys, refreshed_at) instead of adding
 * one. An endpoint must be https (http only to loopback under the test switch, as chat webhooks);
 * the address itself is checked at every push by the outbound door.
 */
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionSchema>;
export const tokenOf = (endpoint: string) => createHash('sha256').update(endpoint).digest('hex');

/** Most subscriptions one person keeps (browsers and devices); the oldest refreshed goes first. */
export const MAX_SUBSCRIPTIONS_PER_PERSON = 10;

type Row = { token: string; created_at: string; refreshed_at: string; last_error: string | null };
const COLUMNS = 'token, ll_iso(created_at) AS created_at, ll_iso(refreshed_at) AS refreshed_at, last_error';

export async function registerSubscription(
  tx: Queryable, user: { businessId: string; userId: string }, sub: PushSubscriptionInput, opts: { previousToken?: string; userAgent: string; allowLoopbackHttp: boolean; now: Date },
): Promise<DeviceToken> {
  const url = new URL(sub.endpoint);
  if (url.protocol === 'http:' && !opts.allowLoopbackHttp) {
    throw validationError({ 'subscription.endpoint': 'subscription.endpoint must start with https://' });
  }
  const token = tokenOf(sub.endpoint);
  const at = opts.now.toISOString();
  if (opts.previousToken && opts.previousToken !== token) {
    await tx.query('DELETE FROM push_subscriptions WHERE token = $1 AND business_id = $2 AND user_id = $3', [opts.previousToken, user.businessId, user.userId]);
  }
  // An endpoint is one browser's: registered by someone else before (a shared computer), it moves to this person.
  const [row] = await tx.query<Row>(
    `INSERT INTO push_subscriptions AS s (token, business_id, user_id, endpoint, p256dh, auth, user_agent, created_at, refreshed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
     ON CONFLICT (token) DO UPDATE SET business_id = EXCLUDED.business_id, user_id = EXCLUDED.user_id, p256dh = EXCLUDED.p256dh,
       auth = EXCLUDED.auth, user_agent = EXCLUDED.user_agent, refreshed_at = EXCLUDED.refreshed_at, last_error = NULL
     RETURNING ${COLUMNS}`,
    [token, user.businessId, user.userId, sub.endpoint, sub.keys.p256dh, sub.keys.auth, opts.userAgent.slice(0, 300), at],
  );
  await tx.query(
    `DELETE FROM push_subscriptions WHERE business_id = $1 AND user_id = $2 AND token NOT IN (
       SELECT token FROM push_subscriptions WHERE business_id = $1 AND user_id = $2 ORDER BY refreshed_at DESC, token LIMIT $3)`,
    [user.businessId, user.userId, MAX_SUBSCRIPTIONS_PER_PERSON],
  );
  return row!;
}

/** Removes the caller's own subscription; anyone else's (or an unknown token) is 404. */
export async function deleteSubscription(tx: Queryable, user: { businessId: string; userId: string }, token: string): Promise<void> {
  const rows = await tx.query('DELETE FROM push_subscriptions WHERE token = $1 AND business_id = $2 AND user_id = $3 RETURNING token', [token, user.businessId, user.userId]);
  if (rows.length === 0) throw new ApiError('REQUEST_7004');
  await tx.query("UPDATE push_deliveries SET state = 'dropped', finished_at = now() WHERE token = $1 AND state = 'queued'", [token]);
}
