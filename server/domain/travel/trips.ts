import { z } from 'zod';
import type { TripCreateBody, TripPatch } from '../../../schema/api/calls-travel.ts';
import { applyTripCreate, applyTripPatch, hasLiveBookings, newTrip } from '../../../schema/commands/trip.ts';
import { tripEntity, tripSchema, type Trip, type TripFilter } from '../../../schema/entities/trip.ts';
import { isAdmin } from '../../../schema/roles.ts';
import { queryTerms } from '../../../schema/transaction-query.ts';
import { LIVE_BOOKING_STATUSES, tripDateErrors } from '../../../schema/travel-rules.ts';
import { AIRPORTS } from '../../../schema/travel/airports.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError, validationError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { COLLECTIONS, writeMirrored } from '../collections.ts';
import { newestFirstPage, type KeysetOrder, type PageRequest } from '../newest-first-page.ts';
import { escapeLike } from '../transaction-sql.ts';
import { visibleUsersClause, type Visibility } from '../visibility.ts';
import { travelSettingsOf } from './settings.ts';

/**
 * Trips (issue 27): the traveller's own, mirrored with the `owner` rule (their managers and the
 * business-wide roles read them). Every write goes through writeMirrored; the doc's computed
 * values (bookings, linked ids, totals) are read from their tables when the doc is built, so a
 * write to any of them stamps the trip with a new seq (`touchTrip`). Only the traveller or an
 * admin writes a trip: anyone else gets 404, as for a trip they cannot see.
 * The field rules are the shared commands' `apply` (schema/commands/trip.ts), run here too.
 */

const DOC = COLLECTIONS.trips.docSql;

/** One visible, live trip as its wire doc, or null. */
export async function findTrip(db: Queryable, businessId: string, vis: Visibility, id: string): Promise<Trip | null> {
  const params: unknown[] = [businessId, id];
  const rows = await db.query<{ doc: Trip }>(
    `SELECT ${DOC} AS doc FROM trips r WHERE r.business_id = $1 AND r.id = $2 AND NOT r.deleted${visibleUsersClause(vis, 'r', params)}`,
    params,
  );
  return rows[0]?.doc ?? null;
}

/**
 * The trip a write may change, locked (after the write's seq is reserved: the business row first).
 * The traveller's own, or any of the business's for an admin; anything else is 404.
 */
export async function tripForWrite(tx: Queryable, user: ActingUser, id: string): Promise<Trip> {
  const [row] = await tx.query<{ user_id: string }>(
    'SELECT user_id::text FROM trips WHERE business_id = $1 AND id = $2 AND NOT deleted FOR UPDATE', [user.business_id, id],
  );
  if (!row || (row.user_id !== user.id && !isAdmin(user))) throw new ApiError('REQUEST_7004');
  return tripSchema.parse((await findTrip(tx, user.business_id, { all: true }, id))!);
}

/**
 * Re-stamps the trip so its mirrored doc (bookings inside) moves: `seq` (the write's own), its card once
 * issued, and its status from its bookings — BOOKED while one is BOOKED, else PLANNED (a
 * canceled trip stays CANCELED).
 */
export async function touchTrip(tx: Queryable, businessId: string, tripId: string, seq: number, now = new Date(), cardId: string | null = null): Promise<number> {
  await tx.query(
    `UPDATE trips t SET change_seq = $3, updated_at = $4, card_id = coalesce(t.card_id, $5::uuid),
            status = CASE WHEN t.status = 'CANCELED' THEN t.status
                          WHEN EXISTS (SELECT 1 FROM travel_bookings b WHERE b.business_id = t.business_id AND b.trip_id = t.id AND b.status = 'BOOKED')
                          THEN 'BOOKED'
                          ELSE 'PLANNED' END
      WHERE t.business_id = $1 AND t.id = $2`,
    [businessId, tripId, seq, now.toISOString(), cardId],
  );
  return seq;
}

