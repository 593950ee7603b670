import { describe, expect, it } from 'vitest';
import { bookingAnswerSchema, flightOfferSchema, hotelOfferSchema, type FlightOffer, type HotelOffer } from '../../schema/api/calls-travel.ts';
import { DEFAULT_TRAVEL_POLICY, DEFAULT_TRAVEL_SETTINGS } from '../../schema/travel-policy.ts';
import { useTestApp } from '../test-app.ts';
import { testDatabases } from '../test-db.ts';
import { request, useTwoBusinesses, type Fixture, type FixtureRole } from '../test-fixtures.ts';
import { insertTrip, REQUESTS, SEARCH_FLIGHTS, SEARCH_HOTELS } from './booking-test-kit.ts';

/**
 * Issue 27, booking: search (determinism, sorting, policy stamps, bad input), booking requests
 * in policy (card, charge, code, once), out of policy (blocked; approval → booked and charged;
 * rejected with its reason), cancel and refund, expired and unknown offers, and who may do what
 * (another business's ids are 404).
 */
describe.each(await testDatabases())('booking on %s', (kind) => {
  const clock = Date.parse('2026-12-01T12:00:00Z');
  const t = useTestApp(kind, { now: () => clock });
  const biz = useTwoBusinesses(t, ['owner', 'admin', 'manager', 'employee', 'teammate', 'outsider']);
  const { tokens } = biz;

  const flightBody = (over: Record<string, unknown> = {}) => ({ origin: 'SFO', destination: 'JFK', depart_date: '2026-12-20', ...over });
  const hotelBody = (over: Record<string, unknown> = {}) => ({ city: 'JFK', check_in: '2026-12-20', check_out: '2026-12-23', ...over });
  const flights = async (role: FixtureRole = 'employee', over: Record<string, unknown> = {}): Promise<FlightOffer[]> => {
    const res = await request(t.app, 'POST', SEARCH_FLIGHTS, { token: tokens[role], body: flightBody(over) });
    expect(res.status, res.text).toBe(200);
    return res.body.data.map((o: unknown) => flightOfferSchema.parse(o));
  };
  const hotels = async (role: FixtureRole = 'employee', over: Record<string, unknown> = {}): Promise<HotelOffer[]> => {
    const res = await request(t.app, 'POST', SEARCH_HOTELS, { token: tokens[role], body: hotelBody(over) });
    expect(res.status, res.text).toBe(200);
    return res.body.data.map((o: unknown) => hotelOfferSchema.parse(o));
  };
  const book = (token: string, trip_id: string, offer_id: string, headers: Record<string, string> = {}) =>
    request(t.app, 'POST', REQUESTS, { token, body: { trip_id, offer_id }, headers });
  const cancel = (token: string, id: string) => request(t.app, 'POST', `${REQUESTS}/${id}/cancel`, { token, body: {} });
  const refusal = (res: { status: number; body: { error_v2?: { error_code: string } } }) => [res.status, res.body.error_v2?.error_code];
  const count = async (sql: string, params: unknown[]) => Number((await t.db.query<{ n: number }>(sql, params))[0]!.n);
  const chargesOf = (tripId: string) => t.db.query<{ amount: number; card_id: string; merchant_name: string; state: string }>(
    `SELECT x.amount, x.card_id::text, x.merchant_name, x.state FROM trip_spend_events e JOIN transactions x ON x.id = e.object_id
      WHERE e.trip_id = $1 ORDER BY x.change_seq`, [tripId]);
  const setPolicy = async (f: Fixture, over: Record<string, unknown>) => {
    await t.db.query('DELETE FROM travel_policies WHERE business_id = $1', [f.businessId]);
    await t.db.query('INSERT INTO travel_policies (business_id, policy) VALUES ($1, $2::jsonb)', [f.businessId, JSON.stringify({ ...DEFAULT_TRAVEL_POLICY, ...over })]);
  };
  const setSettings = async (f: Fixture, over: Record<string, unknown>) => {
    await t.db.query('DELETE FROM travel_settings WHERE business_id = $1', [f.businessId]);
    await t.db.query('INSERT INTO travel_settings (business_id, settings) VALUES ($1, $2::jsonb)', [f.businessId, JSON.stringify({ ...DEFAULT_TRAVEL_SETTINGS, ...over })]);
  };
  const economy = async (role: FixtureRole = 'employee') => (await flights(role, { cabin: 'ECONOMY' })).find((o) => o.in_policy)!;
  const business = async (role: FixtureRole = 'employee') => (await flights(role, { cabin: 'BUSINESS' }))[0]!;

  it('answers the same flights for the same question, cheapest first, each stamped with the policy and stored', async () => {
    const one = await flights('employee', { return_date: '2026-12-24' });
    const two = await flights('employee', { return_date: '2026-12-24' });
    const strip = (o: FlightOffer) => ({ ...o, offer_id: '', expires_at: '' });
    expect(one.map(strip)).toEqual(two.map(strip));
    expect(one.length).toBeGreaterThan(4);
    for (let i = 1; i < one.length; i++) expect(one[i]!.price.amount).toBeGreaterThanOrEqual(one[i - 1]!.price.amount);
    expect(one[0]!.expires_at).toBe('2026-12-01T12:30:00.000Z');
    // Out and back: the return legs end where the trip started.
    for (const o of one) {
      expect(o.segments[0]!.origin).toBe('SFO');
      expect(o.segments.at(-1)!.destination).toBe('SFO');
    }
    const firstClass = one.find((o) => o.cabin === 'FIRST')!;
    expect(firstClass).toMatchObject({ in_policy: false, blocked: false });
    expect(firstClass.policy_reasons[0]).toMatch(/^First cabin on a 5 h \d\d m flight: the policy allows up to Economy under 6 h$/);
    const stored = await t.db.query<{ user_id: string; in_policy: boolean; price_amount: number }>(
      'SELECT user_id::text, in_policy, price_amount FROM travel_offers WHERE id = $1', [firstClass.offer_id]);
    expect(stored[0]).toMatchObject({ user_id: biz.a.users.employee, in_policy: false, price_amount: firstClass.price.amount });
  });

  it('answers the city\'s hotels with nightly and total prices', async () => {
    const list = await hotels();
    expect(list.length).toBeGreaterThanOrEqual(8);
    expect(list.length).toBeLessThanOrEqual(12);
    for (const h of list) expect(h.price.amount).toBe(h.hotel.nightly.amount * 3);
    for (let i = 1; i < list.length; i++) expect(list[i]!.price.amount).toBeGreaterThanOrEqual(list[i - 1]!.price.amount);
    const dear = list.find((h) => h.hotel.nightly.amount > 35_000);
    if (dear) expect(dear.policy_reasons[0]).toContain('the policy caps New York at $350.00 a night');
    // LGA is New York too: the same hotels.
    expect((await hotels('employee', { city: 'LGA' })).map((h) => h.hotel.name).sort()).toEqual(list.map((h) => h.hotel.name).sort());
  });

  it('refuses bad searches with the field named', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [flightBody({ origin: 'QQQ' }), 'origin', 'origin is not a known airport code: QQQ'],
      [flightBody({ destination: 'SFO' }), 'destination', 'destination must differ from origin'],
      [flightBody({ return_date: '2026-12-19' }), 'return_date', 'return_date must be on or after depart_date'],
      [flightBody({ depart_date: '2026-11-30' }), 'depart_date', 'depart_date must not be in the past (today is 2026-12-01 there)'],
    ];
    for (const [body, field, message] of cases) {
      const res = await request(t.app, 'POST', SEARCH_FLIGHTS, { token: tokens.employee, body });
      expect(refusal(res), res.text).toEqual([422, 'REQUEST_7001']);
      expect(res.body.error_v2.errors[field]).toBe(message);
    }
    for (const passengers of [0, 10]) {
      const res = await request(t.app, 'POST', SEARCH_FLIGHTS, { token: tokens.employee, body: flightBody({ passengers }) });
      expect(refusal(res)).toEqual([422, 'REQUEST_7001']);
      expect(Object.keys(res.body.error_v2.errors)).toEqual(['passengers']);
    }
    const extra = await request(t.app, 'POST', SEARCH_FLIGHTS, { token: tokens.employee, body: flightBody({ seat: 'A1' }) });
    expect(extra.body.error_v2.errors.seat).toBe('seat is not allowed');
    const hotelCases: [Record<string, unknown>, string][] = [
      [hotelBody({ city: 'ZZZ' }), 'city'], [hotelBody({ check_out: '2026-12-20' }), 'check_out'],
      [hotelBody({ check_out: '2026-12-19' }), 'check_out'], [hotelBody({ check_out: '2027-01-20' }), 'check_out'],
      [hotelBody({ check_in: '2026-11-29' }), 'check_in'],
    ];
    for (const [body, field] of hotelCases) {
      const res = await request(t.app, 'POST', SEARCH_HOTELS, { token: tokens.employee, body });
      expect(refusal(res)).toEqual([422, 'REQUEST_7001']);
      expect(Object.keys(res.body.error_v2.errors)).toEqual([field]);
    }
  });

  it('books an in-policy flight at once: trip card, one charge linked to the trip, a code; the hotel reuses the card', async () => {
    const trip = await insertTrip(t.db, biz.a, 'employee', { name: 'Acme kickoff' });
    const seqBefore = (await t.db.query<{ change_seq: number }>('SELECT change_seq FROM trips WHERE id = $1', [trip]))[0]!.change_seq;
    const offer = await economy();
    const res = await book(tokens.employee, trip, offer.offer_id);
    expect(res.status, res.text).toBe(200);
    const booked = bookingAnswerSchema.parse(res.body);
    expect(booked).toMatchObject({ status: 'BOOKED', kind: 'FLIGHT', price: offer.price, in_policy: true, offer_id: offer.offer_id });
    expect(booked.confirmation_code).toMatch(/^[A-Z0-9]{6}$/);
    expect(booked.trip).toMatchObject({ status: 'BOOKED', card_id: booked.card_id, total: offer.price, transaction_ids: [booked.transaction_id] });
    expect(booked.trip.bookings.map((x) => x.id)).toEqual([booked.id]);
    expect(booked.change_seq).toBe(booked.trip.change_seq);
    expect(booked.trip.change_seq).toBeGreaterThan(Number(seqBefore));
    const [card] = await t.db.query<{ display_name: string; user_id: string; limit_amount: number; limit_interval: string; status: string }>(
      'SELECT display_name, user_id::text, limit_amount, limit_interval, status FROM cards WHERE id = $1', [booked.card_id]);
    expect(card).toMatchObject({ display_name: 'Trip: Acme kickoff', user_id: biz.a.users.employee, limit_interval: 'TOTAL', status: 'ACTIVE' });
    expect(Number(card!.limit_amount)).toBe(Math.ceil(offer.price.amount * 1.5));
    expect(await chargesOf(trip)).toEqual([
      { amount: offer.price.amount, card_id: booked.card_id, merchant_name: offer.segments[0]!.airline_name, state: 'CLEARED' },
    ]);

    // The same offer again (another device, no key): the same booking, no second charge.
    const again = await book(tokens.employee, trip, offer.offer_id);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(booked.id);
    expect(await chargesOf(trip)).toHaveLength(1);

    // A hotel on the same trip: the same card, its limit raised to cover both.
    const stay = (await hotels()).find((h) => h.in_policy)!;
    const hotel = bookingAnswerSchema.parse((await book(tokens.employee, trip, stay.offer_id)).body);
    expect(hotel).toMatchObject({ status: 'BOOKED', kind: 'HOTEL', card_id: booked.card_id, hotel: stay.hotel });
    expect(hotel.trip.total.amount).toBe(offer.price.amount + stay.price.amount);
    const [raised] = await t.db.query<{ limit_amount: number }>('SELECT limit_amount FROM cards WHERE id = $1', [booked.card_id]);
    expect(Number(raised!.limit_amount)).toBeGreaterThanOrEqual(offer.price.amount + stay.price.amount);
    expect((await chargesOf(trip)).map((c) => c.merchant_name)).toEqual([offer.segments[0]!.airline_name, stay.hotel.name]);
  });

  it('books once per Idempotency-Key, replaying the answer', async () => {
    const trip = await insertTrip(t.db, biz.a, 'employee');
    const offer = await economy();
    const first = await book(tokens.employee, trip, offer.offer_id, { 'Idempotency-Key': `k-${trip}` });
    const second = await book(tokens.employee, trip, offer.offer_id, { 'Idempotency-Key': `k-${trip}` });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body.id).toBe(first.body.id);
    expect(await count('SELECT count(*) AS n FROM travel_bookings WHERE trip_id = $1', [trip])).toBe(1);
    expect(await chargesOf(trip)).toHaveLength(1);
  });

  it('refuses an expired offer naming it, an unknown or another user\'s offer, and a canceled trip — writing nothing', async () => {
    const trip = await insertTrip(t.db, biz.a, 'employee');
    const offer = await economy();
    await t.db.query(`UPDATE travel_offers SET expires_at = $2 WHERE id = $1`, [offer.offer_id, new Date(clock - 60_000).toISOString()]);
    const expired = await book(tokens.employee, trip, offer.offer_id);
    expect(refusal(expired)).toEqual([422, 'TRAVEL_7001']);
    expect(expired.body.error_v2.message).toContain(offer.offer_id);
    const unknown = await book(tokens.employee, trip, crypto.randomUUID());
    expect(refusal(unknown)).toEqual([404, 'REQUEST_7004']);
    const theirs = await economy('teammate');
    expect(refusal(await book(tokens.employee, trip, theirs.offer_id))).toEqual([404, 'REQUEST_7004']);
    const canceled = await insertTrip(t.db, biz.a, 'employee', { canceled: true });
    expect(refusal(await book(tokens.employee, canceled, (await economy()).offer_id))).toEqual([409, 'TRAVEL_7005']);
    expect(await count('SELECT count(*) AS n FROM travel_bookings WHERE trip_id = ANY($1::uuid[])', [[trip, canceled]])).toBe(0);
    expect(await count('SELECT count(*) AS n FROM trip_spend_events WHERE trip_id = ANY($1::uuid[])', [[trip, canceled]])).toBe(0);
  });

  it('follows the settings: booking off, and a purpose required', async () => {
    const trip = await insertTrip(t.db, biz.a, 'employee', { purpose: null });
    const offer = await economy();
    await setSettings(biz.a, { flights_enabled: false });
    const off = await request(t.app, 'POST', SEARCH_FLIGHTS, { token: tokens.employee, body: flightBody() });
    expect(refusal(off)).toEqual([422, 'TRAVEL_7004']);
    expect(refusal(await book(tokens.employee, trip, offer.offer_id))).toEqual([422, 'TRAVEL_7004']);
    await setSettings(biz.a, { hotels_enabled: false });
    expect(refusal(await request(t.app, 'POST', SEARCH_HOTELS, { token: tokens.employee, body: hotelBody() }))).toEqual([422, 'TRAVEL_7004']);
    await setSettings(biz.a, { require_trip_purpose: true });
    expect(refusal(await book(tokens.employee, trip, offer.offer_id))).toEqual([422, 'TRAVEL_7021']);
    await t.db.query('DELETE FROM travel_settings WHERE business_id = $1', [biz.a.businessId]);
    expect((await book(tokens.employee, trip, offer.offer_id)).status).toBe(200);
  });

  it('refuses an out-of-policy offer outright when the policy blocks', async () => {
    await setPolicy(biz.a, { out_of_policy: 'BLOCK' });
    try {
      const trip = await insertTrip(t.db, biz.a, 'employee');
      const offer = await business();
      expect(offer).toMatchObject({ in_policy: false, blocked: true });
      const res = await book(tokens.employee, trip, offer.offer_id);
      expect(refusal(res)).toEqual([422, 'TRAVEL_7002']);
      expect(res.body.error_v2.message).toContain('Business cabin on a');
      expect(await count('SELECT count(*) AS n FROM travel_bookings WHERE trip_id = $1', [trip])).toBe(0);
      expect(await count('SELECT count(*) AS n FROM approvals WHERE business_id = $1 AND object_type = \'travel_booking\' AND status = \'PENDING\'', [biz.a.businessId])).toBe(0);
    } finally {
      await t.db.query('DELETE FROM travel_policies WHERE business_id = $1', [biz.a.businessId]);
    }
  });

  it('sends an out-of-policy booking to the traveller\'s manager: approving books and charges it', async () => {
    const trip = await insertTrip(t.db, biz.a, 'employee');
    const offer = await business();
    const res = await book(tokens.employee, trip, offer.offer_id);
    const pending = bookingAnswerSchema.parse(res.body);
    expect(pending).toMatchObject({ status: 'PENDING_APPROVAL', in_policy: false, confirmation_code: null, card_id: null, transaction_id: null });
    expect(pending.policy_reasons[0]).toContain('Business cabin');
    expect(pending.trip.status).toBe('PLANNED');
    const [approval] = await t.db.query<{ id: string; approver_id: string; user_id: string }>(
      `SELECT id::text, approver_id::text, user_id::text FROM approvals WHERE object_id = $1 AND object_type = 'travel_booking'`, [pending.id]);
    expect(approval).toMatchObject({ id: pending.approval_id, approver_id: biz.a.users.manager, user_id: biz.a.users.employee });
    // The traveller (no reviewer) cannot approve their own; the manager can.
    expect(refusal(await request(t.app, 'POST', `/v1/auth/approvals/${approval!.id}/approve`, { token: tokens.employee })))
      .toEqual([403, 'FORBIDDEN_7003']);
    const ok = await request(t.app, 'POST', `/v1/auth/approvals/${approval!.id}/approve`, { token: tokens.manager });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.approval.status).toBe('APPROVED');
    const after = bookingAnswerSchema.parse((await request(t.app, 'GET', `${REQUESTS}/${pending.id}`, { token: tokens.employee })).body);
    expect(after).toMatchObject({ status: 'BOOKED', trip: { status: 'BOOKED' } });
    expect(after.confirmation_code).toMatch(/^[A-Z0-9]{6}$/);
    expect(await chargesOf(trip)).toEqual([{ amount: offer.price.amount, card_id: after.card_id, merchant_name: offer.segments[0]!.airline_name, state: 'CLEARED' }]);
  });

  it('keeps the reason of a rejected booking and charges nothing', async () => {
    const trip = await insertTrip(t.db, biz.a, 'employee');
    const pending = (await book(tokens.employee, trip, (await business()).offer_id)).body;
    const no = await request(t.app, 'POST', `/v1/auth/approvals/${pending.approval_id}/reject`, { token: tokens.manager, body: { reason: 'Fly economy on this route' } });
    expect(no.status, no.text).toBe(200);
    const after = bookingAnswerSchema.parse((await request(t.app, 'GET', `${REQUESTS}/${pending.id}`, { token: tokens.employee })).body);
    expect(after).toMatchObject({ status: 'REJECTED', rejection_reason: 'Fly economy on this route', transaction_id: null });
    expect(await chargesOf(trip)).toHaveLength(0);
    expect(refusal(await cancel(tokens.employee, pending.id))).toEqual([409, 'TRAVEL_7020']);
  });

  it('cancels: a booked one is refunded on the same card, a pending one withdraws its approval', async () => {
    const trip = await insertTrip(t.db, biz.a, 'employee');
    const offer = await economy();
    const booked = (await book(tokens.employee, trip, offer.offer_id)).body;
    const res = await cancel(tokens.employee, booked.id);
    expect(res.status, res.text).toBe(200);
    const canceled = bookingAnswerSchema.parse(res.body);
    expect(canceled).toMatchObject({ status: 'CANCELED', trip: { status: 'PLANNED', total: { amount: 0, currency: 'USD' } } });
    expect(canceled.refund_transaction_id).not.toBeNull();
    expect(await chargesOf(trip)).toEqual([
      { amount: offer.price.amount, card_id: booked.card_id, merchant_name: offer.segments[0]!.airline_name, state: 'CLEARED' },
      { amount: -offer.price.amount, card_id: booked.card_id, merchant_name: offer.segments[0]!.airline_name, state: 'CLEARED' },
    ]);
    expect(canceled.trip.transaction_ids).toEqual([booked.transaction_id, canceled.refund_transaction_id]);
    expect(refusal(await cancel(tokens.employee, booked.id))).toEqual([409, 'TRAVEL_7020']);
    // Once canceled, the offer can be booked again on the trip (the live-offer index covers live bookings only).
    expect((await book(tokens.employee, trip, offer.offer_id)).body.status).toBe('BOOKED');

    const pending = (await book(tokens.employee, trip, (await business()).offer_id)).body;
    const withdrawn = await cancel(tokens.employee, pending.id);
    expect(withdrawn.body.status).toBe('CANCELED');
    const [approval] = await t.db.query<{ status: string }>('SELECT status FROM approvals WHERE id = $1', [pending.approval_id]);
    expect(approval!.status).toBe('CANCELED');
  });

  it('keeps trips and offers to their business and people', async () => {
    const trip = await insertTrip(t.db, biz.a, 'employee');
    const offer = await economy();
    const booked = (await book(tokens.employee, trip, offer.offer_id)).body;
    // Another business: every id of A is unknown.
    const bTrip = await insertTrip(t.db, biz.b, 'owner');
    const bOffer = (await request(t.app, 'POST', SEARCH_FLIGHTS, { token: biz.bOwner, body: flightBody({ cabin: 'ECONOMY' }) })).body.data[0];
    expect(refusal(await request(t.app, 'GET', `${REQUESTS}/${booked.id}`, { token: biz.bOwner }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await cancel(biz.bOwner, booked.id))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await book(biz.bOwner, trip, bOffer.offer_id))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await book(biz.bOwner, bTrip, offer.offer_id))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await book(tokens.employee, bTrip, offer.offer_id))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'POST', SEARCH_FLIGHTS, { token: biz.bOwner, body: flightBody({ trip_id: trip }) }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'POST', SEARCH_HOTELS, { token: biz.bOwner, body: hotelBody({ trip_id: trip }) }))).toEqual([404, 'REQUEST_7004']);
    // In A: a colleague outside the traveller's line sees nothing; the manager sees but may not book or cancel; an admin may.
    expect(refusal(await request(t.app, 'GET', `${REQUESTS}/${booked.id}`, { token: tokens.outsider }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await cancel(tokens.outsider, booked.id))).toEqual([404, 'REQUEST_7004']);
    expect((await request(t.app, 'GET', `${REQUESTS}/${booked.id}`, { token: tokens.manager })).status).toBe(200);
    expect(refusal(await cancel(tokens.manager, booked.id))).toEqual([403, 'FORBIDDEN_7003']);
    expect(refusal(await book(tokens.manager, trip, (await economy('manager')).offer_id))).toEqual([403, 'FORBIDDEN_7003']);
    expect((await cancel(tokens.admin, booked.id)).body.status).toBe('CANCELED');
    // B's rows untouched by A's calls and the other way round.
    expect(await count('SELECT count(*) AS n FROM travel_bookings WHERE business_id = $1', [biz.b.businessId])).toBe(0);
  });
});
