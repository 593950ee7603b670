import { docSqlOf, type ColumnMap } from '../../../schema/entities/columns.ts';
import { bookingSchema, tripSchema, type Booking, type Money, type Trip } from '../../../schema/entities/trip.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';

/**
 * Issue 27: a booking's wire doc (schema/entities/trip.ts `bookingSchema`) read from
 * `travel_bookings` (alias `r`), one column map like the mirrored entities' (issue 26), so the
 * trip doc's `bookings` (a `jsonb_agg` of this over the trip's rows) and the booking calls'
 * answers are one definition. `payload` is the offer as answered: `segments` (FLIGHT) or
 * `hotel` (HOTEL).
 */
export const BOOKING_COLUMNS: ColumnMap<Booking> = {
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
export const BOOKING_DOC = docSqlOf(BOOKING_COLUMNS);

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

type TripRow = {
  id: string; business_id: string; user_id: string; name: string; destination: string; destination_name: string; start_date: string; end_date: string;
  purpose: string | null; status: Trip['status']; budget_amount: number | null; budget_currency: string | null; card_id: string | null;
  canceled_at: string | null; created_at: string; change_seq: number; updated_at: string; deleted: boolean; business_currency: string;
};

/**
 * The trip as its doc reads (schema/entities/trip.ts `tripSchema`): its bookings (every status,
 * newest first), its linked transactions and claims, and `totals` per currency — BOOKED bookings,
 * linked transactions that are not declined (a booking's own charge and refund are its booking's
 * price already, so they are left out of this sum), and linked claims neither canceled nor
 * deleted; `total` is the budget's currency's (else the business's) entry of them.
 */
export async function readTripDoc(db: Queryable, businessId: string, tripId: string): Promise<Trip> {
  const [trip] = await db.query<TripRow>(
    `SELECT t.id::text, t.business_id::text, t.user_id::text, t.name, t.destination, t.destination_name, to_char(t.start_date, 'YYYY-MM-DD') AS start_date,
            to_char(t.end_date, 'YYYY-MM-DD') AS end_date, t.purpose, t.status, t.budget_amount, t.budget_currency, t.card_id::text,
            ll_iso(t.canceled_at) AS canceled_at, ll_iso(t.created_at) AS created_at, t.change_seq, ll_iso(t.updated_at) AS updated_at,
            t.deleted, b.currency AS business_currency
       FROM trips t JOIN businesses b ON b.id = t.business_id WHERE t.business_id = $1 AND t.id = $2`,
    [businessId, tripId],
  );
  if (!trip) throw new ApiError('REQUEST_7004');
  const bookings = await db.query<{ doc: Booking }>(
    `SELECT ${BOOKING_DOC} AS doc FROM travel_bookings r WHERE r.trip_id = $1 ORDER BY r.created_at DESC, r.id DESC`, [tripId],
  );
  const links = await db.query<{ object_type: string; object_id: string }>(
    `SELECT object_type, object_id::text FROM trip_spend_events WHERE business_id = $1 AND trip_id = $2 ORDER BY linked_at, object_id`,
    [businessId, tripId],
  );
  const sums = await db.query<{ currency: string; amount: number }>(
    `SELECT currency, sum(amount)::int8 AS amount FROM (
       SELECT currency, price_amount AS amount FROM travel_bookings WHERE trip_id = $2 AND status = 'BOOKED'
       UNION ALL
       SELECT x.currency, x.amount FROM trip_spend_events e JOIN transactions x ON x.id = e.object_id
        WHERE e.business_id = $1 AND e.trip_id = $2 AND e.object_type = 'transaction' AND x.state <> 'DECLINED' AND NOT x.deleted
          AND NOT EXISTS (SELECT 1 FROM travel_bookings b WHERE b.trip_id = $2 AND x.id IN (b.transaction_id, b.refund_transaction_id))
       UNION ALL
       SELECT c.currency, c.amount FROM trip_spend_events e JOIN reimbursements c ON c.id = e.object_id
        WHERE e.business_id = $1 AND e.trip_id = $2 AND e.object_type = 'reimbursement' AND c.status <> 'CANCELED' AND NOT c.deleted
     ) s GROUP BY currency ORDER BY currency`,
    [businessId, tripId],
  );
  const totals: Money[] = sums.map((s) => ({ amount: Number(s.amount), currency: s.currency }));
  const currency = trip.budget_currency ?? trip.business_currency;
  const { budget_amount, budget_currency, business_currency: _, ...rest } = trip;
  return tripSchema.parse({
    ...rest,
    budget: budget_amount !== null && budget_currency ? { amount: Number(budget_amount), currency: budget_currency } : null,
    total: totals.find((t) => t.currency === currency) ?? { amount: 0, currency },
    totals,
    bookings: bookings.map((b) => b.doc),
    transaction_ids: links.filter((l) => l.object_type === 'transaction').map((l) => l.object_id),
    reimbursement_ids: links.filter((l) => l.object_type === 'reimbursement').map((l) => l.object_id),
    change_seq: Number(trip.change_seq),
  });
}
