import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/db.ts';

/** Notified inside the enqueuing transaction: delivered only if it commits, so it kicks the push job after commit. */
export const PUSH_CHANNEL = 'ledgerline_push';

/** A notification just made (its wire doc's fields the push carries). */
export type PushNotice = { id: string; owner_id: string; title: string; body: string; path: string };

/**
 * One push per new notification and subscription of its owner (issue 32), inside the
 * notification's transaction: a rolled-back write pushes nothing, and a repeat (same
 * notification, same subscription) is one row.
 */
export async function enqueuePushes(tx: Queryable, businessId: string, made: readonly PushNotice[]): Promise<number> {
  if (made.length === 0) return 0;
  const subs = await tx.query<{ token: string; user_id: string }>(
    'SELECT token, user_id::text FROM push_subscriptions WHERE business_id = $1 AND user_id = ANY($2::uuid[])',
    [businessId, [...new Set(made.map((n) => n.owner_id))]],
  );
  if (subs.length === 0) return 0;
  let queued = 0;
  for (const n of made) {
    for (const s of subs.filter((x) => x.user_id === n.owner_id)) {
      const rows = await tx.query(
        `INSERT INTO push_deliveries (id, business_id, token, notification_id, title, body, path, run_after)
         VALUES ($1, $2, $3, $4, $5, $6, $7, now()) ON CONFLICT (token, notification_id) DO NOTHING RETURNING id`,
        [randomUUID(), businessId, s.token, n.id, n.title, n.body, n.path],
      );
      queued += rows.length;
    }
  }
  if (queued > 0) await tx.notify(PUSH_CHANNEL, businessId);
  return queued;
}
