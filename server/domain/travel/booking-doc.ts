import { BOOKING_DOC_SQL, bookingSchema, type Booking } from '../../../schema/entities/trip.ts';
import type { Queryable } from '../../db/db.ts';

/**
 * Issue 27: a booking's wire doc, from the one column map (schema/entities/trip.ts
 * `BOOKING_COLUMNS`) the trip doc's `bookings` aggregate is built from too, so the booking calls'
 * answers and the trip's itinerary are one definition.
 */
const BOOKING_DOC = BOOKING_DOC_SQL;

/** A stored booking row with what the writes read besides its doc. */
export type BookingRow = { doc: Booking; business_id: string; payload: Record<string, unknown>; requested_by: string };

/** One booking of the business (FOR UPDATE inside writes), or null. */
export async function findBooking(db: Queryable, businessId: string, id: string, lock = false): Promise<BookingRow | null> {
  const [row] = await db.query<BookingRow>(
    `SELECT ${BOOKING_DOC} AS doc, r.business_id::text, r.payload, r.requested_by::text
       FROM travel_bookings r WHERE r.business_id = $1 AND r.id = $2${lock ? ' FOR UPDATE' : ''}`,
    [businessId, id],
  );
  return row ? { ...row, doc: bookingSchema.parse(row.doc) } : null;
}
