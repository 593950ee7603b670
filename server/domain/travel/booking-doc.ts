import { docSqlOf, type ColumnMap } from '../../../schema/entities/columns.ts';
import { bookingSchema, type Booking } from '../../../schema/entities/trip.ts';
import type { Queryable } from '../../db/db.ts';

/**
 * Issue 27: a booking's wire doc (schema/entities/trip.ts `bookingSchema`) read from
 * `travel_bookings` (alias `r`), one column map like the mirrored entities' (issue 26), so the
 * trip doc's `bookings` (a `jsonb_agg` of this over the trip's rows) and the booking calls'
 * answers are one definition. `payload` is the offer as answered: `segments` (FLIGHT) or
 * `hotel` (HOTEL).
 */
const BOOKING_COLUMNS: ColumnMap<Booking> = {
  id: { type: 'uuid' },
  trip_id: { type: 'uuid' },
  kind: { type: 'text' },
  status: { type: 'text' },
  offer_id: { type: 'uuid' },
  price: { type: 'jsonb', sql: `jsonb_build_object('amount', r.price_amount, 'currency', r.currency)` },
  in_policy: { type: 'bool' },
  policy_reasons: { type: 'jsonb' },
  segments: { type: 'jsonb', sql: `coalesce(r.payload->'segments', '[]'::jsonb)` },
  hotel: { type: 'jsonb', sql: `r.payload->'hotel'` },
  confirmation_code: { type: 'text' },
  card_id: { type: 'uuid' },
  transaction_id: { type: 'uuid' },
  refund_transaction_id: { type: 'uuid' },
  approval_id: { type: 'uuid' },
  rejection_reason: { type: 'text' },
  booked_at: { type: 'timestamptz' },
  canceled_at: { type: 'timestamptz' },
  created_at: { type: 'timestamptz' },
};
const BOOKING_DOC = docSqlOf(BOOKING_COLUMNS);

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
