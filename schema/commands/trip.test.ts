import { describe, expect, it } from 'vitest';
import { tripSchema, type Booking, type Trip } from '../entities/trip.ts';
import { applySpendLinks, applyTripPatch, tripCreate, tripDelete, tripLinkSpend, tripUnlinkSpend, tripUpdate } from './trip.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const AT = '2026-11-20T12:00:00.000Z';
const ACTOR = { user_id: id(2), business_id: id(9) };

const createArgs = (over: Record<string, unknown> = {}) => tripCreate.args.parse({
  id: id(1), name: ' Client visit ', destination: 'JFK', start_date: '2026-12-01', end_date: '2026-12-03', currency: 'GBP', ...over,
});
const created = (over: Record<string, unknown> = {}): Trip => {
  const args = createArgs(over);
  return tripCreate.apply(tripCreate.blank!(args, { id: args.id, actor: ACTOR, at: AT }), args);
};
const booking = (status: Booking['status']): Booking => ({
  id: id(40), trip_id: id(1), kind: 'HOTEL', status, offer_id: id(41), price: { amount: 30_000, currency: 'USD' }, in_policy: true,
  policy_reasons: [], segments: [], hotel: null, confirmation_code: null, card_id: null, transaction_id: null, refund_transaction_id: null,
  approval_id: null, rejection_reason: null, booked_at: null, canceled_at: null, created_at: AT,
});

describe('trip commands', () => {
  it('create: the blank is a valid PLANNED trip of the actor, the city named, the budget in the business currency; the currency is not sent', () => {
    const trip = created({ budget: 150_000, purpose: 'Renewal' });
    expect(tripSchema.parse(trip)).toEqual(trip);
    expect(trip).toMatchObject({
      id: id(1), user_id: ACTOR.user_id, business_id: ACTOR.business_id, name: 'Client visit', destination: 'JFK', destination_name: 'New York',
      status: 'PLANNED', budget: { amount: 150_000, currency: 'GBP' }, total: { amount: 0, currency: 'GBP' }, purpose: 'Renewal',
      transaction_ids: [], reimbursement_ids: [], bookings: [], created_at: AT,
    });
    const args = createArgs();
    expect(tripCreate.request(args)).toEqual({ body: { id: id(1), name: 'Client visit', destination: 'JFK', start_date: '2026-12-01', end_date: '2026-12-03' } });
    expect(tripCreate.entityIds(args)).toEqual([id(1)]);
    // Without a currency (an entry queued before it was known): USD until the server's row arrives.
    expect(created({ currency: undefined }).total.currency).toBe('USD');
  });

  it('update: fields, a new destination renames the city, budget null clears; cancel stamps the write moment', () => {
    const trip = created({ budget: 1_000 });
    const edited = tripUpdate.apply(trip, tripUpdate.args.parse({ trip_id: id(1), patch: { destination: 'LHR', budget: null, name: 'London' } }));
    expect(edited).toMatchObject({ destination: 'LHR', destination_name: 'London', budget: null, name: 'London', status: 'PLANNED' });
    const later = { ...trip, updated_at: '2026-11-21T08:00:00.000Z' };
    expect(applyTripPatch(later, { canceled: true })).toMatchObject({ status: 'CANCELED', canceled_at: '2026-11-21T08:00:00.000Z' });
    expect(tripUpdate.request(tripUpdate.args.parse({ trip_id: id(1), patch: { name: 'X' } }))).toEqual({ params: { trip_id: id(1) }, body: { name: 'X' } });
  });

  it('refused moves leave the row: cancel with a live booking, any edit of a canceled trip', () => {
    const held = { ...created(), bookings: [booking('PENDING_APPROVAL')] };
    expect(applyTripPatch(held, { canceled: true })).toBe(held);
    const released = { ...created(), bookings: [booking('REJECTED')] };
    expect(applyTripPatch(released, { canceled: true }).status).toBe('CANCELED');
    const canceled = applyTripPatch(created(), { canceled: true });
    expect(applyTripPatch(canceled, { name: 'Again' })).toBe(canceled);
  });

  it('delete: a tombstone unless a booking holds the trip', () => {
    const args = { trip_id: id(1) };
    expect(tripDelete.apply(created(), args).deleted).toBe(true);
    const booked = { ...created(), bookings: [booking('BOOKED')] };
    expect(tripDelete.apply(booked, args)).toBe(booked);
  });

  it('link and unlink: the ids join once, in order, and leave; the call splits the trip id off; a canceled trip takes no link', () => {
    const args = tripLinkSpend.args.parse({ trip_id: id(1), transaction_ids: [id(20), id(21), id(20)], reimbursement_ids: [id(30)] });
    expect(tripLinkSpend.request(args)).toEqual({ params: { trip_id: id(1) }, body: { transaction_ids: [id(20), id(21), id(20)], reimbursement_ids: [id(30)] } });
    expect(tripLinkSpend.after!(args)).toEqual([id(20), id(21), id(20), id(30)]);
    const linked = tripLinkSpend.apply(created(), args);
    expect(linked).toMatchObject({ transaction_ids: [id(20), id(21)], reimbursement_ids: [id(30)] });
    expect(tripLinkSpend.apply(linked, args)).toEqual(linked);
    const unlinked = tripUnlinkSpend.apply(linked, tripUnlinkSpend.args.parse({ trip_id: id(1), transaction_ids: [id(20), id(99)] }));
    expect(unlinked).toMatchObject({ transaction_ids: [id(21)], reimbursement_ids: [id(30)] });
    const canceled = applyTripPatch(created(), { canceled: true });
    expect(applySpendLinks(canceled, { transaction_ids: [id(20)], reimbursement_ids: [] }, true)).toBe(canceled);
  });
});
