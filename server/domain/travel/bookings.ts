import { randomUUID } from 'node:crypto';
import type { Approval } from '../../../schema/entities/approval.ts';
import type { Card } from '../../../schema/entities/card.ts';
import type { Booking, FlightSegment, HotelStay, Trip } from '../../../schema/entities/trip.ts';
import { isAdmin } from '../../../schema/roles.ts';
import { evaluateFlightOffer, evaluateHotelOffer, localToday, type PolicyVerdict } from '../../../schema/travel-booking-rules.ts';
import type { TravelPolicy } from '../../../schema/travel-policy.ts';
import { AIRPORTS } from '../../../schema/travel/airports.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { cancelOpenApproval, openApproval } from '../approval-rows.ts';
import { writeMirrored, type MirroredWrite } from '../collections.ts';
import { chargeBooking, refundBooking } from './booking-charge.ts';
import { findTrip, touchTrip } from './trips.ts';
import { findBooking } from './booking-doc.ts';
import { assertEnabled } from './booking-search.ts';
import { travelPolicyOf, travelSettingsOf } from './settings.ts';
import { earnReward, rewardField, voidReward } from './rewards.ts';
import { tripForBooking, tripForReading, type TripFacts } from './trip-access.ts';

/**
 * Issue 27: booking requests. `POST /booking/requests {trip_id, offer_id}` books an offer on a
 * trip in one transaction: in policy it is BOOKED at once (card, charge, code: booking-charge.ts);
 * out of policy it is refused (the policy blocks: TRAVEL_7002) or waits as PENDING_APPROVAL with a
 * `travel_booking` approval under the business's `travel` chain (default: the traveller's
 * manager), and approving it books and charges it in the approval's transaction
 * (`decideTravelBooking`, called by domain/approvals.ts). Cancel refunds a charged booking on the
 * same card, or withdraws a pending one with its approval. Every write re-stamps the trip last,
 * with the write's highest seq (the answer's `change_seq`).
 *
 * Exactly once: the Idempotency-Key layer replays a key's answer; whatever the keys, a second
 * request for an offer already live (PENDING_APPROVAL or BOOKED) on the trip answers that
 * booking (200, the same body a retry gets), and on another trip is refused (TRAVEL_7024) —
 * checked under the business lock every write takes first, with the unique index
 * `travel_bookings_live_offer_once` (one live booking per offer) behind it. The offer is re-checked
 * against the policy as it is now, and a verdict other than the search's refuses (TRAVEL_7025,
 * `refusePolicyChange`); an approval books at the price offered even after the offer's
 * 30 minutes (the approver approved that price).
 */
export type BookingAnswer = Booking & { trip: Trip; change_seq: number };

async function answer(db: Queryable, businessId: string, bookingId: string, changeSeq?: number): Promise<BookingAnswer> {
  const booking = (await findBooking(db, businessId, bookingId))!;
  const trip = (await findTrip(db, businessId, { all: true }, booking.doc.trip_id))!;
  return { ...booking.doc, trip, change_seq: changeSeq ?? trip.change_seq, ...(await rewardField(db, businessId, bookingId)) };
}

type OfferRow = {
  id: string; user_id: string; kind: 'FLIGHT' | 'HOTEL'; price_amount: number; currency: string; expires_at: string; expired: boolean;
  /** The verdict the search answered for this offer (what the traveller saw). */
  searched: PolicyVerdict;
  payload: { segments?: FlightSegment[]; hotel?: HotelStay; cabin?: Booking['segments'][number]['cabin']; passengers?: number };
};

/** The offer as the policy reads it today (today at the flight's origin, or in the hotel's city). */
function judgeOffer(policy: TravelPolicy, offer: OfferRow, now: Date): PolicyVerdict {
  const price = { amount: Number(offer.price_amount), currency: offer.currency };
  const p = offer.payload;
  if (offer.kind === 'HOTEL') return evaluateHotelOffer(policy, { price, hotel: p.hotel! }, localToday(AIRPORTS[p.hotel!.city]!.tz, now));
  const today = localToday(AIRPORTS[p.segments![0]!.origin]!.tz, now);
  return evaluateFlightOffer(policy, { cabin: p.cabin!, passengers: p.passengers ?? 1, price, segments: p.segments! }, today);
}

