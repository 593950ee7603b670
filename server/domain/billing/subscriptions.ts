/**
 * Billing subscriptions (issue 32): the business's Ledgerline plan and add-ons. Monthly periods
 * anchored to the start (a start on the 31st renews on the last day of shorter months); a cancel
 * keeps the product until the end of the period already paid, then the row ends. Expiry is
 * applied when read or written, so no timer has to run for a canceled product to end on time.
 */
import {
  BILLING_CATALOGUE, BILLING_PRODUCTS, type BillingProduct, type BillingSubscription, type CancelSubscriptionBody,
} from '../../../schema/api/calls-platform.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';

type Row = {
  product: BillingProduct; started_at: string; cancel_at: string | null; cancel_reason: string | null;
};

/** `start` plus `months` calendar months, the day clamped to the month's last (UTC). */
export function addMonths(start: Date, months: number): Date {
  const y = start.getUTCFullYear();
  const m = start.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m, Math.min(start.getUTCDate(), lastDay), start.getUTCHours(), start.getUTCMinutes(), start.getUTCSeconds(), start.getUTCMilliseconds()));
}

/** The monthly period containing `now` of a subscription started at `start`. */
export function currentPeriod(start: Date, now: Date): { start: Date; end: Date } {
  let n = Math.max(0, (now.getUTCFullYear() - start.getUTCFullYear()) * 12 + now.getUTCMonth() - start.getUTCMonth() - 1);
  while (addMonths(start, n + 1) <= now) n++;
  return { start: addMonths(start, n), end: addMonths(start, n + 1) };
}

function toWire(product: BillingProduct, row: Row | undefined, now: Date): BillingSubscription {
  const entry = BILLING_CATALOGUE[product];
  const base = {
    product, kind: entry.kind, name: entry.name, description: entry.description,
    monthly_price: { amount: entry.monthly_price, currency: 'USD' as const },
  };
  if (!row) return { ...base, status: 'INACTIVE', started_at: null, current_period_start: null, current_period_end: null, cancel_reason: null };
  const period = currentPeriod(new Date(row.started_at), now);
  return {
    ...base,
    status: row.cancel_at ? 'CANCELING' : 'ACTIVE',
    started_at: new Date(row.started_at).toISOString(),
    current_period_start: period.start.toISOString(),
    current_period_end: row.cancel_at ? new Date(row.cancel_at).toISOString() : period.end.toISOString(),
    cancel_reason: row.cancel_reason,
  };
}

/** Ends the canceled subscriptions whose paid period is over (idempotent). */
async function endExpired(db: Queryable, businessId: string, now: Date): Promise<void> {
  await db.query(
    'UPDATE billing_subscriptions SET ended_at = cancel_at WHERE business_id = $1 AND ended_at IS NULL AND cancel_at <= $2',
    [businessId, now],
  );
}

async function liveRows(db: Queryable, businessId: string, lock = false): Promise<Map<BillingProduct, Row>> {
  const rows = await db.query<Row>(
    `SELECT product, ll_iso(started_at) AS started_at, ll_iso(cancel_at) AS cancel_at, cancel_reason
       FROM billing_subscriptions WHERE business_id = $1 AND ended_at IS NULL${lock ? ' FOR UPDATE' : ''}`,
    [businessId],
  );
  return new Map(rows.map((r) => [r.product, r]));
}

export async function listSubscriptions(db: Queryable, businessId: string, now: Date): Promise<BillingSubscription[]> {
  await endExpired(db, businessId, now);
  const live = await liveRows(db, businessId);
  return BILLING_PRODUCTS.map((p) => toWire(p, live.get(p), now));
}

/**
 * Starts `product`, or resumes it while CANCELING. Two starts at once: the live-row unique index
 * lets one insert win; the other inserts nothing and answers BILLING_7002, as a later one would.
 */
export async function startSubscription(tx: Queryable, businessId: string, userId: string, product: BillingProduct, now: Date): Promise<BillingSubscription> {
  await endExpired(tx, businessId, now);
  const current = (await liveRows(tx, businessId, true)).get(product);
  if (current && !current.cancel_at) throw new ApiError('BILLING_7002', `${BILLING_CATALOGUE[product].name} is already active.`);
  if (current) {
    await tx.query(
      `UPDATE billing_subscriptions SET cancel_at = NULL, canceled_by_user_id = NULL, cancel_reason = NULL, cancel_feedback = NULL
        WHERE business_id = $1 AND product = $2 AND ended_at IS NULL`,
      [businessId, product],
    );
  } else {
    const inserted = await tx.query(
      `INSERT INTO billing_subscriptions (business_id, product, monthly_price, started_at, started_by_user_id)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (business_id, product) WHERE ended_at IS NULL DO NOTHING RETURNING id`,
      [businessId, product, BILLING_CATALOGUE[product].monthly_price, now, userId],
    );
    if (inserted.length === 0) throw new ApiError('BILLING_7002', `${BILLING_CATALOGUE[product].name} is already active.`);
  }
  return toWire(product, (await liveRows(tx, businessId)).get(product), now);
}

/** Cancels at the end of the paid period. BILLING_7001 unless the product is ACTIVE. */
export async function cancelSubscription(
  tx: Queryable, businessId: string, userId: string, product: BillingProduct, body: CancelSubscriptionBody, now: Date,
): Promise<BillingSubscription> {
  await endExpired(tx, businessId, now);
  const current = (await liveRows(tx, businessId, true)).get(product);
  if (!current || current.cancel_at) {
    throw new ApiError('BILLING_7001', `There is no active ${BILLING_CATALOGUE[product].name} subscription to cancel.`);
  }
  const endsAt = currentPeriod(new Date(current.started_at), now).end;
  await tx.query(
    `UPDATE billing_subscriptions SET cancel_at = $3, canceled_by_user_id = $4, cancel_reason = $5, cancel_feedback = $6
      WHERE business_id = $1 AND product = $2 AND ended_at IS NULL`,
    [businessId, product, endsAt, userId, body.reason, body.feedback || null],
  );
  return toWire(product, (await liveRows(tx, businessId)).get(product), now);
}
