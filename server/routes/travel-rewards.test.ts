import { beforeAll, describe, expect, it } from 'vitest';
import { bookingAnswerSchema, flightOfferSchema, hotelOfferSchema, type FlightOffer, type HotelOffer } from '../../schema/api/calls-travel.ts';
import { DEFAULT_TRAVEL_POLICY, DEFAULT_TRAVEL_SETTINGS } from '../../schema/travel-policy.ts';
import { travelRewardSchema } from '../../schema/travel-rewards.ts';
import { useTestApp } from '../test-app.ts';
import { testDatabases } from '../test-db.ts';
import { makeBusiness, request, signIn, type Fixture, type FixtureRole } from '../test-fixtures.ts';
import { insertTrip, REQUESTS, SEARCH_FLIGHTS, SEARCH_HOTELS } from './booking-test-kit.ts';

/**
 * Issue 27, travel rewards: the settings' switch and share (admins, strict), a reward for a booking
 * booked in policy below the cap (flight: fare cap × passengers; hotel: nightly cap × nights),
 * none at or above the cap, out of policy or switched off; on approval only when today's policy
 * takes the booking in, once however often it is decided; voided with a cancel or by an admin;
 * the list (own, an admin's anyone's, balances) and who may do what.
 */
const REWARDS = '/v1/auth/travel/travel-rewards';
const SETTINGS = '/v1/auth/travel/settings';

