import { describe, expect, it } from 'vitest';
import type { Booking } from './entities/trip.ts';
import { addDays, bookingChargeIds, suggestTripSpend, tripSpendSummary, type SpendClaim, type SpendTransaction, type SpendTrip } from './travel-spend.ts';

const OWNER = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const trip: SpendTrip = {
  id: id(100), user_id: OWNER, start_date: '2026-03-10', end_date: '2026-03-12', destination: 'LIS', destination_name: 'Lisbon',
  transaction_ids: [], reimbursement_ids: [], bookings: [],
};
const tx = (n: number, day: string, over: Partial<SpendTransaction> = {}): SpendTransaction => ({
  id: id(n), user_id: OWNER, merchant_name: `Shop ${n}`, merchant_category: 'Eating places', amount: 1_000, currency: 'EUR',
  occurred_at: `${day}T12:00:00Z`, state: 'CLEARED', ...over,
});
const claim = (n: number, day: string, over: Partial<SpendClaim> = {}): SpendClaim => ({
  id: id(n), user_id: OWNER, type: 'OUT_OF_POCKET', status: 'SUBMITTED', merchant: `Cafe ${n}`, amount: 500, currency: 'EUR',
  transaction_date: day, location: null, start_date: null, end_date: null, memo: null, ...over,
});

describe('addDays', () => {
  it('crosses month and year ends', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});

describe('suggestTripSpend', () => {
  it('suggests the owner’s spend within the trip ±1 day and nothing outside it', () => {
    const got = suggestTripSpend(trip, [tx(1, '2026-03-08'), tx(2, '2026-03-09'), tx(3, '2026-03-11'), tx(4, '2026-03-13'), tx(5, '2026-03-14')], []);
    expect(got.map((s) => s.id).sort()).toEqual([id(2), id(3), id(4)]);
    expect(got.find((s) => s.id === id(2))?.reasons).toEqual(['The day before the trip']);
    expect(got.find((s) => s.id === id(4))?.reasons).toEqual(['The day after the trip']);
  });

  it('leaves out another person’s spend, declined or reversed charges, canceled claims and what is linked here or to another trip', () => {
    const got = suggestTripSpend(
      { ...trip, transaction_ids: [id(3)], reimbursement_ids: [id(12)] },
      [tx(1, '2026-03-10', { user_id: OTHER }), tx(2, '2026-03-10', { state: 'DECLINED' }), tx(3, '2026-03-10'), tx(4, '2026-03-10'), tx(5, '2026-03-10'), tx(6, '2026-03-10', { state: 'REVERSED' })],
      [claim(11, '2026-03-10', { status: 'CANCELED' }), claim(12, '2026-03-10'), claim(13, '2026-03-11'), claim(14, '2026-03-11')],
      [{ id: id(200), transaction_ids: [id(5)], reimbursement_ids: [id(14)], bookings: [] }],
    );
    expect(got.map((s) => s.id).sort()).toEqual([id(4), id(13)]);
  });

  it('ranks during the trip over the margin, travel merchants and mentions of the destination higher, then by date', () => {
    const got = suggestTripSpend(trip, [
      tx(1, '2026-03-09', { merchant_category: 'Taxicabs and Limousines' }),
      tx(2, '2026-03-11'),
      tx(3, '2026-03-10'),
      tx(4, '2026-03-12', { merchant_name: 'Hotel Lisbon Centro', merchant_category: 'Lodging – Hotels, Motels, Resorts' }),
    ], []);
    expect(got.map((s) => s.id)).toEqual([id(4), id(1), id(3), id(2)]);
    expect(got[0]!.reasons).toEqual(['During the trip', 'Travel merchant', 'Mentions Lisbon']);
    expect(got[0]!.score).toBe(1);
  });

  it('places a per-diem claim by the first of its days in the window and names it', () => {
    const got = suggestTripSpend(trip, [], [
      claim(21, '2026-03-05', { type: 'PER_DIEM', merchant: null, location: 'Lisbon', start_date: '2026-03-05', end_date: '2026-03-11' }),
      claim(22, '2026-03-01', { type: 'PER_DIEM', merchant: null, location: null, start_date: '2026-03-01', end_date: '2026-03-03' }),
    ]);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ id: id(21), kind: 'claim', date: '2026-03-09', label: 'Per diem · Lisbon' });
    expect(got[0]!.reasons).toEqual(['The day before the trip', 'Per diem', 'Mentions Lisbon']);
  });

  it('does not read a destination inside another word', () => {
    const got = suggestTripSpend({ ...trip, destination: 'NCE', destination_name: 'Nice' }, [tx(1, '2026-03-10', { merchant_name: 'Nicest Burgers' })], []);
    expect(got[0]!.reasons).toEqual(['During the trip']);
  });
});

const booking = (n: number, over: Partial<Booking>): Booking => ({
  id: id(n), trip_id: trip.id, kind: 'FLIGHT', status: 'BOOKED', offer_id: id(n + 1000), price: { amount: 40_000, currency: 'USD' },
  in_policy: true, policy_reasons: [], segments: [], hotel: null, confirmation_code: 'ABC123', card_id: id(900), transaction_id: null,
  refund_transaction_id: null, approval_id: null, rejection_reason: null, booked_at: '2026-03-01T10:00:00Z', canceled_at: null,
  created_at: '2026-03-01T10:00:00Z', ...over,
});