const SEARCH_COLUMNS = tripEntity.searchText.map((f) => `r.${f}`).join(', ');
/** Latest start first, then id. */
const START_DESC: KeysetOrder = {
  sort: 'start_desc',
  keys: [{ column: 'r.start_date', text: `to_char(r.start_date, 'YYYY-MM-DD')`, cast: 'date' }, { column: 'r.id', text: 'r.id::text', cast: 'uuid' }],
  cursor: z.tuple([z.iso.date(), z.uuid()]),
};

/** The effective status in SQL (`effectiveTripStatus`), `$today` the list's UTC day. */
const effectiveStatusSql = (today: string) => `CASE WHEN r.status = 'CANCELED' THEN r.status
  WHEN r.end_date < ${today}::date THEN 'COMPLETED' WHEN r.start_date <= ${today}::date THEN 'IN_PROGRESS' ELSE r.status END`;

/**
 * §7 keyset list, latest start first (then id); `q` matches the definition's `searchText`;
 * statuses are the effective ones on `now`'s UTC day (IN_PROGRESS and COMPLETED are never stored).
 */
export async function listTrips(db: Queryable, businessId: string, vis: Visibility, req: PageRequest & { filter: TripFilter; now: Date }) {
  const params: unknown[] = [businessId];
  const conds = ['r.business_id = $1', 'NOT r.deleted'];
  const f = req.filter;
  if (f.statuses?.length) {
    const today = `$${params.push(req.now.toISOString().slice(0, 10))}`;
    conds.push(`(${effectiveStatusSql(today)}) = ANY($${params.push(f.statuses)}::text[])`);
  }
  if (f.user_ids?.length) conds.push(`r.user_id = ANY($${params.push(f.user_ids)}::uuid[])`);
  for (const term of queryTerms(f.q)) conds.push(`lower(concat_ws(' ', ${SEARCH_COLUMNS})) LIKE $${params.push(`%${escapeLike(term)}%`)}`);
  const where = conds.join(' AND ') + visibleUsersClause(vis, 'r', params);
  return newestFirstPage<Trip>(db, { table: 'trips', doc: DOC, where, params, order: START_DESC }, req);
}

function checkDestination(code: string | undefined): void {
  if (code !== undefined && !Object.hasOwn(AIRPORTS, code)) throw validationError({ destination: `destination ${code} is not a known airport code` });
}

const COLUMNS = ['name', 'destination', 'destination_name', 'start_date', 'end_date', 'purpose', 'status', 'canceled_at', 'change_seq', 'updated_at'] as const;
const values = (t: Trip) => [...COLUMNS.map((c) => t[c]), t.budget?.amount ?? null, t.budget?.currency ?? null];

async function businessCurrency(tx: Queryable, businessId: string): Promise<string> {
  const [b] = await tx.query<{ currency: string }>('SELECT currency FROM businesses WHERE id = $1', [businessId]);
  if (!b) throw new ApiError('REQUEST_7004');
  return b.currency;
}

const idTaken = () => validationError({ id: 'id is already used by another trip' });

/**
 * The stored trip under a client id: the caller's own (their repeat answers it), null when the
 * business has no trip under it, refused when anyone else's of the business holds it. Only the
 * business's rows are read; an id another business holds is found by the insert (createTrip).
 */
async function tripUnderClientId(tx: Queryable, user: ActingUser, id: string): Promise<Trip | null> {
  const [existing] = await tx.query<{ created_by: string; deleted: boolean }>(
    'SELECT created_by::text, deleted FROM trips WHERE business_id = $1 AND id = $2', [user.business_id, id],
  );
  if (!existing) return null;
  if (existing.created_by === user.id && !existing.deleted) return (await findTrip(tx, user.business_id, { all: true }, id))!;
  throw idTaken();
}

/**
 * A new trip of the caller's own, PLANNED. The body's optional `id` (client-generated, offline
 * creates) names it; the caller's repeat under that id answers the stored trip unchanged, even
 * when the repeat races the first write (the insert yields on the id, then reads what won). An id
 * used by anything else is refused. No budget given: the settings' default budget.
 */