/** A flight that has left, or a stay whose check-in day (in the hotel's city) has passed, is booked no more (TRAVEL_7023). */
function refuseStarted(kind: 'FLIGHT' | 'HOTEL', trip: { segments?: readonly FlightSegment[]; hotel?: HotelStay | null }, now: Date): void {
  if (kind === 'FLIGHT' && Date.parse(trip.segments![0]!.departs_at) < now.getTime()) {
    throw new ApiError('TRAVEL_7023', `This flight left at ${trip.segments![0]!.departs_at}: search again.`);
  }
  if (kind === 'HOTEL' && trip.hotel!.check_in < localToday(AIRPORTS[trip.hotel!.city]!.tz, now)) {
    throw new ApiError('TRAVEL_7023', `This stay began on ${trip.hotel!.check_in}: search again.`);
  }
}

const merchantOf = (offer: Pick<OfferRow, 'kind' | 'payload'>) => (offer.kind === 'HOTEL' ? offer.payload.hotel!.name : offer.payload.segments![0]!.airline_name);

async function findOffer(db: Queryable, user: ActingUser, id: string, now: Date): Promise<OfferRow> {
  const [offer] = await db.query<OfferRow>(
    `SELECT id::text, user_id::text, kind, price_amount, currency, payload, ll_iso(expires_at) AS expires_at, expires_at <= $3 AS expired,
            jsonb_build_object('in_policy', in_policy, 'reasons', policy_reasons, 'blocked', blocked) AS searched
       FROM travel_offers WHERE business_id = $1 AND id = $2`,
    [user.business_id, id, now.toISOString()],
  );
  // Another user's offer is theirs to book (an admin may book any): to anyone else it does not exist.
  if (!offer || (offer.user_id !== user.id && !isAdmin(user))) throw new ApiError('REQUEST_7004', `Offer ${id} was not found. Search again and book one of its offers.`);
  return offer;
}

/**
 * The policy may change between the search and the booking. When today's verdict is not the one
 * the traveller was shown — in policy flipped, or the offer became blocked — nothing is booked
 * (409 TRAVEL_7025): booking it silently would charge an offer they were told needs approval, or
 * send to approval one they were told was fine. A search again shows the new verdict. (An
 * offer that was blocked and now only needs approval is not refused: the search told them less.)
 */
function refusePolicyChange(offer: OfferRow, now: PolicyVerdict): void {
  const was = offer.searched;
  if (was.in_policy === now.in_policy && (was.blocked || !now.blocked)) return;
  const why = now.in_policy ? `no longer: ${was.reasons.join('; ')}` : now.reasons.join('; ');
  throw new ApiError(
    'TRAVEL_7025',
    `The travel policy changed since you searched: this offer is now ${now.in_policy ? 'in' : 'out of'} policy (${why}). Search again to confirm.`,
  );
}

type NewBooking = { id: string; trip: TripFacts; offer: OfferRow; verdict: PolicyVerdict; by: string };

async function insertBooking(tx: Queryable, b: NewBooking, businessId: string, at: string, extra: Record<string, unknown>): Promise<void> {
  const cols = {
    id: b.id, business_id: businessId, trip_id: b.trip.id, offer_id: b.offer.id, kind: b.offer.kind, price_amount: b.offer.price_amount,
    currency: b.offer.currency, in_policy: b.verdict.in_policy, policy_reasons: JSON.stringify(b.verdict.reasons),
    payload: JSON.stringify(b.offer.payload), requested_by: b.by, created_at: at, ...extra,
  };
  const names = Object.keys(cols);
  await tx.query(`INSERT INTO travel_bookings (${names.join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})`, Object.values(cols));
}