describe('tripSpendSummary', () => {
  const base = { budget: { amount: 100_000, currency: 'USD' }, total: { amount: 0, currency: 'USD' }, totals: [] };

  it('leaves out a canceled booking\'s charge and refund, as the server does', () => {
    const s = tripSpendSummary(
      {
        ...base,
        bookings: [booking(1, { status: 'CANCELED', transaction_id: id(31), refund_transaction_id: id(32) })],
        transaction_ids: [id(31), id(32)],
        reimbursement_ids: [],
      },
      { transactions: [{ id: id(31), amount: 40_000, currency: 'USD', state: 'CLEARED' }, { id: id(32), amount: -40_000, currency: 'USD', state: 'CLEARED' }], claims: [] },
    );
    expect(s.counts).toEqual({ bookings: 0, transactions: 0, claims: 0 });
    expect(s.includes).toBe('nothing yet');
  });

  it('sums booked bookings, live linked transactions and claims per currency, the booking’s own charge once', () => {
    const s = tripSpendSummary(
      {
        ...base,
        bookings: [booking(1, { transaction_id: id(31) }), booking(2, { status: 'CANCELED', price: { amount: 9_999, currency: 'USD' } })],
        transaction_ids: [id(31), id(32), id(33)],
        reimbursement_ids: [id(41), id(42)],
      },
      {
        transactions: [
          { id: id(31), amount: 40_000, currency: 'USD', state: 'CLEARED' },
          { id: id(32), amount: 2_500, currency: 'EUR', state: 'PENDING' },
          { id: id(33), amount: 7_000, currency: 'USD', state: 'DECLINED' },
        ],
        claims: [{ id: id(41), amount: 6_800, currency: 'USD', status: 'APPROVED' }, { id: id(42), amount: 100, currency: 'USD', status: 'CANCELED' }],
      },
    );
    expect(s.local).toBe(true);
    expect(s.totals).toEqual([{ currency: 'USD', amount: 46_800 }, { currency: 'EUR', amount: 2_500 }]);
    expect(s.counts).toEqual({ bookings: 1, transactions: 1, claims: 1 });
    expect(s.includes).toBe('1 booking, 1 card transaction and 1 claim');
    expect(s.budget).toEqual({ budget: base.budget, spent: 46_800, remaining: 53_200, over: false, percent: 47 });
  });

  it('uses the server’s totals when a linked row is not on this device, and says when the budget is over', () => {
    const s = tripSpendSummary(
      { ...base, bookings: [], transaction_ids: [id(51)], reimbursement_ids: [], totals: [{ amount: 120_000, currency: 'USD' }] },
      { transactions: [], claims: [] },
    );
    expect(s.local).toBe(false);
    expect(s.totals).toEqual([{ currency: 'USD', amount: 120_000 }]);
    expect(s.includes).toBe('1 card transaction');
    expect(s.budget).toMatchObject({ over: true, remaining: -20_000, percent: 120 });
  });

  it('is zero in the trip’s currency with nothing linked', () => {
    const s = tripSpendSummary({ ...base, budget: null, bookings: [], transaction_ids: [], reimbursement_ids: [] }, { transactions: [], claims: [] });
    expect(s.totals).toEqual([{ currency: 'USD', amount: 0 }]);
    expect(s.includes).toBe('nothing yet');
    expect(s.budget).toBeNull();
  });
});

describe('booking charges are never linked spend (issue 27: the server’s TRIP_SPEND_ITEMS_SQL)', () => {
  const otherTrip = (bookings: Booking[]) => ({ id: id(200), transaction_ids: [], reimbursement_ids: [], bookings });

  it('collects every booking’s charge and refund, a canceled one’s too', () => {
    const ids = bookingChargeIds([
      { bookings: [booking(1, { transaction_id: id(31) }), booking(2, { status: 'CANCELED', transaction_id: id(32), refund_transaction_id: id(33) })] },
      { bookings: [booking(3, { status: 'PENDING_APPROVAL' })] },
    ]);
    expect([...ids].sort()).toEqual([id(31), id(32), id(33)]);
  });

  it('does not suggest a booking’s charge or refund, of this trip or another', () => {
    const got = suggestTripSpend(
      { ...trip, bookings: [booking(1, { status: 'CANCELED', transaction_id: id(31), refund_transaction_id: id(32) })], transaction_ids: [id(31)] },
      [tx(31, '2026-03-10'), tx(32, '2026-03-11', { amount: -1_000 }), tx(33, '2026-03-10'), tx(34, '2026-03-10')],
      [],
      [otherTrip([booking(5, { trip_id: id(200), transaction_id: id(33) })])],
    );
    expect(got.map((s) => s.id)).toEqual([id(34)]);
  });

  it('leaves out a linked transaction that is another trip’s booking charge, in the totals and the counts', () => {
    const linked = {
      budget: null, total: { amount: 0, currency: 'USD' }, totals: [], bookings: [],
      transaction_ids: [id(31), id(32)], reimbursement_ids: [],
    };
    const rows = { transactions: [{ id: id(31), amount: 40_000, currency: 'USD', state: 'CLEARED' as const }, { id: id(32), amount: 1_500, currency: 'USD', state: 'CLEARED' as const }], claims: [] };
    const s = tripSpendSummary(linked, rows, [otherTrip([booking(5, { trip_id: id(200), transaction_id: id(31) })])]);
    expect(s.totals).toEqual([{ currency: 'USD', amount: 1_500 }]);
    expect(s.counts).toEqual({ bookings: 0, transactions: 1, claims: 0 });
    // Counted from the server's totals (a linked row not on the device), the count agrees too.
    const remote = tripSpendSummary({ ...linked, totals: [{ amount: 1_500, currency: 'USD' }] }, { transactions: [], claims: [] }, [otherTrip([booking(5, { transaction_id: id(31) })])]);
    expect(remote.counts.transactions).toBe(1);
  });
});
