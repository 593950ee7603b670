import { z } from 'zod';
import { isoDateTime, mirroredFields, uuid } from './common.ts';
import { defineEntity } from './define-entity.ts';
import { docSqlOf, MIRRORED_COLUMNS, type ColumnMap } from './columns.ts';
import { moneySchema } from '../money.ts';

/**
 * Issue 27: a trip — where and when someone travels, what was booked for it, and the card spend
 * and claims linked to it. One mirrored row carries the whole itinerary (its bookings inside the
 * doc, confirmation codes included), so a trip reads fully offline.
 *
 * `status` is the server's at the row's last write: PLANNED (nothing booked), BOOKED (a booking
 * is BOOKED), CANCELED. IN_PROGRESS and COMPLETED follow from the dates and today; show
 * `effectiveTripStatus(trip, today)` (schema/travel-rules.ts), which both sides use.
 */
const TRIP_STATUSES = ['PLANNED', 'BOOKED', 'IN_PROGRESS', 'COMPLETED', 'CANCELED'] as const;
const tripStatusSchema = z.enum(TRIP_STATUSES);
export type TripStatus = z.infer<typeof tripStatusSchema>;

export const CABINS = ['ECONOMY', 'PREMIUM_ECONOMY', 'BUSINESS', 'FIRST'] as const;
export const cabinSchema = z.enum(CABINS);
export type Cabin = z.infer<typeof cabinSchema>;

/** Integer minor units of an ISO 4217 currency (schema/money.ts; re-exported for the travel modules). */
export { moneySchema };
export type { Money } from '../money.ts';

const isoDate = z.iso.date();
/** IATA airport code (three capital letters), e.g. SFO. */
export const iataCodeSchema = z.string().regex(/^[A-Z]{3}$/, 'must be a three-letter IATA airport code');

/** One flight leg: local times at each airport as ISO date-times with their offset. */
export const flightSegmentSchema = z.object({
  airline_code: z.string().regex(/^[A-Z0-9]{2}$/),
  airline_name: z.string(),
  flight_number: z.string(),
  origin: iataCodeSchema,
  destination: iataCodeSchema,
  departs_at: isoDateTime,
  arrives_at: isoDateTime,
  duration_minutes: z.number().int().positive(),
  cabin: cabinSchema,
});
export type FlightSegment = z.infer<typeof flightSegmentSchema>;

/** The hotel of a hotel offer or booking. */
export const hotelStaySchema = z.object({
  hotel_id: z.string(),
  name: z.string(),
  /** IATA city/airport code the hotel is searched by. */
  city: iataCodeSchema,
  address: z.string(),
  stars: z.number().int().min(1).max(5),
  check_in: isoDate,
  check_out: isoDate,
  nights: z.number().int().positive(),
  nightly: moneySchema,
  /** Local check-in time, e.g. "15:00". */
  check_in_time: z.string(),
});
export type HotelStay = z.infer<typeof hotelStaySchema>;

const BOOKING_STATUSES = ['PENDING_APPROVAL', 'BOOKED', 'REJECTED', 'CANCELED'] as const;
const bookingStatusSchema = z.enum(BOOKING_STATUSES);
export type BookingStatus = z.infer<typeof bookingStatusSchema>;
const BOOKING_KINDS = ['FLIGHT', 'HOTEL'] as const;

/**
 * A booking (`POST /v1/auth/booking/requests`), kept inside its trip's doc. BOOKED carries its
 * six-character confirmation code, the trip's card and the charge (a card transaction linked to
 * the trip); CANCELED a refund transaction on the same card when it had been charged.
 */
export const bookingSchema = z.object({
  id: uuid,
  trip_id: uuid,
  kind: z.enum(BOOKING_KINDS),
  status: bookingStatusSchema,
  offer_id: uuid,
  price: moneySchema,
  in_policy: z.boolean(),
  policy_reasons: z.array(z.string()),
  /** FLIGHT: the legs out (and back when a return was searched). */
  segments: z.array(flightSegmentSchema),
  /** HOTEL: the stay. */
  hotel: hotelStaySchema.nullable(),
  confirmation_code: z.string().regex(/^[A-Z0-9]{6}$/).nullable(),
  card_id: uuid.nullable(),
  transaction_id: uuid.nullable(),
  refund_transaction_id: uuid.nullable(),
  /** The approval of an out-of-policy booking (approvals inbox, object_type `travel_booking`). */
  approval_id: uuid.nullable(),
  rejection_reason: z.string().nullable(),
  booked_at: isoDateTime.nullable(),
  canceled_at: isoDateTime.nullable(),
  created_at: isoDateTime,
});
export type Booking = z.infer<typeof bookingSchema>;

