import type { SpendEventsBody } from '../../../schema/api/calls-travel.ts';
import type { Trip } from '../../../schema/entities/trip.ts';
import { isAdmin } from '../../../schema/roles.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { writeMirrored } from '../collections.ts';
import { findTrip, touchTrip, tripForWrite } from './trips.ts';

/**
 * A trip's spend events (issue 27): card transactions and claims linked to it, one trip each at
 * most (the table's key). The traveller links their own; an admin links any of the business's to
 * any trip. Every change stamps the trip with a new seq, so the feed carries its new lists and
 * totals (the linked rows themselves do not change).
 */

type ObjectType = 'transaction' | 'reimbursement';
const TABLES: Record<ObjectType, string> = { transaction: 'transactions', reimbursement: 'reimbursements' };

/**
 * The ids the trip may take: live rows of the business (else 404), the traveller's own unless the
 * caller is an admin (else 404 too: a trip is no way to reach someone else's spend).
 */
async function checkLinkable(tx: Queryable, user: ActingUser, trip: Trip, type: ObjectType, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const rows = await tx.query<{ id: string; user_id: string }>(
    `SELECT id::text, user_id::text FROM ${TABLES[type]} WHERE business_id = $1 AND id = ANY($2::uuid[]) AND NOT deleted`,
    [user.business_id, ids],
  );
  const owner = new Map(rows.map((r) => [r.id, r.user_id]));
  for (const id of ids) {
    const of = owner.get(id);
    if (of === undefined || (!isAdmin(user) && of !== trip.user_id)) {
      throw new ApiError('REQUEST_7004', `No ${type === 'transaction' ? 'card transaction' : 'claim'} ${id} can be linked to this trip.`);
    }
  }
}

/**
 * A booking's own charge or refund stays on its trip (TRAVEL_7009): unlinked and linked
 * elsewhere, it would count twice (the booking on one trip, the charge on the other).
 */
async function refuseBookingCharges(tx: Queryable, businessId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const [held] = await tx.query<{ id: string }>(
    `SELECT x.id::text FROM unnest($2::uuid[]) AS x(id)
      WHERE EXISTS (SELECT 1 FROM travel_bookings b WHERE b.business_id = $1 AND x.id IN (b.transaction_id, b.refund_transaction_id))`,
    [businessId, ids],
  );
  if (held) throw new ApiError('TRAVEL_7009', `Card transaction ${held.id} belongs to a booking: it stays with its trip.`);
}

/** Inserts the links; an id linked to another trip refuses the whole request (TRAVEL_7007), whoever won a race. */
async function insertLinks(tx: Queryable, user: ActingUser, tripId: string, type: ObjectType, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const inserted = await tx.query<{ object_id: string }>(
    `INSERT INTO trip_spend_events (business_id, trip_id, object_type, object_id, linked_by)
     SELECT $1, $2, $3, unnest($4::uuid[]), $5 ON CONFLICT DO NOTHING RETURNING object_id::text`,
    [user.business_id, tripId, type, [...new Set(ids)], user.id],
  );
  const elsewhere = await tx.query<{ object_id: string }>(
    `SELECT object_id::text FROM trip_spend_events WHERE business_id = $1 AND object_type = $2 AND object_id = ANY($3::uuid[]) AND trip_id <> $4`,
    [user.business_id, type, ids, tripId],
  );
  if (elsewhere.length > 0) throw new ApiError('TRAVEL_7007', `${type === 'transaction' ? 'Card transaction' : 'Claim'} ${elsewhere[0]!.object_id} is already linked to another trip. Unlink it there first.`);
  return inserted.length;
}

/** PUT: links the ids (those already on this trip are no-ops). A canceled trip takes none (TRAVEL_7005). */
export async function linkSpend(tx: Queryable, user: ActingUser, tripId: string, body: SpendEventsBody): Promise<Trip> {
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const trip = await tripForWrite(tx, user, tripId);
    if (trip.status === 'CANCELED') throw new ApiError('TRAVEL_7005');
    await checkLinkable(tx, user, trip, 'transaction', body.transaction_ids);
    await refuseBookingCharges(tx, user.business_id, body.transaction_ids);
    await checkLinkable(tx, user, trip, 'reimbursement', body.reimbursement_ids);
    const added = (await insertLinks(tx, user, tripId, 'transaction', body.transaction_ids))
      + (await insertLinks(tx, user, tripId, 'reimbursement', body.reimbursement_ids));
    if (added > 0) await touchTrip(tx, user.business_id, tripId, seqs.last);
    return (await findTrip(tx, user.business_id, { all: true }, tripId))!;
  });
}

/** DELETE: unlinks the ids from this trip (ids not linked to it are no-ops). */
export async function unlinkSpend(tx: Queryable, user: ActingUser, tripId: string, body: SpendEventsBody): Promise<Trip> {
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    await tripForWrite(tx, user, tripId);
    await refuseBookingCharges(tx, user.business_id, body.transaction_ids);
    const removed = await tx.query<{ object_id: string }>(
      `DELETE FROM trip_spend_events WHERE business_id = $1 AND trip_id = $2
          AND ((object_type = 'transaction' AND object_id = ANY($3::uuid[])) OR (object_type = 'reimbursement' AND object_id = ANY($4::uuid[])))
       RETURNING object_id::text`,
      [user.business_id, tripId, body.transaction_ids, body.reimbursement_ids],
    );
    if (removed.length > 0) await touchTrip(tx, user.business_id, tripId, seqs.last);
    return (await findTrip(tx, user.business_id, { all: true }, tripId))!;
  });
}