describe.each(await testDatabases())('travel rewards on %s', (kind) => {
  const clock = Date.parse('2026-12-01T12:00:00Z');
  const t = useTestApp(kind, { now: () => clock });
  let a: Fixture;
  let b: Fixture;
  const tokens = {} as Record<FixtureRole, string>;
  let bOwner: string;

  const refusal = (res: { status: number; body: { error_v2?: { error_code: string } } }) => [res.status, res.body.error_v2?.error_code];
  const flights = async (cabin: string, role: FixtureRole = 'employee'): Promise<FlightOffer[]> => {
    const res = await request(t.app, 'POST', SEARCH_FLIGHTS, { token: tokens[role], body: { origin: 'SFO', destination: 'JFK', depart_date: '2026-12-20', cabin } });
    expect(res.status, res.text).toBe(200);
    return res.body.data.map((o: unknown) => flightOfferSchema.parse(o));
  };
  const hotels = async (): Promise<HotelOffer[]> => {
    const res = await request(t.app, 'POST', SEARCH_HOTELS, { token: tokens.employee, body: { city: 'JFK', check_in: '2026-12-20', check_out: '2026-12-23' } });
    expect(res.status, res.text).toBe(200);
    return res.body.data.map((o: unknown) => hotelOfferSchema.parse(o));
  };
  const book = async (trip: string, offer: string) => {
    const res = await request(t.app, 'POST', REQUESTS, { token: tokens.employee, body: { trip_id: trip, offer_id: offer } });
    expect(res.status, res.text).toBe(200);
    return bookingAnswerSchema.parse(res.body);
  };
  const setPolicy = async (over: Record<string, unknown>) => {
    await t.db.query('DELETE FROM travel_policies WHERE business_id = $1', [a.businessId]);
    await t.db.query('INSERT INTO travel_policies (business_id, policy) VALUES ($1, $2::jsonb)', [a.businessId, JSON.stringify({ ...DEFAULT_TRAVEL_POLICY, ...over })]);
  };
  const rewardsOn = async (share_percent = 50, enabled = true) => {
    await t.db.query('DELETE FROM travel_settings WHERE business_id = $1', [a.businessId]);
    await t.db.query('INSERT INTO travel_settings (business_id, settings) VALUES ($1, $2::jsonb)',
      [a.businessId, JSON.stringify({ ...DEFAULT_TRAVEL_SETTINGS, rewards: { enabled, share_percent } })]);
  };
  const rewardRows = (bookingId: string) => t.db.query<{ amount: number; status: string }>(
    'SELECT amount, status FROM travel_rewards WHERE booking_id = $1', [bookingId]);
  const list = (token: string, query = '') => request(t.app, 'GET', `${REWARDS}${query}`, { token });

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    b = await makeBusiness(t.db, { transactions: 0 });
    for (const role of ['owner', 'admin', 'manager', 'employee', 'outsider'] as const) tokens[role] = await signIn(t.app, a.email(role));
    bOwner = await signIn(t.app, b.email('owner'));
  });

  it('keeps the switch and share in the travel settings: off at 50 % by default, admins only, strict', async () => {
    const fresh = await request(t.app, 'GET', SETTINGS, { token: bOwner });
    expect(fresh.body.rewards).toEqual({ enabled: false, share_percent: 50 });
    const body = { ...DEFAULT_TRAVEL_SETTINGS, rewards: { enabled: true, share_percent: 30 } };
    expect(refusal(await request(t.app, 'PUT', SETTINGS, { token: tokens.employee, body }))).toEqual([403, 'FORBIDDEN_7003']);
    const saved = await request(t.app, 'PUT', SETTINGS, { token: tokens.admin, body });
    expect(saved.status, saved.text).toBe(200);
    expect((await request(t.app, 'GET', SETTINGS, { token: tokens.employee })).body.rewards).toEqual({ enabled: true, share_percent: 30 });
    const extra = await request(t.app, 'PUT', SETTINGS, { token: tokens.admin, body: { ...body, rewards: { enabled: true, share_percent: 30, cap: 1 } } });
    expect(refusal(extra)).toEqual([422, 'REQUEST_7001']);
    expect(extra.body.error_v2.errors['rewards.cap']).toBe('rewards.cap is not allowed');
    for (const share_percent of [101, -1, 12.5]) {
      const bad = await request(t.app, 'PUT', SETTINGS, { token: tokens.admin, body: { ...body, rewards: { enabled: true, share_percent } } });
      expect(refusal(bad)).toEqual([422, 'REQUEST_7001']);
      expect(Object.keys(bad.body.error_v2.errors)).toEqual(['rewards.share_percent']);
    }
    // A settings body without `rewards` (an older client) saves them off, the default.
    const { rewards: _r, ...older } = body;
    expect((await request(t.app, 'PUT', SETTINGS, { token: tokens.admin, body: older })).body.rewards).toEqual({ enabled: false, share_percent: 50 });
  });

  it('rewards an in-policy flight and hotel booked below the cap with the share of the savings, once per booking', async () => {
    await setPolicy({});
    await rewardsOn(50);
    const trip = await insertTrip(t.db, a, 'employee', { name: 'Rewarded trip' });
    const offer = (await flights('ECONOMY')).find((o) => o.in_policy && o.price.amount < 80_000)!;
    const flight = await book(trip, offer.offer_id);
    const expected = Math.round((80_000 - offer.price.amount) / 2);
    expect(flight.reward).toMatchObject({
      user_id: a.users.employee, trip_id: trip, trip_name: 'Rewarded trip', booking_id: flight.id, status: 'EARNED',
      amount: { amount: expected, currency: 'USD' }, cap: { amount: 80_000, currency: 'USD' }, price: offer.price, share_percent: 50,
      booking: { kind: 'FLIGHT', status: 'BOOKED', confirmation_code: flight.confirmation_code }, earned_at: '2026-12-01T12:00:00.000Z', voided_at: null,
    });
    // Another device asking again gets the same booking and the same reward; still one row.
    const again = await book(trip, offer.offer_id);
    expect(again.reward?.id).toBe(flight.reward!.id);
    expect(await rewardRows(flight.id)).toHaveLength(1);

    const stay = (await hotels()).find((h) => h.in_policy && h.hotel.nightly.amount < 35_000)!;
    const hotel = await book(trip, stay.offer_id);
    expect(hotel.reward).toMatchObject({ cap: { amount: 35_000 * 3 }, amount: { amount: Math.round((105_000 - stay.price.amount) / 2) } });
    const got = await request(t.app, 'GET', `${REQUESTS}/${hotel.id}`, { token: tokens.employee });
    expect(got.body.reward.id).toBe(hotel.reward!.id);
  });

  it('rewards nothing at or above the cap, with rewards off, or for a booking approved while out of policy', async () => {
    await rewardsOn(50);
    const trip = await insertTrip(t.db, a, 'employee');
    const offer = (await flights('ECONOMY')).find((o) => o.in_policy)!;
    await setPolicy({ flight_fare_caps: { ...DEFAULT_TRAVEL_POLICY.flight_fare_caps, ECONOMY: offer.price.amount } });
    const atCap = await book(trip, offer.offer_id);
    expect(atCap).toMatchObject({ status: 'BOOKED', in_policy: true, reward: null });

    await setPolicy({});
    await rewardsOn(50, false);
    const off = await book(trip, (await flights('ECONOMY')).find((o) => o.in_policy)!.offer_id);
    expect(off).toMatchObject({ status: 'BOOKED', reward: null });

    await rewardsOn(50);
    const pending = await book(trip, (await flights('BUSINESS')).find((o) => o.price.amount < 600_000)!.offer_id);
    expect(pending).toMatchObject({ status: 'PENDING_APPROVAL', reward: null });
    const ok = await request(t.app, 'POST', `/v1/auth/approvals/${pending.approval_id}/approve`, { token: tokens.manager });
    expect(ok.status, ok.text).toBe(200);
    const after = bookingAnswerSchema.parse((await request(t.app, 'GET', `${REQUESTS}/${pending.id}`, { token: tokens.employee })).body);
    expect(after).toMatchObject({ status: 'BOOKED', reward: null });
    expect(Number((await t.db.query<{ n: number }>('SELECT count(*) AS n FROM travel_rewards WHERE trip_id = $1', [trip]))[0]!.n)).toBe(0);
  });

  it('rewards an approved booking that today\'s policy takes in, once however often the approval is sent', async () => {
    await setPolicy({});
    await rewardsOn(40);
    const trip = await insertTrip(t.db, a, 'employee');
    const offer = (await flights('BUSINESS')).find((o) => o.price.amount < 600_000)!;
    const pending = await book(trip, offer.offer_id);
    expect(pending.status).toBe('PENDING_APPROVAL');
    // The admin widens the policy meanwhile: Business is now allowed on any flight.
    await setPolicy({ cabin_by_duration: [{ min_duration_minutes: 0, max_cabin: 'BUSINESS' }] });
    const approve = () => request(t.app, 'POST', `/v1/auth/approvals/${pending.approval_id}/approve`, { token: tokens.manager });
    expect((await approve()).status).toBe(200);
    expect(refusal(await approve())[0]).toBeGreaterThanOrEqual(400);
    expect(await rewardRows(pending.id)).toEqual([{ amount: Math.round((600_000 - offer.price.amount) * 0.4), status: 'EARNED' }]);
  });

  it('voids the reward when the booking is canceled, and the balance leaves it out', async () => {
    await setPolicy({});
    await rewardsOn(50);
    const trip = await insertTrip(t.db, a, 'employee');
    const booked = await book(trip, (await flights('ECONOMY')).find((o) => o.in_policy && o.price.amount < 80_000)!.offer_id);
    const before = (await list(tokens.employee)).body;
    const res = await request(t.app, 'POST', `${REQUESTS}/${booked.id}/cancel`, { token: tokens.employee, body: {} });
    expect(res.status, res.text).toBe(200);
    expect(res.body.reward).toMatchObject({ id: booked.reward!.id, status: 'VOIDED', void_reason: 'Booking canceled', voided_at: '2026-12-01T12:00:00.000Z' });
    const after = (await list(tokens.employee)).body;
    const usd = (page: { balances: { amount: number; currency: string }[] }) => page.balances.find((x) => x.currency === 'USD')?.amount ?? 0;
    expect(usd(after)).toBe(usd(before) - booked.reward!.amount.amount);
    expect(after.data.find((r: { id: string }) => r.id === booked.reward!.id).status).toBe('VOIDED');
  });

  it('lists the caller\'s own rewards newest first with balances; admins anyone\'s; paged', async () => {
    const own = await list(tokens.employee);
    expect(own.status, own.text).toBe(200);
    const rows = own.body.data.map((r: unknown) => travelRewardSchema.parse(r));
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const r of rows) expect(r.user_id).toBe(a.users.employee);
    const earned = rows.filter((r: { status: string }) => r.status === 'EARNED').reduce((s: number, r: { amount: { amount: number } }) => s + r.amount.amount, 0);
    expect(own.body.balances).toEqual([{ amount: earned, currency: 'USD' }]);
    // Pages of one walk the same rows.
    const seen: string[] = [];
    let start: string | null = null;
    do {
      const page: { body: { data: { id: string }[]; page: { next: string | null } } } = await list(tokens.employee, `?page_size=1${start ? `&start=${start}` : ''}`);
      seen.push(...page.body.data.map((r) => r.id));
      start = page.body.page.next;
    } while (start);
    expect(seen).toEqual(rows.map((r: { id: string }) => r.id));
    // An admin names the person; the person's colleagues may not; another business's person is unknown.
    expect((await list(tokens.admin, `?user_id=${a.users.employee}`)).body.data.map((r: { id: string }) => r.id)).toEqual(seen);
    expect((await list(tokens.admin)).body).toMatchObject({ data: [], balances: [] });
    expect(refusal(await list(tokens.manager, `?user_id=${a.users.employee}`))).toEqual([403, 'FORBIDDEN_7003']);
    expect(refusal(await list(tokens.admin, `?user_id=${b.users.employee}`))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await list(bOwner, `?user_id=${a.users.employee}`))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await list(tokens.employee, '?user_id=nope'))).toEqual([422, 'REQUEST_7001']);
  });

  it('lets an admin void a reward (DELETE, answered as voided; again changes nothing); no one else; another business\'s id is unknown', async () => {
    await setPolicy({});
    await rewardsOn(50);
    const trip = await insertTrip(t.db, a, 'employee');
    const booked = await book(trip, (await flights('ECONOMY')).find((o) => o.in_policy && o.price.amount < 80_000)!.offer_id);
    const id = booked.reward!.id;
    for (const role of ['employee', 'manager', 'outsider'] as const) {
      expect(refusal(await request(t.app, 'DELETE', `${REWARDS}/${id}`, { token: tokens[role] }))).toEqual([403, 'FORBIDDEN_7003']);
    }
    expect(refusal(await request(t.app, 'DELETE', `${REWARDS}/${id}`, { token: bOwner }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'DELETE', `${REWARDS}/${crypto.randomUUID()}`, { token: tokens.admin }))).toEqual([404, 'REQUEST_7004']);
    expect(await rewardRows(booked.id)).toEqual([{ amount: booked.reward!.amount.amount, status: 'EARNED' }]);
    const voided = await request(t.app, 'DELETE', `${REWARDS}/${id}`, { token: tokens.admin });
    expect(voided.status, voided.text).toBe(200);
    expect(travelRewardSchema.parse(voided.body)).toMatchObject({ id, status: 'VOIDED', void_reason: 'Voided by an admin' });
    const again = await request(t.app, 'DELETE', `${REWARDS}/${id}`, { token: tokens.owner });
    expect(again.body).toEqual(voided.body);
    // Canceling the booking afterwards keeps the admin's reason.
    await request(t.app, 'POST', `${REQUESTS}/${booked.id}/cancel`, { token: tokens.employee, body: {} });
    const [row] = await t.db.query<{ void_reason: string; voided_by: string }>('SELECT void_reason, voided_by::text FROM travel_rewards WHERE id = $1', [id]);
    expect(row).toEqual({ void_reason: 'Voided by an admin', voided_by: a.users.admin });
  });
});