export async function createTrip(tx: Queryable, user: ActingUser, body: TripCreateBody, now: Date): Promise<Trip> {
  const id = body.id ?? crypto.randomUUID();
  const repeat = body.id ? await tripUnderClientId(tx, user, id) : null;
  if (repeat) return repeat;
  checkDestination(body.destination);
  const errors = tripDateErrors(body, now, true);
  if (Object.keys(errors).length > 0) throw validationError(errors);
  const budget = body.budget === undefined ? (await travelSettingsOf(tx, user.business_id)).default_trip_budget : body.budget;
  const at = now.toISOString();
  const blank = newTrip(body, { id, actor: { user_id: user.id, business_id: user.business_id }, at }, await businessCurrency(tx, user.business_id));
  const row = applyTripCreate(blank, { ...body, budget });
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const [stored] = await tx.query<{ doc: Trip }>(
      `INSERT INTO trips AS r (id, business_id, user_id, created_by, created_at, ${COLUMNS.join(', ')}, budget_amount, budget_currency)
       VALUES ($1, $2, $3, $3, $4, ${COLUMNS.map((_, i) => `$${i + 5}`).join(', ')}, $${COLUMNS.length + 5}, $${COLUMNS.length + 6})
       ON CONFLICT (id) DO NOTHING
       RETURNING ${DOC} AS doc`,
      [id, user.business_id, user.id, at, ...values({ ...row, change_seq: seqs.first })],
    );
    // Nothing inserted: the id is taken, by the caller's racing repeat (answered) or by a row
    // tripUnderClientId cannot see (another business's), which is refused the same way.
    if (stored) return stored.doc;
    const raced = await tripUnderClientId(tx, user, id);
    if (!raced) throw idTaken();
    return raced;
  });
}

async function storeTrip(tx: Queryable, next: Trip): Promise<Trip> {
  const sets = [...COLUMNS, 'budget_amount', 'budget_currency'].map((c, i) => `${c} = $${i + 3}`).join(', ');
  const [row] = await tx.query<{ doc: Trip }>(
    `UPDATE trips r SET ${sets} WHERE r.business_id = $1 AND r.id = $2 RETURNING ${DOC} AS doc`,
    [next.business_id, next.id, ...values(next)],
  );
  return row!.doc;
}

/**
 * PATCH: the fields, and `canceled: true` (refused while a booking holds the trip). A canceled
 * trip takes no edit. Dates that move must still end today or later.
 */
export async function patchTrip(tx: Queryable, user: ActingUser, id: string, patch: TripPatch, now: Date): Promise<Trip> {
  checkDestination(patch.destination);
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const current = await tripForWrite(tx, user, id);
    if (current.status === 'CANCELED') throw new ApiError('TRAVEL_7008');
    if (patch.canceled && hasLiveBookings(current)) throw new ApiError('TRAVEL_7006');
    const next = applyTripPatch({ ...current, change_seq: seqs.last, updated_at: now.toISOString() }, patch);
    const moved = next.start_date !== current.start_date || next.end_date !== current.end_date;
    const errors = tripDateErrors(next, now, moved);
    if (Object.keys(errors).length > 0) throw validationError(errors);
    return storeTrip(tx, next);
  });
}

/** Deletes a trip with no live booking: a tombstone with a new seq; its spend links are let go. */
export async function deleteTrip(tx: Queryable, user: ActingUser, id: string): Promise<{ id: string; deleted: true; change_seq: number }> {
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    await tripForWrite(tx, user, id);
    const [live] = await tx.query<{ n: number }>(
      'SELECT count(*) AS n FROM travel_bookings WHERE business_id = $1 AND trip_id = $2 AND status = ANY($3::text[])',
      [user.business_id, id, [...LIVE_BOOKING_STATUSES]],
    );
    if (Number(live?.n ?? 0) > 0) throw new ApiError('TRAVEL_7003');
    await tx.query('DELETE FROM trip_spend_events WHERE business_id = $1 AND trip_id = $2', [user.business_id, id]);
    await tx.query('UPDATE trips SET deleted = true, change_seq = $3, updated_at = now() WHERE business_id = $1 AND id = $2',
      [user.business_id, id, seqs.last]);
    return { id, deleted: true as const, change_seq: seqs.last };
  });
}
