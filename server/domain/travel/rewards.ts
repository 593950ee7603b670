import { randomUUID } from 'node:crypto';
import { docSqlOf, type ColumnMap } from '../../../schema/entities/columns.ts';
import { cabinSchema, type Money } from '../../../schema/entities/trip.ts';
import { isAdmin } from '../../../schema/roles.ts';
import { localToday } from '../../../schema/travel-booking-rules.ts';
import { rewardFor, travelRewardSchema, type TravelReward } from '../../../schema/travel-rewards.ts';
import { AIRPORTS } from '../../../schema/travel/airports.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { newestByTime, newestFirstPage, type Page, type PageRequest } from '../newest-first-page.ts';
import { findBooking } from './booking-doc.ts';
import { travelPolicyOf, travelSettingsOf } from './settings.ts';

/**
 * Issue 27, travel rewards (the rule: schema/travel-rewards.ts). bookings.ts calls `earnReward`
 * where a booking becomes BOOKED (at once, or on approval) and `voidReward` where a BOOKED one is
 * canceled, each inside the booking's own transaction after the booking row is locked and written,
 * so a reward exists exactly when its booking was booked under the cap: rolled back with it,
 * and once — `travel_rewards_one_per_booking` (ON CONFLICT DO NOTHING) under any retry or race.
 * Read online (`GET /travel/travel-rewards`); an admin voids one (`DELETE …/{reward_id}`).
 */

const REWARD_COLUMNS: ColumnMap<TravelReward> = {
  id: { type: 'uuid' },
  user_id: { type: 'uuid' },
  trip_id: { type: 'uuid' },
  trip_name: { type: 'text', sql: '(SELECT t.name FROM trips t WHERE t.business_id = r.business_id AND t.id = r.trip_id)' },
  booking_id: { type: 'uuid' },
  booking: {
    type: 'jsonb',
    sql: `(SELECT jsonb_build_object('kind', b.kind, 'status', b.status, 'segments', coalesce(b.payload->'segments', '[]'::jsonb),
                  'hotel', b.payload->'hotel', 'price', jsonb_build_object('amount', b.price_amount, 'currency', b.currency),
                  'confirmation_code', b.confirmation_code)
             FROM travel_bookings b WHERE b.business_id = r.business_id AND b.id = r.booking_id)`,
  },
  amount: { type: 'jsonb', sql: `jsonb_build_object('amount', r.amount, 'currency', r.currency)` },
  cap: { type: 'jsonb', sql: `jsonb_build_object('amount', r.cap_amount, 'currency', r.currency)` },
  price: { type: 'jsonb', sql: `jsonb_build_object('amount', r.price_amount, 'currency', r.currency)` },
  share_percent: { type: 'int' },
  status: { type: 'text' },
  earned_at: { type: 'timestamptz' },
  voided_at: { type: 'timestamptz' },
  void_reason: { type: 'text' },
};
const REWARD_DOC = docSqlOf(REWARD_COLUMNS);

/** Newest earned first, then id. */
const EARNED_DESC = newestByTime('earned_desc', 'earned_at');

async function findReward(db: Queryable, where: string, params: unknown[]): Promise<TravelReward | null> {
  const [row] = await db.query<{ doc: unknown }>(`SELECT ${REWARD_DOC} AS doc FROM travel_rewards r WHERE ${where}`, params);
  return row ? travelRewardSchema.parse(row.doc) : null;
}

/** The reward of a booking, or null. */
function rewardOfBooking(db: Queryable, businessId: string, bookingId: string): Promise<TravelReward | null> {
  return findReward(db, 'r.business_id = $1 AND r.booking_id = $2', [businessId, bookingId]);
}

/** The booking's reward as the booking answer carries it (`reward`: null when it earned none). */
export async function rewardField(db: Queryable, businessId: string, bookingId: string): Promise<{ reward: TravelReward | null }> {
  return { reward: await rewardOfBooking(db, businessId, bookingId) };
}

/** Today at the booking's place: the first flight's origin, or the hotel's city (as the booking rules read it). */
function placeToday(b: { segments: readonly { origin: string }[]; hotel: { city: string } | null }, now: Date): string {
  const code = b.hotel?.city ?? b.segments[0]?.origin;
  const tz = (code && AIRPORTS[code]?.tz) || 'UTC';
  return localToday(tz, now);
}

/**
 * A booking has just become BOOKED (in the caller's transaction, the booking row locked): record
 * its reward when it earns one. Answers the reward, or null.
 */
