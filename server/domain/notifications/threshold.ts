import type { NotifyThreshold } from '../../../schema/api/calls-notifications.ts';
import { canSeeAllTransactions, isAdmin } from '../../../schema/roles.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';

/**
 * §7 "PATCH admin transaction notify threshold" (issue 29): businesses.transaction_notify_amount
 * and _currency (both set or both null, migration 054). Who may:
 * - PATCH: admins and owners only, anyone else 403 NOTIFY_7001 before anything is read;
 * - GET: admins and the business-wide readers of every transaction (`canSeeAllTransactions`:
 *   bookkeepers, auditors, IT admins), since the threshold says which of those transactions admins
 *   hear about; anyone else 403 FORBIDDEN_7003 (not 404: the setting exists in every business, so
 *   there is nothing whose existence a 404 would hide, and admin.* calls answer 403 to non-admins).
 * The threshold's business is always the caller's own: there is no id to name another one.
 */
const READERS_ONLY = 'Only admins, bookkeepers and auditors can see the transaction notify threshold.';

type Row = { amount: number | string | null; currency: string | null };

const thresholdOf = (row: Row | undefined): NotifyThreshold => ({
  threshold: row?.amount != null && row.currency ? { amount: Number(row.amount), currency: row.currency } : null,
});

export async function getNotifyThreshold(db: Queryable, user: ActingUser): Promise<NotifyThreshold> {
  if (!isAdmin(user) && !canSeeAllTransactions(user)) throw new ApiError('FORBIDDEN_7003', READERS_ONLY);
  const [row] = await db.query<Row>(
    'SELECT transaction_notify_amount AS amount, transaction_notify_currency AS currency FROM businesses WHERE id = $1', [user.business_id],
  );
  return thresholdOf(row);
}

/** Sets (or with null switches off) the threshold; the currency is a known ISO 4217 one (the catalogue's schema). */
export async function setNotifyThreshold(db: Queryable, user: ActingUser, body: NotifyThreshold): Promise<NotifyThreshold> {
  if (!isAdmin(user)) throw new ApiError('NOTIFY_7001');
  const [row] = await db.query<Row>(
    `UPDATE businesses SET transaction_notify_amount = $2, transaction_notify_currency = $3 WHERE id = $1
      RETURNING transaction_notify_amount AS amount, transaction_notify_currency AS currency`,
    [user.business_id, body.threshold?.amount ?? null, body.threshold?.currency ?? null],
  );
  if (!row) throw new ApiError('REQUEST_7004');
  return thresholdOf(row);
}

/** The threshold a card transaction is compared with (null: off). */
export async function thresholdFor(db: Queryable, businessId: string): Promise<NotifyThreshold['threshold']> {
  const [row] = await db.query<Row>(
    'SELECT transaction_notify_amount AS amount, transaction_notify_currency AS currency FROM businesses WHERE id = $1', [businessId],
  );
  return thresholdOf(row).threshold;
}
