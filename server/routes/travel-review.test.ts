import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { bookingAnswerSchema, type FlightOffer, type HotelOffer } from '../../schema/api/calls-travel.ts';
import { syncChanges } from '../../schema/api/calls.ts';
import { tripSchema, type Trip } from '../../schema/entities/trip.ts';
import { DEFAULT_TRAVEL_POLICY } from '../../schema/travel-policy.ts';
import { fromUsd } from '../../schema/travel/fx-rates.ts';
import { useTestApp } from '../test-app.ts';
import { testDatabases } from '../test-db.ts';
import { makeBusiness, request, signIn, type Fixture, type FixtureRole } from '../test-fixtures.ts';
import { insertTrip, REQUESTS, SEARCH_FLIGHTS, SEARCH_HOTELS } from './booking-test-kit.ts';

/**
 * Issue 27, second review: a policy that changed between search and booking (TRAVEL_7025), trip
 * totals that follow their linked claims and charges (migration 042), offers priced in the
 * business's currency (schema/travel/fx-rates.ts), another business's ids on every travel route
 * that takes one, and the booking doc defined once (the trip's bookings = the booking answers).
 */
describe.each(await testDatabases())('travel review on %s', (kind) => {
  const clock = Date.parse('2026-12-01T12:00:00Z');
  const t = useTestApp(kind, { now: () => clock });
  let a: Fixture;
  let b: Fixture;
  let eur: Fixture;
  const tokens = {} as Record<FixtureRole, string>;
  let bOwner: string;
  let eurOwner: string;
  const TRIPS = '/v1/auth/travel/trips';
  const CLAIMS = '/v1/auth/reimbursements';

  const refusal = (res: { status: number; body: { error_v2?: { error_code: string } } }) => [res.status, res.body.error_v2?.error_code];
  const count = async (sql: string, params: unknown[]) => Number((await t.db.query<{ n: number }>(sql, params))[0]!.n);
  const flightBody = (over: Record<string, unknown> = {}) => ({ origin: 'SFO', destination: 'JFK', depart_date: '2026-12-20', ...over });
  const search = async (token: string, over: Record<string, unknown> = {}): Promise<FlightOffer[]> => {
    const res = await request(t.app, 'POST', SEARCH_FLIGHTS, { token, body: flightBody(over) });
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  };
  const economy = async () => (await search(tokens.employee, { cabin: 'ECONOMY' })).find((o) => o.in_policy)!;
  const business = async () => (await search(tokens.employee, { cabin: 'BUSINESS' }))[0]!;
  const book = (token: string, trip_id: string, offer_id: string) => request(t.app, 'POST', REQUESTS, { token, body: { trip_id, offer_id } });
  const setPolicy = async (f: Fixture, over: Record<string, unknown>) => {
    await t.db.query('DELETE FROM travel_policies WHERE business_id = $1', [f.businessId]);
    await t.db.query('INSERT INTO travel_policies (business_id, policy) VALUES ($1, $2::jsonb)', [f.businessId, JSON.stringify({ ...DEFAULT_TRAVEL_POLICY, ...over })]);
  };
  const resetPolicy = (f: Fixture) => t.db.query('DELETE FROM travel_policies WHERE business_id = $1', [f.businessId]);
  const getTrip = async (id: string, token = tokens.employee): Promise<Trip> => {
    const res = await request(t.app, 'GET', `${TRIPS}/${id}`, { token });
    expect(res.status, res.text).toBe(200);
    return tripSchema.parse(res.body);
  };
  const highWater = async (f: Fixture) => Number((await t.db.query<{ s: number }>('SELECT change_seq AS s FROM businesses WHERE id = $1', [f.businessId]))[0]!.s);

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 10 });
    b = await makeBusiness(t.db, { transactions: 0 });
    eur = await makeBusiness(t.db, { transactions: 0 });
    await t.db.query(`UPDATE businesses SET currency = 'EUR' WHERE id = $1`, [eur.businessId]);
    for (const role of ['owner', 'admin', 'manager', 'employee'] as const) tokens[role] = await signIn(t.app, a.email(role));
    bOwner = await signIn(t.app, b.email('owner'));
    eurOwner = await signIn(t.app, eur.email('owner'));
  });

  describe('a policy changed between search and booking', () => {
    it('refuses an offer now out of policy (409 TRAVEL_7025 with today\'s reasons) and books nothing', async () => {
      const trip = await insertTrip(t.db, a, 'employee');
      const offer = await economy();
      await setPolicy(a, { flight_fare_caps: { ...DEFAULT_TRAVEL_POLICY.flight_fare_caps, ECONOMY: 1_000 } });
      try {
        const res = await book(tokens.employee, trip, offer.offer_id);
        expect(refusal(res)).toEqual([409, 'TRAVEL_7025']);
        expect(res.body.error_v2.message).toMatch(/^The travel policy changed since you searched: this offer is now out of policy \(Economy fare of .* the policy caps Economy at \$10\.00\)\. Search again to confirm\.$/);
        expect(await count('SELECT count(*) AS n FROM travel_bookings WHERE trip_id = $1', [trip])).toBe(0);
        expect(await count(`SELECT count(*) AS n FROM approvals WHERE business_id = $1 AND object_type = 'travel_booking' AND status = 'PENDING'`, [a.businessId])).toBe(0);
        expect(await count('SELECT count(*) AS n FROM trip_spend_events WHERE trip_id = $1', [trip])).toBe(0);
        // Searching again shows the new verdict, and booking it follows it (out of policy: approval).
        const again = (await search(tokens.employee, { cabin: 'ECONOMY' })).find((o) => o.price.amount === offer.price.amount)!;
        expect(again.in_policy).toBe(false);
        expect((await book(tokens.employee, trip, again.offer_id)).body.status).toBe('PENDING_APPROVAL');
      } finally {
        await resetPolicy(a);
      }
    });

    it('refuses an offer now in policy, and one that became blocked (not TRAVEL_7002: the search told otherwise)', async () => {
      const trip = await insertTrip(t.db, a, 'employee');
      const offer = await business();
      expect(offer).toMatchObject({ in_policy: false, blocked: false });
      await setPolicy(a, { cabin_by_duration: [{ min_duration_minutes: 0, max_cabin: 'BUSINESS' }], flight_fare_caps: { ...DEFAULT_TRAVEL_POLICY.flight_fare_caps, BUSINESS: null } });
      try {
        const now = await book(tokens.employee, trip, offer.offer_id);
        expect(refusal(now)).toEqual([409, 'TRAVEL_7025']);
        expect(now.body.error_v2.message).toContain('this offer is now in policy (no longer: Business cabin on a');
        await setPolicy(a, { out_of_policy: 'BLOCK' });
        const blocked = await book(tokens.employee, trip, offer.offer_id);
        expect(refusal(blocked)).toEqual([409, 'TRAVEL_7025']);
        expect(blocked.body.error_v2.message).toContain('this offer is now out of policy (Business cabin on a');
        expect(await count('SELECT count(*) AS n FROM travel_bookings WHERE trip_id = $1', [trip])).toBe(0);
      } finally {
        await resetPolicy(a);
      }
      // The same verdict as the search: booked as before.
      expect((await book(tokens.employee, trip, offer.offer_id)).body.status).toBe('PENDING_APPROVAL');
    });

    it('an approval of a pending booking books at the approved price whatever the policy says now', async () => {
      const trip = await insertTrip(t.db, a, 'employee');
      const pending = bookingAnswerSchema.parse((await book(tokens.employee, trip, (await business()).offer_id)).body);
      await setPolicy(a, { out_of_policy: 'BLOCK', flight_fare_caps: { ...DEFAULT_TRAVEL_POLICY.flight_fare_caps, BUSINESS: 1_000 } });
      try {
        const ok = await request(t.app, 'POST', `/v1/auth/approvals/${pending.approval_id}/approve`, { token: tokens.manager });
        expect(ok.status, ok.text).toBe(200);
        const after = bookingAnswerSchema.parse((await request(t.app, 'GET', `${REQUESTS}/${pending.id}`, { token: tokens.employee })).body);
        expect(after).toMatchObject({ status: 'BOOKED', price: pending.price });
        // The booking doc is defined once: the trip's itinerary holds exactly the booking's answer.
        const { trip: tripDoc, change_seq: _seq, reward: _reward, ...doc } = after;
        expect(tripDoc.bookings).toEqual([doc]);
      } finally {
        await resetPolicy(a);
      }
    });
  });

  describe('trip totals follow their linked claims and charges', () => {
    const newClaim = async (amount: number) => {
      const res = await request(t.app, 'POST', `${CLAIMS}/out_of_pocket`, {
        token: tokens.employee, body: { merchant: 'Taxi', amount, currency: 'USD', transaction_date: '2026-11-30', submit: false },
      });
      expect(res.status, res.text).toBe(200);
      return res.body.id as string;
    };
    const feedTrip = async (after: number, id: string) => {
      const feed = await request(t.app, 'GET', `${syncChanges.path}?after=${after}&limit=500`, { token: tokens.employee });
      expect(feed.status, feed.text).toBe(200);
      return feed.body.changes.find((c: { collection: string; id: string }) => c.collection === 'trips' && c.id === id) as { seq: number; doc: Trip } | undefined;
    };

    it('a claim\'s new amount, its cancel and its delete re-stamp the trip; the deleted claim\'s link goes', async () => {
      const trip = tripSchema.parse((await request(t.app, 'POST', TRIPS, {
        token: tokens.employee, body: { name: 'Totals', destination: 'JFK', start_date: '2026-12-01', end_date: '2026-12-03' },
      })).body);
      const claim = await newClaim(2_500);
      const linked = await request(t.app, 'PUT', `${TRIPS}/${trip.id}/spend-events`, { token: tokens.employee, body: { reimbursement_ids: [claim] } });
      expect(linked.body.total).toEqual({ amount: 2_500, currency: 'USD' });
      const before = linked.body.change_seq as number;

      const patched = await request(t.app, 'PATCH', `${CLAIMS}/${claim}`, { token: tokens.employee, body: { amount: 4_000 } });
      expect(patched.status, patched.text).toBe(200);
      const afterPatch = await getTrip(trip.id);
      expect(afterPatch.total).toEqual({ amount: 4_000, currency: 'USD' });
      expect(afterPatch.change_seq).toBeGreaterThan(before);
      // Its own seq, above the claim's and unique: the feed carries it (a page never splits one seq).
      expect(afterPatch.change_seq).toBeGreaterThan(patched.body.change_seq);
      expect(await count('SELECT count(*) AS n FROM reimbursements WHERE business_id = $1 AND change_seq = $2', [a.businessId, afterPatch.change_seq])).toBe(0);
      expect((await feedTrip(before, trip.id))).toMatchObject({ seq: afterPatch.change_seq, doc: { total: { amount: 4_000, currency: 'USD' } } });

      const canceled = await request(t.app, 'PATCH', `${CLAIMS}/${claim}/cancel`, { token: tokens.employee, body: {} });
      expect(canceled.status, canceled.text).toBe(200);
      const afterCancel = await getTrip(trip.id);
      expect(afterCancel).toMatchObject({ total: { amount: 0, currency: 'USD' }, reimbursement_ids: [claim] });
      expect(afterCancel.change_seq).toBeGreaterThan(afterPatch.change_seq);

      const draft = await newClaim(1_200);
      await request(t.app, 'PUT', `${TRIPS}/${trip.id}/spend-events`, { token: tokens.employee, body: { reimbursement_ids: [draft] } });
      const withDraft = await getTrip(trip.id);
      expect(withDraft.total.amount).toBe(1_200);
      const deleted = await request(t.app, 'DELETE', `${CLAIMS}/${draft}`, { token: tokens.employee });
      expect(deleted.status, deleted.text).toBe(200);
      const afterDelete = await getTrip(trip.id);
      expect(afterDelete).toMatchObject({ total: { amount: 0, currency: 'USD' }, reimbursement_ids: [claim] });
      expect(afterDelete.change_seq).toBeGreaterThan(withDraft.change_seq);
      expect(await count(`SELECT count(*) AS n FROM trip_spend_events WHERE object_id = $1`, [draft])).toBe(0);
      expect((await feedTrip(withDraft.change_seq, trip.id))).toMatchObject({ seq: afterDelete.change_seq, doc: { reimbursement_ids: [claim] } });
      expect(afterDelete.change_seq).toBe(await highWater(a));
    });

    it('a linked card transaction settling, declined or deleted by any writer re-stamps its trip; other edits do not', async () => {
      const trip = await insertTrip(t.db, a, 'employee');
      const [tx] = a.transactions.employee as [string];
      await t.db.query(`UPDATE transactions SET amount = 3000, currency = 'USD', state = 'PENDING' WHERE id = $1`, [tx]);
      const linked = await request(t.app, 'PUT', `${TRIPS}/${trip}/spend-events`, { token: tokens.employee, body: { transaction_ids: [tx] } });
      expect(linked.body.total.amount).toBe(3_000);
      // A writer's own seq first (allocateSeqs), then its UPDATE: what settlement, refunds and deletes do.
      const write = async (set: string) => {
        const seq = (await t.db.query<{ s: number }>('UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $1 RETURNING change_seq AS s', [a.businessId]))[0]!.s;
        await t.db.query(`UPDATE transactions SET ${set}, change_seq = $2 WHERE id = $1`, [tx, seq]);
        return Number(seq);
      };
      const settled = await write('amount = 3250, state = \'CLEARED\'');
      const afterSettle = await getTrip(trip);
      expect(afterSettle.total.amount).toBe(3_250);
      expect(afterSettle.change_seq).toBe(settled + 1);
      await write('memo = \'coded\'');
      expect((await getTrip(trip)).change_seq).toBe(afterSettle.change_seq);
      await write('state = \'DECLINED\'');
      const afterDecline = await getTrip(trip);
      expect(afterDecline.total.amount).toBe(0);
      expect(afterDecline.change_seq).toBeGreaterThan(afterSettle.change_seq);
      await write('state = \'CLEARED\'');
      await write('deleted = true');
      const afterDelete = await getTrip(trip);
      expect(afterDelete.total.amount).toBe(0);
      expect(afterDelete.change_seq).toBe(await highWater(a));
    });
  });

  describe('prices in the business\'s currency', () => {
    it('a EUR business sees EUR prices at the fixed rates, judged by a EUR policy, and pays them in EUR', async () => {
      const usd = await search(tokens.employee, { cabin: 'ECONOMY' });
      const inEur = await search(eurOwner, { cabin: 'ECONOMY' });
      expect(inEur.map((o) => o.price)).toEqual(usd.map((o) => fromUsd(o.price.amount, 'EUR')));
      // No saved policy: the default one at the fixed rates, in euros, judges them.
      const cap = fromUsd(DEFAULT_TRAVEL_POLICY.flight_fare_caps.ECONOMY!, 'EUR').amount;
      expect(inEur.some((o) => o.in_policy)).toBe(true);
      expect(inEur.map((o) => o.in_policy)).toEqual(inEur.map((o) => o.price.amount <= cap));
      // A saved policy in USD is never compared by a guessed rate: every offer is out of policy naming both.
      await setPolicy(eur, {});
      const vsUsd = await search(eurOwner, { cabin: 'ECONOMY' });
      expect(vsUsd.every((o) => !o.in_policy && o.policy_reasons.includes('Priced in EUR: the policy caps USD'))).toBe(true);
      await setPolicy(eur, { currency: 'EUR', flight_fare_caps: { ...DEFAULT_TRAVEL_POLICY.flight_fare_caps, ECONOMY: inEur[1]!.price.amount } });
      try {
        const judged = await search(eurOwner, { cabin: 'ECONOMY' });
        expect(judged.map((o) => o.in_policy)).toEqual(judged.map((o) => o.price.amount <= inEur[1]!.price.amount));
        expect(judged.find((o) => !o.in_policy)!.policy_reasons[0]).toMatch(/^Economy fare of €.* per traveller: the policy caps Economy at €/);
        const hotels = await request(t.app, 'POST', SEARCH_HOTELS, { token: eurOwner, body: { city: 'LHR', check_in: '2026-12-20', check_out: '2026-12-22' } });
        const hotel = hotels.body.data[0] as HotelOffer;
        expect(hotel.price).toEqual({ amount: hotel.hotel.nightly.amount * 2, currency: 'EUR' });
        expect(hotel.hotel.nightly.currency).toBe('EUR');
        const trip = await insertTrip(t.db, eur, 'owner');
        const booked = await book(eurOwner, trip, judged[0]!.offer_id);
        expect(booked.body).toMatchObject({ status: 'BOOKED', price: judged[0]!.price, trip: { total: { amount: judged[0]!.price.amount, currency: 'EUR' } } });
        const [charge] = await t.db.query<{ amount: number; currency: string }>('SELECT amount, currency FROM transactions WHERE id = $1', [booked.body.transaction_id]);
        expect(charge).toEqual({ amount: judged[0]!.price.amount, currency: 'EUR' });
      } finally {
        await resetPolicy(eur);
      }
    });
  });

  describe('another business\'s ids', () => {
    it('answer 404 on every trip route, change nothing, and never reach a trip\'s doc or delete', async () => {
      const trip = await insertTrip(t.db, a, 'employee');
      const bTrip = await insertTrip(t.db, b, 'owner');
      const spendOf = (id: string) => `${TRIPS}/${id}/spend-events`;
      const calls: [string, string, unknown?][] = [
        ['GET', `${TRIPS}/${trip}`], ['PATCH', `${TRIPS}/${trip}`, { name: 'Taken' }], ['DELETE', `${TRIPS}/${trip}`],
        ['PUT', spendOf(trip), { transaction_ids: [] }], ['DELETE', spendOf(trip), { transaction_ids: [a.transactions.employee[0]] }],
      ];
      for (const [method, path, body] of calls) {
        expect(refusal(await request(t.app, method, path, { token: bOwner, ...(body ? { body } : {}) })), `${method} ${path}`).toEqual([404, 'REQUEST_7004']);
        const swapped = path.replace(trip, bTrip);
        expect(refusal(await request(t.app, method, swapped, { token: tokens.owner, ...(body ? { body } : {}) })), `${method} ${swapped}`).toEqual([404, 'REQUEST_7004']);
      }
      // A client id another business's trip holds is refused on the id, never answered as that trip.
      const reuse = await request(t.app, 'POST', TRIPS, { token: tokens.employee, body: { id: bTrip, name: 'Mine', destination: 'JFK', start_date: '2026-12-05', end_date: '2026-12-06' } });
      expect(refusal(reuse)).toEqual([422, 'REQUEST_7001']);
      expect(reuse.body.error_v2.errors).toEqual({ id: 'id is already used by another trip' });
      // Whatever a booking row of B says about A's trip, A's trip neither shows it nor is held by it.
      const bOffer = (await search(bOwner, { cabin: 'ECONOMY' }))[0]!;
      await t.db.query(
        `INSERT INTO travel_bookings (id, business_id, trip_id, offer_id, kind, status, price_amount, currency, in_policy, payload, confirmation_code,
                                      card_id, transaction_id, requested_by, booked_at)
         SELECT $1, $2, $3, o.id, o.kind, 'BOOKED', o.price_amount, o.currency, true, o.payload, 'ZZZZZ9', $4, $5, $6, now() FROM travel_offers o WHERE o.id = $7`,
        [randomUUID(), b.businessId, trip, b.cards.owner, randomUUID(), b.users.owner, bOffer.offer_id],
      );
      const doc = await getTrip(trip);
      expect(doc).toMatchObject({ bookings: [], total: { amount: 0, currency: 'USD' }, status: 'PLANNED' });
      const gone = await request(t.app, 'DELETE', `${TRIPS}/${trip}`, { token: tokens.employee });
      expect(gone.status, gone.text).toBe(200);
      expect(await count('SELECT count(*) AS n FROM travel_bookings WHERE business_id = $1', [b.businessId])).toBe(1);
    });
  });
});
