import { beforeAll, describe, expect, it } from 'vitest';
import type { FlightOffer } from '../../schema/api/calls-travel.ts';
import { useTestApp } from '../test-app.ts';
import { testDatabases } from '../test-db.ts';
import { makeBusiness, request, signIn, type Fixture, type FixtureRole } from '../test-fixtures.ts';
import { insertTrip, REQUESTS, SEARCH_FLIGHTS } from './booking-test-kit.ts';

/**
 * Issue 27, review fixes: a booking's charge stays with its trip (never counted twice), the
 * requester of an out-of-policy booking never approves it, a departed flight is neither offered
 * nor booked, one offer is booked on one trip at most.
 */
describe.each(await testDatabases())('booking fixes on %s', (kind) => {
  const clock = Date.parse('2026-12-01T12:00:00Z');
  const t = useTestApp(kind, { now: () => clock });
  let a: Fixture;
  const tokens = {} as Record<FixtureRole, string>;

  const flights = async (role: FixtureRole, over: Record<string, unknown> = {}): Promise<FlightOffer[]> => {
    const res = await request(t.app, 'POST', SEARCH_FLIGHTS, { token: tokens[role], body: { origin: 'SFO', destination: 'JFK', depart_date: '2026-12-20', ...over } });
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  };
  const economy = async (role: FixtureRole = 'employee') => (await flights(role, { cabin: 'ECONOMY' })).find((o) => o.in_policy)!;
  const book = (role: FixtureRole, trip_id: string, offer_id: string) => request(t.app, 'POST', REQUESTS, { token: tokens[role], body: { trip_id, offer_id } });
  const refusal = (res: { status: number; body: { error_v2?: { error_code: string } } }) => [res.status, res.body.error_v2?.error_code];
  const TRIPS = '/v1/auth/travel/trips';
  const spend = (id: string) => `${TRIPS}/${id}/spend-events`;

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    for (const role of ['owner', 'admin', 'manager', 'employee'] as const) tokens[role] = await signIn(t.app, a.email(role));
  });

  it('keeps a booking\'s charge and refund on its trip: neither unlinked nor linked elsewhere, and counted once', async () => {
    const first = await insertTrip(t.db, a, 'employee');
    const second = await insertTrip(t.db, a, 'employee');
    const booked = (await book('employee', first, (await economy()).offer_id)).body;
    expect(booked.status).toBe('BOOKED');
    const unlink = await request(t.app, 'DELETE', spend(first), { token: tokens.admin, body: { transaction_ids: [booked.transaction_id] } });
    expect(refusal(unlink)).toEqual([409, 'TRAVEL_7009']);
    expect(unlink.body.error_v2.message).toContain(booked.transaction_id);
    // Even were the link gone (a row written before this fix), linking it elsewhere is refused, and no trip counts it twice.
    await t.db.query('DELETE FROM trip_spend_events WHERE object_id = $1', [booked.transaction_id]);
    expect(refusal(await request(t.app, 'PUT', spend(second), { token: tokens.admin, body: { transaction_ids: [booked.transaction_id] } })))
      .toEqual([409, 'TRAVEL_7009']);
    await t.db.query(
      `INSERT INTO trip_spend_events (business_id, trip_id, object_type, object_id, linked_by) VALUES ($1, $2, 'transaction', $3, $4)`,
      [a.businessId, second, booked.transaction_id, a.users.admin],
    );
    const other = (await request(t.app, 'GET', `${TRIPS}/${second}`, { token: tokens.employee })).body;
    expect(other.total.amount).toBe(0);
    const canceled = (await request(t.app, 'POST', `${REQUESTS}/${booked.id}/cancel`, { token: tokens.employee, body: {} })).body;
    expect(refusal(await request(t.app, 'DELETE', spend(first), { token: tokens.admin, body: { transaction_ids: [canceled.refund_transaction_id] } })))
      .toEqual([409, 'TRAVEL_7009']);
  });
  it('refuses the requester of an out-of-policy booking their own approval (an admin booking on someone\'s trip)', async () => {
    const trip = await insertTrip(t.db, a, 'employee');
    const pending = (await book('admin', trip, (await flights('admin', { cabin: 'BUSINESS' }))[0]!.offer_id)).body;
    expect(pending.status).toBe('PENDING_APPROVAL');
    const own = await request(t.app, 'POST', `/v1/auth/approvals/${pending.approval_id}/approve`, { token: tokens.admin });
    expect(refusal(own)).toEqual([403, 'APPROVAL_7201']);
    expect(own.body.error_v2.message).toContain('travel booking');
    const still = (await request(t.app, 'GET', `${REQUESTS}/${pending.id}`, { token: tokens.employee })).body;
    expect(still).toMatchObject({ status: 'PENDING_APPROVAL', transaction_id: null });
    const ok = await request(t.app, 'POST', `/v1/auth/approvals/${pending.approval_id}/approve`, { token: tokens.manager });
    expect(ok.status, ok.text).toBe(200);
  });
  it('offers no flight leaving within two hours, and books no flight that has left nor a stay already begun', async () => {
    const today = await flights('employee', { depart_date: '2026-12-01', origin: 'JFK', destination: 'SFO' });
    expect(today.length).toBeGreaterThan(0);
    expect(today.every((o) => Date.parse(o.segments[0]!.departs_at) >= clock + 2 * 3_600_000)).toBe(true);
    const trip = await insertTrip(t.db, a, 'employee');
    const left = await economy();
    await t.db.query(`UPDATE travel_offers SET payload = jsonb_set(payload, '{segments,0,departs_at}', to_jsonb($2::text)) WHERE id = $1`,
      [left.offer_id, new Date(clock - 60_000).toISOString()]);
    expect(refusal(await book('employee', trip, left.offer_id))).toEqual([422, 'TRAVEL_7023']);
    const hotels = await request(t.app, 'POST', '/v1/auth/booking/hotels/search',
      { token: tokens.employee, body: { city: 'JFK', check_in: '2026-12-20', check_out: '2026-12-23' } });
    const stay = hotels.body.data.find((h: { in_policy: boolean }) => h.in_policy);
    await t.db.query(`UPDATE travel_offers SET payload = jsonb_set(payload, '{hotel,check_in}', '"2026-11-30"') WHERE id = $1`, [stay.offer_id]);
    expect(refusal(await book('employee', trip, stay.offer_id))).toEqual([422, 'TRAVEL_7023']);
    // Approved after the flight left: refused, nothing charged.
    const pending = (await book('employee', trip, (await flights('employee', { cabin: 'BUSINESS' }))[0]!.offer_id)).body;
    expect(pending.status).toBe('PENDING_APPROVAL');
    await t.db.query(`UPDATE travel_bookings SET payload = jsonb_set(payload, '{segments,0,departs_at}', to_jsonb($2::text)) WHERE id = $1`,
      [pending.id, new Date(clock - 60_000).toISOString()]);
    expect(refusal(await request(t.app, 'POST', `/v1/auth/approvals/${pending.approval_id}/approve`, { token: tokens.manager })))
      .toEqual([422, 'TRAVEL_7023']);
    expect(Number((await t.db.query<{ n: number }>('SELECT count(*) AS n FROM trip_spend_events WHERE trip_id = $1', [trip]))[0]!.n)).toBe(0);
  });
  it('books one offer on one trip at most: the same trip answers the booking, another trip is refused', async () => {
    const first = await insertTrip(t.db, a, 'employee');
    const second = await insertTrip(t.db, a, 'employee');
    const offer = await economy();
    const booked = (await book('employee', first, offer.offer_id)).body;
    expect(booked.status).toBe('BOOKED');
    expect((await book('employee', first, offer.offer_id)).body.id).toBe(booked.id);
    expect(refusal(await book('employee', second, offer.offer_id))).toEqual([409, 'TRAVEL_7024']);
    const charges = await t.db.query('SELECT 1 FROM trip_spend_events WHERE trip_id = ANY($1::uuid[])', [[first, second]]);
    expect(charges).toHaveLength(1);
    // The index holds it whatever the code: a second live booking of the offer cannot be written.
    await expect(t.db.query(
      `INSERT INTO travel_bookings (id, business_id, trip_id, offer_id, kind, price_amount, currency, in_policy, policy_reasons, payload, requested_by, created_at, status)
       SELECT gen_random_uuid(), business_id, $2, offer_id, kind, price_amount, currency, in_policy, policy_reasons, payload, requested_by, created_at, 'PENDING_APPROVAL'
         FROM travel_bookings WHERE id = $1`, [booked.id, second],
    )).rejects.toThrow(/travel_bookings_live_offer_once/);
  });
  it('charges no card of another business, whatever a trip row says', async () => {
    const b = await makeBusiness(t.db, { transactions: 1 });
    const [theirs] = await t.db.query<{ id: string }>(`SELECT id::text FROM cards WHERE business_id = $1 AND status = 'ACTIVE' LIMIT 1`, [b.businessId]);
    expect(theirs).toBeDefined();
    const trip = await insertTrip(t.db, a, 'employee');
    await t.db.query('UPDATE trips SET card_id = $2 WHERE id = $1', [trip, theirs!.id]);
    const before = await t.db.query('SELECT 1 FROM transactions WHERE card_id = $1', [theirs!.id]);
    expect(refusal(await book('employee', trip, (await economy()).offer_id))).toEqual([409, 'TRAVEL_7022']);
    expect(await t.db.query('SELECT 1 FROM transactions WHERE card_id = $1', [theirs!.id])).toHaveLength(before.length);
  });
});
