import { describe, expect, it } from 'vitest';
import { transactionSchema } from '../../../schema/entities/transaction.ts';
import { tripSchema, type Booking, type Trip } from '../../../schema/entities/trip.ts';
import type { TransactionView } from '../../data-access/types.ts';
import { deriveTripData } from './use-trip.ts';

/**
 * The trip page's numbers agree with the server's (TRIP_SPEND_ITEMS_SQL): a card transaction that
 * is another trip's booking charge (found among the trips on the device) is neither counted, nor
 * a card line of this trip's timeline, nor suggested.
 */
const BIZ = '70000000-0000-4000-8000-0000000000b1';
const OWNER = '70000000-0000-4000-8000-0000000000a1';
const id = (n: number) => `70000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const stamp = { business_id: BIZ, change_seq: 1, updated_at: '2026-03-01T10:00:00Z' };

const trip = (n: number, over: Partial<Trip>): Trip => tripSchema.parse({
  id: id(n), user_id: OWNER, name: `Trip ${n}`, destination: 'LIS', destination_name: 'Lisbon', start_date: '2026-03-10', end_date: '2026-03-12',
  purpose: null, status: 'PLANNED', budget: null, total: { amount: 0, currency: 'USD' }, totals: [], bookings: [], transaction_ids: [], reimbursement_ids: [],
  card_id: null, canceled_at: null, created_at: '2026-03-01T10:00:00Z', ...stamp, ...over,
});
const booking = (n: number, tripId: string, charge: string): Booking => ({
  id: id(n), trip_id: tripId, kind: 'FLIGHT', status: 'BOOKED', offer_id: id(n + 500), price: { amount: 40_000, currency: 'USD' }, in_policy: true,
  policy_reasons: [], segments: [], hotel: null, confirmation_code: 'QX7T2P', card_id: id(900), transaction_id: charge, refund_transaction_id: null,
  approval_id: null, rejection_reason: null, booked_at: '2026-03-01T10:00:00Z', canceled_at: null, created_at: '2026-03-01T10:00:00Z',
});
const tx = (n: number, amount: number): TransactionView => ({
  ...transactionSchema.parse({
    id: id(n), card_id: id(900), user_id: OWNER, merchant_name: `Shop ${n}`, merchant_category: 'Airlines', amount, currency: 'USD',
    occurred_at: '2026-03-11T12:00:00Z', state: 'CLEARED', memo: null, gl_account_id: null, department_id: null, location_id: null, tracking: {}, ...stamp,
  }),
  pending: null,
  failure: null,
});

describe('deriveTripData', () => {
  const charge = tx(31, 40_000);
  const taxi = tx(32, 2_500);
  const stray = tx(33, 9_900);
  const other = trip(2, { bookings: [booking(41, id(2), charge.id), { ...booking(42, id(2), stray.id), status: 'CANCELED' }], transaction_ids: [] });
  const here = trip(1, { transaction_ids: [charge.id, taxi.id] });
  const data = deriveTripData({
    trip: { ...here, pending: null, failure: null }, transactions: [charge, taxi], claims: [], missing: 0,
    candidates: { transactions: [charge, taxi, stray], claims: [], trips: [here, other] }, chargeTrips: [here, other],
  });

  it('leaves another trip’s booking charge out of the total and the counts', () => {
    expect(data.summary.totals).toEqual([{ currency: 'USD', amount: 2_500 }]);
    expect(data.summary.counts.transactions).toBe(1);
  });

  it('shows only the taxi on the timeline', () => {
    const keys = data.itinerary.flatMap((d) => d.items.map((i) => i.key));
    expect(keys).toEqual([taxi.id]);
  });

  it('suggests no booking’s charge, a canceled one’s neither', () => {
    expect(data.suggestions.map((s) => s.id)).toEqual([]);
  });
});
