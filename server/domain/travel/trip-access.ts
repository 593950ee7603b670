import { isAdmin } from '../../../schema/roles.ts';
import type { TripStatus } from '../../../schema/entities/trip.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { visibilityOf, type Visibility } from '../visibility.ts';

/**
 * Issue 27: who may see and book on a trip. Trips follow the `owner` rule (schema/entities/trip.ts):
 * the traveller, their managers up the chain, and the business-wide roles see one; booking on it
 * (and canceling its bookings) is for the traveller or an admin. A trip the caller cannot see, or
 * another business's, is 404; one they see but may not book on is 403.
 */
export type TripFacts = { id: string; user_id: string; status: TripStatus; purpose: string | null; card_id: string | null; name: string };

const canSee = (vis: Visibility, userId: string) => vis.all || vis.userIds.includes(userId);

async function findTrip(db: Queryable, businessId: string, id: string, lock: boolean): Promise<TripFacts | null> {
  const [row] = await db.query<TripFacts>(
    `SELECT id::text, user_id::text, status, purpose, card_id::text, name FROM trips
      WHERE business_id = $1 AND id = $2 AND NOT deleted${lock ? ' FOR UPDATE' : ''}`,
    [businessId, id],
  );
  return row ?? null;
}

/** A trip the caller may read (404 otherwise). */
export async function tripForReading(db: Queryable, user: ActingUser, id: string): Promise<TripFacts> {
  const trip = await findTrip(db, user.business_id, id, false);
  if (!trip || !canSee(await visibilityOf(db, user), trip.user_id)) throw new ApiError('REQUEST_7004', 'Trip not found.');
  return trip;
}

/** A trip the caller may book on (locked inside writes): 404 when they cannot see it, 403 when they see but may not book. */
export async function tripForBooking(db: Queryable, user: ActingUser, id: string, lock: boolean): Promise<TripFacts> {
  const trip = await findTrip(db, user.business_id, id, lock);
  if (!trip) throw new ApiError('REQUEST_7004', 'Trip not found.');
  if (trip.user_id === user.id || isAdmin(user)) return trip;
  if (canSee(await visibilityOf(db, user), trip.user_id)) {
    throw new ApiError('FORBIDDEN_7003', 'Only the traveller or an admin can book on this trip or cancel its bookings.');
  }
  throw new ApiError('REQUEST_7004', 'Trip not found.');
}