/** POST /booking/requests. */
export async function createBooking(tx: Queryable, user: ActingUser, body: { trip_id: string; offer_id: string }, now: Date): Promise<BookingAnswer> {
  return writeMirrored(tx, user.business_id, 1, async (w) => {
    const trip = await tripForBooking(tx, user, body.trip_id, true);
    const [live] = await tx.query<{ id: string; trip_id: string }>(
      `SELECT id::text, trip_id::text FROM travel_bookings WHERE business_id = $1 AND offer_id = $2 AND status IN ('PENDING_APPROVAL', 'BOOKED')`,
      [user.business_id, body.offer_id],
    );
    if (live && live.trip_id !== trip.id) throw new ApiError('TRAVEL_7024');
    if (live) return answer(tx, user.business_id, live.id);
    if (trip.status === 'CANCELED') throw new ApiError('TRAVEL_7005');
    const offer = await findOffer(tx, user, body.offer_id, now);
    const settings = await travelSettingsOf(tx, user.business_id);
    assertEnabled(settings, offer.kind);
    if (settings.require_trip_purpose && !trip.purpose?.trim()) throw new ApiError('TRAVEL_7021');
    if (offer.expired) throw new ApiError('TRAVEL_7001', `Offer ${offer.id} expired at ${offer.expires_at}. Search again for current prices.`);
    refuseStarted(offer.kind, offer.payload, now);
    const verdict = judgeOffer((await travelPolicyOf(tx, user.business_id)).policy, offer, now);
    refusePolicyChange(offer, verdict);
    if (verdict.blocked) throw new ApiError('TRAVEL_7002', `Offer ${offer.id} is outside the travel policy, which does not allow booking it: ${verdict.reasons.join('; ')}.`);
    const b: NewBooking = { id: randomUUID(), trip, offer, verdict, by: user.id };
    const at = now.toISOString();
    if (verdict.in_policy) {
      const charge = await chargeBooking(tx, w, {
        businessId: user.business_id, trip, kind: offer.kind, price: { amount: Number(offer.price_amount), currency: offer.currency },
        merchant: merchantOf(offer), by: user.id, settings, now,
      });
      await insertBooking(tx, b, user.business_id, at, {
        status: 'BOOKED', confirmation_code: charge.confirmation_code, card_id: charge.card.id, transaction_id: charge.transaction_id, booked_at: at,
      });
      await earnReward(tx, user.business_id, b.id, now);
      return answer(tx, user.business_id, b.id, await touchTrip(tx, user.business_id, trip.id, (await w.reserve(1)).last, now, charge.card.id));
    }
    const approval = await openApproval(tx, {
      id: b.id, business_id: user.business_id, user_id: trip.user_id, updated_at: at, amount: Number(offer.price_amount), currency: offer.currency,
    }, w.seqs.first, 'travel_booking');
    await insertBooking(tx, b, user.business_id, at, { status: 'PENDING_APPROVAL', approval_id: approval.id });
    return answer(tx, user.business_id, b.id, await touchTrip(tx, user.business_id, trip.id, (await w.reserve(1)).last, now));
  });
}

/** GET /booking/requests/:id: a booking of a trip the caller may see. */
export async function getBooking(db: Queryable, user: ActingUser, id: string): Promise<BookingAnswer> {
  const booking = await findBooking(db, user.business_id, id);
  if (!booking) throw new ApiError('REQUEST_7004', 'Booking not found.');
  await tripForReading(db, user, booking.doc.trip_id);
  return answer(db, user.business_id, id);
}

/** POST /booking/requests/:id/cancel: BOOKED → CANCELED with its refund; PENDING_APPROVAL → CANCELED with its approval. */
export async function cancelBooking(tx: Queryable, user: ActingUser, id: string, now: Date): Promise<BookingAnswer> {
  return writeMirrored(tx, user.business_id, 1, async (w) => {
    const booking = await findBooking(tx, user.business_id, id, true);
    if (!booking) throw new ApiError('REQUEST_7004', 'Booking not found.');
    const trip = await tripForBooking(tx, user, booking.doc.trip_id, true);
    const b = booking.doc;
    const at = now.toISOString();
    if (b.status === 'BOOKED') {
      const refund = await refundBooking(tx, w, user.business_id, { trip_id: trip.id, card_id: b.card_id!, transaction_id: b.transaction_id!, kind: b.kind }, user.id, now);
      await tx.query(
        `UPDATE travel_bookings SET status = 'CANCELED', refund_transaction_id = $3, canceled_at = $4 WHERE business_id = $1 AND id = $2`,
        [user.business_id, id, refund, at],
      );
      await voidReward(tx, user.business_id, id, 'Booking canceled', user.id, now);
    } else if (b.status === 'PENDING_APPROVAL') {
      await cancelOpenApproval(tx, { id, business_id: user.business_id, updated_at: at }, w.seqs.first);
      await tx.query(`UPDATE travel_bookings SET status = 'CANCELED', canceled_at = $3 WHERE business_id = $1 AND id = $2`, [user.business_id, id, at]);
    } else {
      throw new ApiError('TRAVEL_7020', `This booking is ${b.status === 'CANCELED' ? 'already canceled' : 'rejected'}: there is nothing to cancel.`);
    }
    return answer(tx, user.business_id, id, await touchTrip(tx, user.business_id, trip.id, (await w.reserve(1)).last, now));
  });
}