export async function earnReward(tx: Queryable, businessId: string, bookingId: string, now: Date): Promise<TravelReward | null> {
  const row = await findBooking(tx, businessId, bookingId);
  if (row?.doc.status !== 'BOOKED') return null;
  const b = row.doc;
  const payload = row.payload as { cabin?: unknown; passengers?: unknown };
  const cabin = cabinSchema.safeParse(payload.cabin);
  const decision = rewardFor((await travelPolicyOf(tx, businessId)).policy, await travelSettingsOf(tx, businessId), {
    ...b,
    cabin: cabin.success ? cabin.data : undefined,
    passengers: typeof payload.passengers === 'number' ? payload.passengers : undefined,
  }, placeToday(b, now));
  if ('none' in decision) return null;
  await tx.query(
    `INSERT INTO travel_rewards (id, business_id, user_id, trip_id, booking_id, amount, currency, cap_amount, price_amount, share_percent, earned_at)
     SELECT $1, $2, t.user_id, t.id, $3, $4, $5, $6, $7, $8, $9 FROM trips t WHERE t.business_id = $2 AND t.id = $10
     ON CONFLICT (booking_id) DO NOTHING`,
    [randomUUID(), businessId, bookingId, decision.amount, b.price.currency, decision.cap.amount, b.price.amount, decision.share_percent,
      now.toISOString(), b.trip_id],
  );
  return rewardOfBooking(tx, businessId, bookingId);
}

/** The booking was canceled (its refund posted): its reward, if EARNED, is VOIDED with the reason. */
export async function voidReward(tx: Queryable, businessId: string, bookingId: string, reason: string, by: string, now: Date): Promise<void> {
  await tx.query(
    `UPDATE travel_rewards SET status = 'VOIDED', voided_at = $3, void_reason = $4, voided_by = $5
      WHERE business_id = $1 AND booking_id = $2 AND status = 'EARNED'`,
    [businessId, bookingId, now.toISOString(), reason, by],
  );
}

export type RewardsPage = Page<TravelReward> & { balances: Money[] };

/**
 * GET /travel/travel-rewards: the caller's own rewards, newest first, with the balance (EARNED,
 * per currency) of all of them, not just the page. An admin reads anyone's with `user_id` (a
 * person of another business: 404); anyone else naming another person: 403 before any lookup.
 */
export async function listTravelRewards(db: Queryable, user: ActingUser, req: PageRequest & { userId?: string | undefined }): Promise<RewardsPage> {
  const whose = req.userId ?? user.id;
  if (whose !== user.id) {
    if (!isAdmin(user)) throw new ApiError('FORBIDDEN_7003', 'Only admins can see another person’s travel rewards.');
    const [known] = await db.query('SELECT 1 FROM spend_users WHERE business_id = $1 AND id = $2', [user.business_id, whose]);
    if (!known) throw new ApiError('REQUEST_7004', 'Person not found.');
  }
  const params = [user.business_id, whose];
  const page = await newestFirstPage<TravelReward>(db, {
    table: 'travel_rewards', doc: REWARD_DOC, where: 'r.business_id = $1 AND r.user_id = $2', params, order: EARNED_DESC,
  }, req);
  const balances = await db.query<{ amount: number; currency: string }>(
    `SELECT sum(amount)::int8 AS amount, currency FROM travel_rewards
      WHERE business_id = $1 AND user_id = $2 AND status = 'EARNED' GROUP BY currency ORDER BY currency`,
    params,
  );
  return { ...page, data: page.data.map((d) => travelRewardSchema.parse(d)), balances: balances.map((b) => ({ amount: Number(b.amount), currency: b.currency })) };
}

export const ADMIN_VOID_REASON = 'Voided by an admin';

/**
 * DELETE /travel/travel-rewards/{reward_id} (admins; 403 before any lookup): the reward VOIDED
 * with ADMIN_VOID_REASON (a DELETE has no body, §7), answered as it now is. An already voided one
 * answers as it is (a retried DELETE changes nothing); another business's id is 404.
 */
export async function voidTravelReward(tx: Queryable, user: ActingUser, rewardId: string, now: Date): Promise<TravelReward> {
  if (!isAdmin(user)) throw new ApiError('FORBIDDEN_7003', 'Only admins can void travel rewards.');
  const [row] = await tx.query<{ booking_id: string }>(
    'SELECT booking_id::text FROM travel_rewards WHERE business_id = $1 AND id = $2 FOR UPDATE', [user.business_id, rewardId],
  );
  if (!row) throw new ApiError('REQUEST_7004', 'Travel reward not found.');
  await voidReward(tx, user.business_id, row.booking_id, ADMIN_VOID_REASON, user.id, now);
  return (await findReward(tx, 'r.business_id = $1 AND r.id = $2', [user.business_id, rewardId]))!;
}