export const tripSchema = z.object({
  id: uuid,
  /** The traveller: owner of the trip. */
  user_id: uuid,
  name: z.string().min(1).max(200),
  /** Where to: an IATA code (the city's main airport), e.g. JFK. */
  destination: iataCodeSchema,
  /** The destination's city name, for display and search. */
  destination_name: z.string(),
  start_date: isoDate,
  end_date: isoDate,
  purpose: z.string().max(2000).nullable(),
  status: tripStatusSchema,
  /** Optional budget in the business's currency. */
  budget: moneySchema.nullable(),
  /**
   * Bookings (BOOKED only) + linked transactions (not declined) + linked claims (not canceled or
   * deleted) in the budget's (else the business's) currency; `totals` has one entry per currency.
   */
  total: moneySchema,
  totals: z.array(moneySchema),
  bookings: z.array(bookingSchema),
  transaction_ids: z.array(uuid),
  reimbursement_ids: z.array(uuid),
  /** The trip's virtual card, issued at its first booking. */
  card_id: uuid.nullable(),
  canceled_at: isoDateTime.nullable(),
  created_at: isoDateTime,
  ...mirroredFields,
});
export type Trip = z.infer<typeof tripSchema>;

const csv = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v), z.array(item));

const TRIP_SORTS = ['start_desc', 'start_asc'] as const;
export type TripSort = (typeof TRIP_SORTS)[number];

export const tripFilterSchema = z.object({
  q: z.string().max(200).optional(),
  statuses: csv(tripStatusSchema).optional(),
  user_ids: csv(z.uuid()).optional(),
});
export type TripFilter = z.infer<typeof tripFilterSchema>;

/**
 * Issue 27, trips, pure. The stored status is the server's at the trip's last write (PLANNED,
 * BOOKED or CANCELED); the dates move a trip through IN_PROGRESS and COMPLETED without a write,
 * so both sides show this instead. `today` is the viewer's calendar day (YYYY-MM-DD).
 */
export function effectiveTripStatus(trip: Pick<Trip, 'status' | 'start_date' | 'end_date'>, today: string): TripStatus {
  if (trip.status === 'CANCELED') return 'CANCELED';
  if (today > trip.end_date) return 'COMPLETED';
  if (today >= trip.start_date) return 'IN_PROGRESS';
  return trip.status;
}

/**
 * The worker's filter: statuses by `effectiveTripStatus` on `today` (the UTC day, as the server's
 * list SQL), since IN_PROGRESS and COMPLETED are never stored.
 */
function matchesTripFilter(t: Trip, f: TripFilter, today = new Date().toISOString().slice(0, 10)): boolean {
  if (f.statuses?.length && !f.statuses.includes(effectiveTripStatus(t, today))) return false;
  if (f.user_ids?.length && !f.user_ids.includes(t.user_id)) return false;
  return true;
}

function compareTrips(sort: TripSort) {
  const dir = sort === 'start_asc' ? -1 : 1;
  return (a: Trip, b: Trip) =>
    a.start_date < b.start_date ? dir : a.start_date > b.start_date ? -dir : a.id < b.id ? dir : a.id > b.id ? -dir : 0;
}

/**
 * Table `trips` (migration 038). `bookings`, `transaction_ids`, `reimbursement_ids`, `budget`,
 * `total` and `totals` are computed doc values (`sql`) read from `travel_bookings`,
 * `trip_spend_events`, `transactions` and `reimbursements` when the doc is built (so a write to
 * any of them must bump the trip's change_seq for the feed to carry it: server/domain/travel/).
 *
 * What counts toward the total: BOOKED bookings at their price; linked card transactions not
 * DECLINED or REVERSED (refunds count negative) and not a booking's own charge or refund (the booking
 * counts instead: a charge is linked to its trip, and counted once); linked claims not CANCELED
 * and not deleted.
 */
/**
 * A booking's wire doc (`bookingSchema`) read from `travel_bookings` (alias `r`): the one column
 * map both the booking calls' answers (server/domain/travel/booking-doc.ts) and the trip doc's
 * `bookings` aggregate build from. `payload` is the offer as answered: `segments` (FLIGHT) or
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

/** The booking doc as SQL over a `travel_bookings` row aliased `r`. */
export const BOOKING_DOC_SQL = docSqlOf(BOOKING_COLUMNS);

/**
 * The trip's bookings, oldest first. The booking doc reads its row as `r`, which inside this
 * subquery is the booking; the trip (the outer `r`) is named `trip` first, so both keep their alias.
 */