/**
 * The booking's requester never decides it (APPROVAL_7201), whoever the traveller is: an admin who
 * booked out of policy on someone's trip waits for another approver like anyone. Called by
 * domain/approvals.ts before any step of the chain moves.
 */
export async function refuseOwnBookingRequest(db: Queryable, reviewer: ActingUser, approval: Approval): Promise<void> {
  const booking = await findBooking(db, reviewer.business_id, approval.object_id);
  if (booking?.requested_by === reviewer.id) {
    throw new ApiError('APPROVAL_7201', 'You requested this travel booking, so you cannot decide it. Another approver must decide it.');
  }
}

/**
 * The last step of a `travel_booking` approval decided (domain/approvals.ts, in its transaction,
 * after the business and approval locks): approved, the booking is booked and charged as an
 * in-policy one would be (card issued by the approver's act); rejected, it keeps the reason.
 */
export async function decideTravelBooking(
  tx: Queryable, reviewer: ActingUser, approval: Approval, decision: { status: 'APPROVED' } | { status: 'REJECTED'; reason: string },
  w: MirroredWrite, seq: number, now: Date,
): Promise<{ card?: Card; change_seq: number }> {
  const booking = await findBooking(tx, reviewer.business_id, approval.object_id, true);
  if (!booking) throw new ApiError('REQUEST_7004');
  if (booking.doc.status !== 'PENDING_APPROVAL') throw new ApiError('REQUEST_7001', `This booking is ${booking.doc.status}: there is nothing to decide.`);
  const [trip] = await tx.query<TripFacts>(
    'SELECT id::text, user_id::text, status, purpose, card_id::text, name FROM trips WHERE business_id = $1 AND id = $2 FOR UPDATE',
    [reviewer.business_id, booking.doc.trip_id],
  );
  if (decision.status === 'REJECTED') {
    await tx.query(`UPDATE travel_bookings SET status = 'REJECTED', rejection_reason = $3 WHERE business_id = $1 AND id = $2`,
      [reviewer.business_id, booking.doc.id, decision.reason]);
    return { change_seq: await touchTrip(tx, reviewer.business_id, trip!.id, seq, now) };
  }
  if (trip!.status === 'CANCELED') throw new ApiError('TRAVEL_7005');
  const b = booking.doc;
  refuseStarted(b.kind, b, now);
  const charge = await chargeBooking(tx, w, {
    businessId: reviewer.business_id, trip: trip!, kind: b.kind, price: b.price,
    merchant: b.kind === 'HOTEL' ? b.hotel!.name : b.segments[0]!.airline_name, by: reviewer.id, settings: await travelSettingsOf(tx, reviewer.business_id), now,
  });
  await tx.query(
    `UPDATE travel_bookings SET status = 'BOOKED', confirmation_code = $3, card_id = $4, transaction_id = $5, booked_at = $6 WHERE business_id = $1 AND id = $2`,
    [reviewer.business_id, b.id, charge.confirmation_code, charge.card.id, charge.transaction_id, now.toISOString()],
  );
  await earnReward(tx, reviewer.business_id, b.id, now);
  const changeSeq = await touchTrip(tx, reviewer.business_id, trip!.id, (await w.reserve(1)).last, now, charge.card.id);
  return charge.card_issued ? { card: charge.card, change_seq: changeSeq } : { change_seq: changeSeq };
}