const BOOKINGS_SQL = `(SELECT coalesce(jsonb_agg(d.doc ORDER BY d.created_at, d.id), '[]'::jsonb)
    FROM (SELECT r.id, r.business_id) AS trip,
    LATERAL (SELECT ${BOOKING_DOC_SQL} AS doc, r.created_at, r.id FROM travel_bookings r
              WHERE r.business_id = trip.business_id AND r.trip_id = trip.id) AS d)`;

const linkedIdsSql = (type: 'transaction' | 'reimbursement') => `(SELECT coalesce(jsonb_agg(e.object_id ORDER BY e.linked_at, e.object_id), '[]'::jsonb)
    FROM trip_spend_events e WHERE e.business_id = r.business_id AND e.trip_id = r.id AND e.object_type = '${type}')`;

/** Every amount that counts toward the trip's total (see above), as rows (amount, currency). */
const TRIP_SPEND_ITEMS_SQL = `SELECT b.price_amount AS amount, b.currency FROM travel_bookings b
       WHERE b.business_id = r.business_id AND b.trip_id = r.id AND b.status = 'BOOKED'
      UNION ALL
      SELECT t.amount, t.currency FROM trip_spend_events e JOIN transactions t ON t.id = e.object_id AND t.business_id = e.business_id
       WHERE e.business_id = r.business_id AND e.trip_id = r.id AND e.object_type = 'transaction' AND t.state NOT IN ('DECLINED', 'REVERSED') AND NOT t.deleted
         AND NOT EXISTS (SELECT 1 FROM travel_bookings ob WHERE ob.business_id = r.business_id AND t.id IN (ob.transaction_id, ob.refund_transaction_id))
      UNION ALL
      SELECT c.amount, c.currency FROM trip_spend_events e JOIN reimbursements c ON c.id = e.object_id AND c.business_id = e.business_id
       WHERE e.business_id = r.business_id AND e.trip_id = r.id AND e.object_type = 'reimbursement' AND c.status <> 'CANCELED' AND NOT c.deleted`;

/** The budget's currency, else the business's. */
const TRIP_CURRENCY_SQL = `coalesce(r.budget_currency, (SELECT bz.currency FROM businesses bz WHERE bz.id = r.business_id))`;

const TOTAL_SQL = `jsonb_build_object('amount', (SELECT coalesce(sum(i.amount), 0)::bigint FROM (${TRIP_SPEND_ITEMS_SQL}) i
      WHERE i.currency = ${TRIP_CURRENCY_SQL}), 'currency', ${TRIP_CURRENCY_SQL})`;

const TOTALS_SQL = `(SELECT coalesce(jsonb_agg(jsonb_build_object('amount', s.amount, 'currency', s.currency) ORDER BY s.currency), '[]'::jsonb)
    FROM (SELECT i.currency, sum(i.amount)::bigint AS amount FROM (${TRIP_SPEND_ITEMS_SQL}) i GROUP BY i.currency) s)`;

const BUDGET_SQL = `CASE WHEN r.budget_amount IS NULL THEN NULL ELSE jsonb_build_object('amount', r.budget_amount, 'currency', r.budget_currency) END`;

const tripColumns: ColumnMap<Trip> = {
  id: { type: 'uuid', indexed: true },
  user_id: { type: 'uuid' },
  name: { type: 'text' },
  destination: { type: 'text' },
  destination_name: { type: 'text' },
  start_date: { type: 'date', indexed: true },
  end_date: { type: 'date' },
  purpose: { type: 'text' },
  status: { type: 'text' },
  budget: { type: 'jsonb', sql: BUDGET_SQL },
  total: { type: 'jsonb', sql: TOTAL_SQL },
  totals: { type: 'jsonb', sql: TOTALS_SQL, missing: 'empty list' },
  bookings: { type: 'jsonb', sql: BOOKINGS_SQL, missing: 'empty list' },
  transaction_ids: { type: 'jsonb', sql: linkedIdsSql('transaction'), missing: 'empty list' },
  reimbursement_ids: { type: 'jsonb', sql: linkedIdsSql('reimbursement'), missing: 'empty list' },
  card_id: { type: 'uuid' },
  canceled_at: { type: 'timestamptz' },
  created_at: { type: 'timestamptz' },
  ...MIRRORED_COLUMNS,
};

export const tripEntity = defineEntity({
  name: 'trips',
  schema: tripSchema,
  idField: 'id',
  mirror: { kind: 'own', indexes: [] },
  visibility: 'owner',
  searchText: ['name', 'destination', 'destination_name', 'purpose'],
  query: {
    filter: tripFilterSchema,
    sorts: TRIP_SORTS,
    matches: matchesTripFilter,
    compare: compareTrips,
    referencedIds: (t: Trip) => [t.user_id],
  },
  columns: tripColumns,
});
