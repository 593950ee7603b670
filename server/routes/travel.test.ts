import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { syncChanges } from '../../schema/api/calls.ts';
import { tripSchema, type Trip } from '../../schema/entities/trip.ts';
import { DEFAULT_TRAVEL_POLICY, DEFAULT_TRAVEL_SETTINGS } from '../../schema/travel-policy.ts';
import { travelerSecretOf } from '../domain/travel/profile.ts';
import { createTrip } from '../domain/travel/trips.ts';
import type { Queryable } from '../db/db.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { FIXTURE_PASSWORD, request, useTwoBusinesses, type FixtureRole, type TestResponse } from '../test-fixtures.ts';

/**
 * Trips, spend links, travel policy and settings, and the traveller's profile (issue 27) through
 * the API. Reporting line in the fixture: employee → manager, teammate → employee.
 */
const TRIPS = '/v1/auth/travel/trips';
const spend = (id: string) => `${TRIPS}/${id}/spend-events`;

describe.each(await testDatabases())('travel: trips, spend, policy, profile on %s', (kind) => {
  const clock = Date.parse('2026-11-20T09:00:00Z');
  const t = useTestApp(kind, { now: () => clock });
  const biz = useTwoBusinesses(t, ['owner', 'admin', 'bookkeeper', 'manager', 'employee', 'teammate', 'outsider'], [40, 5]);
  const { tokens } = biz;
  const refusal = (res: { status: number; body: { error_v2?: { error_code: string } } }) => [res.status, res.body.error_v2?.error_code];
  const body = (over: Record<string, unknown> = {}) => ({ name: 'Client visit', destination: 'JFK', start_date: '2026-12-01', end_date: '2026-12-03', ...over });
  const create = async (role: FixtureRole = 'employee', over: Record<string, unknown> = {}): Promise<Trip> => {
    const res = await request(t.app, 'POST', TRIPS, { token: tokens[role], body: body(over) });
    expect(res.status, res.text).toBe(200);
    return tripSchema.parse(res.body);
  };
  /** A booking on the trip, as the booking half stores one (its offer first). */
  const addBooking = async (trip: Trip, status: 'PENDING_APPROVAL' | 'BOOKED' | 'CANCELED', price = 45_000, currency = 'USD') => {
    const offer = randomUUID();
    await t.db.query(
      `INSERT INTO travel_offers (id, business_id, user_id, kind, price_amount, currency, in_policy, payload, expires_at)
       VALUES ($1, $2, $3, 'HOTEL', $4, $5, true, '{"hotel": null}', now() + interval '30 minutes')`,
      [offer, biz.a.businessId, trip.user_id, price, currency],
    );
    const booked = status === 'BOOKED';
    const charge = booked ? randomUUID() : null;
    await t.db.query(
      `INSERT INTO travel_bookings (id, business_id, trip_id, offer_id, kind, status, price_amount, currency, in_policy, payload,
         confirmation_code, card_id, transaction_id, requested_by, booked_at, canceled_at)
       VALUES ($1, $2, $3, $4, 'HOTEL', $5, $6, $7, true, '{"hotel": null}', $8, $9, $10, $11, $12, $13)`,
      [randomUUID(), biz.a.businessId, trip.id, offer, status, price, currency, booked ? randomUUID().slice(0, 6).toUpperCase().replace(/-/g, 'X') : null,
        booked ? biz.a.cards.employee : null, charge, trip.user_id, booked ? new Date(clock).toISOString() : null,
        status === 'CANCELED' ? new Date(clock).toISOString() : null],
    );
    return charge;
  };

  it('creates a trip under the client id (a repeat answers it), names the city, and refuses bad input by field', async () => {
    const id = randomUUID();
    const trip = await create('employee', { id, purpose: 'Renewal', budget: 200_000 });
    expect(trip).toMatchObject({
      id, user_id: biz.a.users.employee, destination: 'JFK', destination_name: 'New York', status: 'PLANNED', purpose: 'Renewal',
      budget: { amount: 200_000, currency: 'USD' }, total: { amount: 0, currency: 'USD' }, totals: [], bookings: [], transaction_ids: [],
    });
    expect((await create('employee', { id, name: 'Something else' })).name).toBe('Client visit');
    const stolen = await request(t.app, 'POST', TRIPS, { token: tokens.teammate, body: body({ id }) });
    expect(stolen.status).toBe(422);
    expect(stolen.body.error_v2.errors).toEqual({ id: 'id is already used by another trip' });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ destination: 'XXX' }, 'destination', 'destination XXX is not a known airport code'],
      [{ destination: 'jfk' }, 'destination', 'destination must be a three-letter IATA airport code'],
      [{ end_date: '2026-11-30' }, 'end_date', 'end_date must be on or after start_date'],
      [{ start_date: '2026-11-01', end_date: '2026-11-10' }, 'end_date', 'end_date must not be in the past'],
      [{ end_date: '9999-12-31' }, 'end_date', 'a trip must not be longer than 366 days'],
      [{ start_date: '2027-10-17', end_date: '2027-10-18' }, 'start_date', 'start_date must be at most 330 days ahead'],
      [{ cabin: 'FIRST' }, 'cabin', 'cabin is not allowed'],
    ];
    for (const [over, field, message] of cases) {
      const res = await request(t.app, 'POST', TRIPS, { token: tokens.employee, body: body(over) });
      expect(refusal(res), JSON.stringify(over)).toEqual([422, 'REQUEST_7001']);
      expect(res.body.error_v2.errors[field], JSON.stringify(over)).toEqual(message);
    }
  });

  it('a create racing its own repeat (two Idempotency-Keys, one client id) answers the stored trip, never 422', async () => {
    const first = await create('employee', { id: randomUUID() });
    // The repeat's first look ran before the first create committed: it saw no trip under the id.
    let hidden = false;
    const racing: Queryable = {
      ...t.db,
      query: (async (sql: string, params?: unknown[]) => {
        if (!hidden && sql.startsWith('SELECT created_by::text, deleted FROM trips')) { hidden = true; return []; }
        return t.db.query(sql, params);
      }) as Queryable['query'],
    };
    const user = { id: biz.a.users.employee, business_id: biz.a.businessId, role: 'employee', is_manager: false, user_permissions: [], manager_id: null };
    const repeat = await createTrip(racing, user, { ...body({ name: 'Renamed' }), id: first.id } as never, new Date(clock));
    expect(hidden).toBe(true);
    expect(repeat).toMatchObject({ id: first.id, name: 'Client visit', change_seq: first.change_seq });
  });

  it('reads follow the owner rule: the traveller, their managers and business-wide roles; others and other businesses 404', async () => {
    const trip = await create('teammate', { name: `Visibility ${randomUUID()}` });
    // The manager sees their reports' reports; the employee (teammate's manager, not flagged a manager) does not.
    for (const role of ['teammate', 'manager', 'admin', 'bookkeeper'] as const) {
      expect((await request(t.app, 'GET', `${TRIPS}/${trip.id}`, { token: tokens[role] })).status, role).toBe(200);
    }
    for (const role of ['outsider', 'employee'] as const) {
      expect(refusal(await request(t.app, 'GET', `${TRIPS}/${trip.id}`, { token: tokens[role] })), role).toEqual([404, 'REQUEST_7004']);
    }
    expect(refusal(await request(t.app, 'GET', `${TRIPS}/${trip.id}`, { token: biz.bOwner }))).toEqual([404, 'REQUEST_7004']);
    const mine = await request(t.app, 'GET', `${TRIPS}?q=${encodeURIComponent(trip.name.split(' ')[1]!)}`, { token: tokens.manager });
    expect(mine.body.data.map((x: Trip) => x.id)).toEqual([trip.id]);
    expect((await request(t.app, 'GET', `${TRIPS}?q=${encodeURIComponent(trip.name.split(' ')[1]!)}`, { token: tokens.outsider })).body.data).toEqual([]);
    expect((await request(t.app, 'GET', TRIPS, { token: biz.bOwner })).body.data).toEqual([]);
  });

  it('pages the list latest start first', async () => {
    const starts = ['2027-03-01', '2027-01-01', '2027-02-01'];
    for (const start of starts) await create('outsider', { start_date: start, end_date: start });
    const seen: string[] = [];
    let start: string | null = null;
    do {
      const res: TestResponse<{ data: Trip[]; page: { next: string | null } }> = await request(t.app, 'GET', `${TRIPS}?page_size=2&user_ids=${biz.a.users.outsider}${start ? `&start=${start}` : ''}`, { token: tokens.outsider });
      expect(res.status, res.text).toBe(200);
      seen.push(...res.body.data.map((x) => x.start_date));
      start = res.body.page.next;
    } while (start);
    expect(seen).toEqual(['2027-03-01', '2027-02-01', '2027-01-01']);
  });

  it('filters by the effective status on the server\'s UTC day: IN_PROGRESS and COMPLETED by the dates', async () => {
    const current = await create('admin', { start_date: '2026-11-19', end_date: '2026-11-22' });
    const past = await create('admin', { start_date: '2026-12-01', end_date: '2026-12-02' });
    // A trip that ended yesterday (created earlier; the rules refuse a past end on create).
    await t.db.query(`UPDATE trips SET start_date = '2026-11-10', end_date = '2026-11-19' WHERE id = $1`, [past.id]);
    const later = await create('admin', { start_date: '2026-12-05', end_date: '2026-12-06' });
    const byStatus = async (status: string) =>
      (await request(t.app, 'GET', `${TRIPS}?user_ids=${biz.a.users.admin}&statuses=${status}`, { token: tokens.admin })).body.data.map((x: Trip) => x.id);
    expect(await byStatus('IN_PROGRESS')).toEqual([current.id]);
    expect(await byStatus('COMPLETED')).toEqual([past.id]);
    expect(await byStatus('PLANNED')).toEqual([later.id]);
    expect(await byStatus('IN_PROGRESS,COMPLETED')).toEqual([current.id, past.id]);
  });

  it('PATCH: the traveller or an admin; anyone else 404; cancel waits for live bookings; a canceled trip takes no edit', async () => {
    const trip = await create();
    const path = `${TRIPS}/${trip.id}`;
    for (const role of ['manager', 'teammate', 'bookkeeper', 'outsider'] as const) {
      expect(refusal(await request(t.app, 'PATCH', path, { token: tokens[role], body: { name: 'Mine now' } })), role).toEqual([404, 'REQUEST_7004']);
    }
    expect(refusal(await request(t.app, 'PATCH', path, { token: biz.bOwner, body: { name: 'Mine now' } }))).toEqual([404, 'REQUEST_7004']);
    const edited = await request(t.app, 'PATCH', path, { token: tokens.employee, body: { destination: 'LHR', budget: 90_000 } });
    expect(edited.body).toMatchObject({ destination: 'LHR', destination_name: 'London', budget: { amount: 90_000, currency: 'USD' } });
    expect(edited.body.change_seq).toBeGreaterThan(trip.change_seq);
    expect((await request(t.app, 'PATCH', path, { token: tokens.admin, body: { purpose: 'Set by admin' } })).body.purpose).toBe('Set by admin');
    expect(refusal(await request(t.app, 'PATCH', path, { token: tokens.employee, body: { start_date: '2026-12-09' } }))).toEqual([422, 'REQUEST_7001']);
    const endless = await request(t.app, 'PATCH', path, { token: tokens.employee, body: { end_date: '9999-12-31' } });
    expect(endless.body.error_v2?.errors).toEqual({ end_date: 'a trip must not be longer than 366 days' });
    expect(refusal(await request(t.app, 'PATCH', path, { token: tokens.employee, body: { status: 'BOOKED' } }))).toEqual([422, 'REQUEST_7001']);

    await addBooking(trip, 'PENDING_APPROVAL');
    expect(refusal(await request(t.app, 'PATCH', path, { token: tokens.employee, body: { canceled: true } }))).toEqual([409, 'TRAVEL_7006']);
    await t.db.query(`UPDATE travel_bookings SET status = 'REJECTED', rejection_reason = 'No' WHERE trip_id = $1`, [trip.id]);
    const canceled = await request(t.app, 'PATCH', path, { token: tokens.employee, body: { canceled: true } });
    expect(canceled.body).toMatchObject({ status: 'CANCELED', canceled_at: new Date(clock).toISOString() });
    expect(refusal(await request(t.app, 'PATCH', path, { token: tokens.employee, body: { name: 'Back on' } }))).toEqual([409, 'TRAVEL_7008']);
    expect(refusal(await request(t.app, 'PUT', spend(trip.id), { token: tokens.employee, body: { transaction_ids: [biz.a.transactions.employee[0]] } })))
      .toEqual([409, 'TRAVEL_7005']);
  });

  it('DELETE only with no live booking: a tombstone the feed carries, links let go', async () => {
    const trip = await create();
    const path = `${TRIPS}/${trip.id}`;
    await addBooking(trip, 'BOOKED');
    expect(refusal(await request(t.app, 'DELETE', path, { token: tokens.employee }))).toEqual([409, 'TRAVEL_7003']);
    expect(refusal(await request(t.app, 'DELETE', path, { token: tokens.manager }))).toEqual([404, 'REQUEST_7004']);
    await t.db.query(`UPDATE travel_bookings SET status = 'CANCELED', canceled_at = now() WHERE trip_id = $1`, [trip.id]);
    const tx = biz.a.transactions.employee[1]!;
    expect((await request(t.app, 'PUT', spend(trip.id), { token: tokens.employee, body: { transaction_ids: [tx] } })).status).toBe(200);
    const gone = await request(t.app, 'DELETE', path, { token: tokens.employee });
    expect(gone.body).toEqual({ id: trip.id, deleted: true, change_seq: expect.any(Number) });
    expect(refusal(await request(t.app, 'GET', path, { token: tokens.employee }))).toEqual([404, 'REQUEST_7004']);
    const feed = await request(t.app, 'GET', `${syncChanges.path}?after=${gone.body.change_seq - 1}&limit=100`, { token: tokens.employee });
    expect(feed.body.changes).toContainEqual(expect.objectContaining({ collection: 'trips', id: trip.id, deleted: true, seq: gone.body.change_seq }));
    // The transaction is free for another trip.
    const other = await create();
    expect((await request(t.app, 'PUT', spend(other.id), { token: tokens.employee, body: { transaction_ids: [tx] } })).body.transaction_ids).toEqual([tx]);
  });

  it('links spend: totals per currency (declined, canceled and booking charges counted right), a new seq in the feed', async () => {
    const trip = await create();
    const [t1, t2, t3, t4] = biz.a.transactions.employee.slice(2, 6) as [string, string, string, string];
    await t.db.query(`UPDATE transactions SET amount = 10000, currency = 'USD', state = 'CLEARED' WHERE id = ANY($1::uuid[])`, [[t1, t2]]);
    await t.db.query(`UPDATE transactions SET amount = 5000, currency = 'EUR', state = 'CLEARED' WHERE id = $1`, [t3]);
    await t.db.query(`UPDATE transactions SET amount = 7777, currency = 'USD', state = 'DECLINED' WHERE id = $1`, [t4]);
    const claims = [randomUUID(), randomUUID()];
    for (const [i, status] of (['APPROVED', 'CANCELED'] as const).entries()) {
      await t.db.query(
        `INSERT INTO reimbursements (id, business_id, user_id, type, status, merchant, amount, currency, transaction_date, change_seq)
         SELECT $1, $2, $3, 'OUT_OF_POCKET', $4, 'Taxi', 2500, 'USD', '2026-11-10', change_seq FROM businesses WHERE id = $2`,
        [claims[i], biz.a.businessId, biz.a.users.employee, status],
      );
    }
    const res = await request(t.app, 'PUT', spend(trip.id), {
      token: tokens.employee, body: { transaction_ids: [t1, t2, t3, t4, t1], reimbursement_ids: claims },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      transaction_ids: [t1, t2, t3, t4].sort(), reimbursement_ids: [...claims].sort(),
      total: { amount: 22_500, currency: 'USD' },
      totals: [{ amount: 5_000, currency: 'EUR' }, { amount: 22_500, currency: 'USD' }],
    });
    expect(res.body.change_seq).toBeGreaterThan(trip.change_seq);
    const feed = await request(t.app, 'GET', `${syncChanges.path}?after=${trip.change_seq}&limit=100`, { token: tokens.employee });
    const change = feed.body.changes.find((c: { collection: string; id: string }) => c.collection === 'trips' && c.id === trip.id);
    expect(change.seq).toBe(res.body.change_seq);
    expect(change.doc.totals).toEqual(res.body.totals);

    // A BOOKED booking counts at its price; its charge, linked to the trip too, is not counted twice.
    const charge = await addBooking(trip, 'BOOKED', 30_000);
    await t.db.query(
      `INSERT INTO transactions (id, business_id, card_id, user_id, merchant_name, amount, currency, occurred_at, state, change_seq)
       SELECT $1, $2, $3, $4, 'Hotel', 30000, 'USD', now(), 'CLEARED', change_seq FROM businesses WHERE id = $2`,
      [charge, biz.a.businessId, biz.a.cards.employee, biz.a.users.employee],
    );
    // The charge is linked with its booking (booking-charge.ts), and stays with it: linking it by hand is refused.
    await t.db.query(
      `INSERT INTO trip_spend_events (business_id, trip_id, object_type, object_id, linked_by) VALUES ($1, $2, 'transaction', $3, $4)`,
      [biz.a.businessId, trip.id, charge, biz.a.users.employee],
    );
    expect(refusal(await request(t.app, 'PUT', spend(trip.id), { token: tokens.employee, body: { transaction_ids: [charge] } })))
      .toEqual([409, 'TRAVEL_7009']);
    const withBooking = await request(t.app, 'GET', `${TRIPS}/${trip.id}`, { token: tokens.employee });
    expect(withBooking.body.total).toEqual({ amount: 52_500, currency: 'USD' });
    expect(withBooking.body.bookings).toHaveLength(1);

    // A repeat is a no-op (no new seq); unlinking takes the amounts out and stamps a new seq.
    const again = await request(t.app, 'PUT', spend(trip.id), { token: tokens.employee, body: { transaction_ids: [t1] } });
    expect(again.body.change_seq).toBe(withBooking.body.change_seq);
    const unlinked = await request(t.app, 'DELETE', spend(trip.id), { token: tokens.employee, body: { transaction_ids: [t3], reimbursement_ids: [claims[0]] } });
    expect(unlinked.body).toMatchObject({ totals: [{ amount: 50_000, currency: 'USD' }], reimbursement_ids: [claims[1]] });
    expect(unlinked.body.change_seq).toBeGreaterThan(withBooking.body.change_seq);
  });

  it('links only the traveller\'s own spend (an admin any of the business\'s); another business\'s ids 404; one trip per item', async () => {
    const trip = await create();
    const theirs = biz.a.transactions.teammate[0]!;
    const linkAs = (role: FixtureRole | string, ids: Record<string, string[]>, id = trip.id) =>
      request(t.app, 'PUT', spend(id), { token: role in tokens ? tokens[role as FixtureRole] : role, body: ids });
    expect(refusal(await linkAs('employee', { transaction_ids: [theirs] }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await linkAs('employee', { transaction_ids: [biz.b.transactions.employee[0]!] }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await linkAs('employee', { reimbursement_ids: [randomUUID()] }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await linkAs('manager', { transaction_ids: [biz.a.transactions.employee[6]!] }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await linkAs(biz.bOwner, { transaction_ids: [biz.b.transactions.owner[0] ?? biz.b.allTransactions[0]!] }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await linkAs('admin', { transaction_ids: [biz.b.allTransactions[0]!] }))).toEqual([404, 'REQUEST_7004']);
    const byAdmin = await linkAs('admin', { transaction_ids: [theirs] });
    expect(byAdmin.status, byAdmin.text).toBe(200);
    expect(byAdmin.body.transaction_ids).toEqual([theirs]);
    const second = await create();
    const clash = await linkAs('admin', { transaction_ids: [theirs] }, second.id);
    expect(refusal(clash)).toEqual([409, 'TRAVEL_7007']);
    expect(clash.body.error_v2.message).toContain(theirs);
    expect((await request(t.app, 'GET', `${TRIPS}/${second.id}`, { token: tokens.employee })).body.transaction_ids).toEqual([]);
    // Unlinking ids the trip does not hold (another business's included) changes nothing.
    const noop = await request(t.app, 'DELETE', spend(trip.id), { token: tokens.employee, body: { transaction_ids: [biz.b.allTransactions[0]!] } });
    expect(noop.body).toMatchObject({ transaction_ids: [theirs], change_seq: byAdmin.body.change_seq });
  });

  it('policy and settings: everyone reads them, admins write them (403 otherwise), validated; DELETE restores the default', async () => {
    expect((await request(t.app, 'GET', '/v1/auth/travel/policy', { token: tokens.employee })).body).toEqual({ policy: DEFAULT_TRAVEL_POLICY, is_default: true });
    const policy = { ...DEFAULT_TRAVEL_POLICY, min_advance_days: 7, out_of_policy: 'BLOCK', cabin_by_duration: [...DEFAULT_TRAVEL_POLICY.cabin_by_duration].reverse() };
    for (const role of ['employee', 'manager', 'bookkeeper'] as const) {
      expect(refusal(await request(t.app, 'PUT', '/v1/auth/travel/policy', { token: tokens[role], body: policy })), role).toEqual([403, 'FORBIDDEN_7003']);
      expect(refusal(await request(t.app, 'DELETE', '/v1/auth/travel/policy', { token: tokens[role] })), role).toEqual([403, 'FORBIDDEN_7003']);
      expect(refusal(await request(t.app, 'PUT', '/v1/auth/travel/settings', { token: tokens[role], body: DEFAULT_TRAVEL_SETTINGS })), role).toEqual([403, 'FORBIDDEN_7003']);
    }
    const saved = await request(t.app, 'PUT', '/v1/auth/travel/policy', { token: tokens.admin, body: policy });
    expect(saved.body).toEqual({ policy: { ...policy, cabin_by_duration: DEFAULT_TRAVEL_POLICY.cabin_by_duration }, is_default: false });
    expect((await request(t.app, 'GET', '/v1/auth/travel/policy', { token: tokens.employee })).body).toEqual(saved.body);
    expect((await request(t.app, 'GET', '/v1/auth/travel/policy', { token: biz.bOwner })).body.is_default).toBe(true);
    const bad: [Record<string, unknown>, string][] = [
      [{ ...policy, cabin_by_duration: [{ min_duration_minutes: 60, max_cabin: 'ECONOMY' }] }, 'cabin_by_duration'],
      [{ ...policy, currency: 'ZZZ' }, 'currency'],
      [{ ...policy, extra: true }, 'extra'],
      [{ ...policy, flight_fare_caps: { ...policy.flight_fare_caps, ECONOMY: -1 } }, 'flight_fare_caps.ECONOMY'],
    ];
    for (const [body, field] of bad) {
      const res = await request(t.app, 'PUT', '/v1/auth/travel/policy', { token: tokens.admin, body });
      expect(refusal(res), field).toEqual([422, 'REQUEST_7001']);
      expect(Object.keys(res.body.error_v2.errors), field).toContain(field);
    }
    expect((await request(t.app, 'DELETE', '/v1/auth/travel/policy', { token: tokens.owner })).body).toEqual({ policy: DEFAULT_TRAVEL_POLICY, is_default: true });

    expect((await request(t.app, 'GET', '/v1/auth/travel/settings', { token: tokens.employee })).body).toEqual(DEFAULT_TRAVEL_SETTINGS);
    const settings = { ...DEFAULT_TRAVEL_SETTINGS, default_trip_budget: 250_000, hotels_enabled: false };
    expect((await request(t.app, 'PUT', '/v1/auth/travel/settings', { token: tokens.admin, body: settings })).body).toEqual(settings);
    expect((await request(t.app, 'GET', '/v1/auth/travel/settings', { token: tokens.teammate })).body).toEqual(settings);
    expect(refusal(await request(t.app, 'PUT', '/v1/auth/travel/settings', { token: tokens.admin, body: { ...settings, trip_card_limit_multiplier: 9 } })))
      .toEqual([422, 'REQUEST_7001']);
    // A new trip without a budget takes the default one; null says none.
    expect((await create()).budget).toEqual({ amount: 250_000, currency: 'USD' });
    expect((await create('employee', { budget: null })).budget).toBeNull();
    await request(t.app, 'PUT', '/v1/auth/travel/settings', { token: tokens.admin, body: DEFAULT_TRAVEL_SETTINGS });
  });

  it('profile: own only, written after step-up, sensitive fields encrypted at rest and answered masked', async () => {
    const profile = {
      legal_first_name: 'Ana', legal_last_name: 'Ruiz', date_of_birth: '1990-04-14', known_traveler_number: 'TT1234567',
      loyalty_programs: [{ airline_code: 'UA', number: 'MP99887766' }], seat_preference: 'AISLE',
    };
    expect((await request(t.app, 'GET', '/v1/auth/travel/profile', { token: tokens.employee })).body).toEqual({ profile: null });
    expect(refusal(await request(t.app, 'PUT', '/v1/auth/travel/profile', { token: tokens.employee, body: profile }))).toEqual([403, 'AUTH_7016']);
    const step = await request(t.app, 'POST', '/v1/auth/users/current/step-up', { token: tokens.employee, body: { password: FIXTURE_PASSWORD } });
    expect(step.status, step.text).toBe(200);
    const stepped = step.body.id_token as string;
    expect(refusal(await request(t.app, 'PUT', '/v1/auth/travel/profile', { token: stepped, body: { ...profile, passport: 'X1' } }))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await request(t.app, 'PUT', '/v1/auth/travel/profile', { token: stepped, body: { ...profile, date_of_birth: '1990-13-01' } }))).toEqual([422, 'REQUEST_7001']);
    const { date_of_birth: _dob, ...withoutBirth } = profile;
    const first = await request(t.app, 'PUT', '/v1/auth/travel/profile', { token: stepped, body: withoutBirth });
    expect(refusal(first)).toEqual([422, 'REQUEST_7001']);
    expect(first.body.error_v2.errors).toEqual({ date_of_birth: 'date_of_birth is required' });
    const saved = await request(t.app, 'PUT', '/v1/auth/travel/profile', { token: stepped, body: profile });
    expect(saved.status, saved.text).toBe(200);
    const masked = {
      legal_first_name: 'Ana', legal_middle_name: null, legal_last_name: 'Ruiz', date_of_birth_masked: '••••-••-14', known_traveler_number_last_four: '4567',
      loyalty_programs: [{ airline_code: 'UA', number_last_four: '7766' }], seat_preference: 'AISLE', updated_at: expect.any(String),
    };
    expect(saved.body).toEqual({ profile: masked });
    for (const plain of ['1990-04-14', 'TT1234567', 'MP99887766']) expect(saved.text).not.toContain(plain);
    const [row] = await t.db.query<Record<string, unknown>>('SELECT * FROM traveler_profiles WHERE user_id = $1', [biz.a.users.employee]);
    for (const plain of ['1990-04-14', 'TT1234567', 'MP99887766']) expect(JSON.stringify(row)).not.toContain(plain);
    expect(await travelerSecretOf(t.db, biz.a.businessId, biz.a.users.employee)).toEqual({
      date_of_birth: '1990-04-14', known_traveler_number: 'TT1234567', loyalty_programs: [{ airline_code: 'UA', number: 'MP99887766' }],
    });
    // A save that leaves the sensitive fields out keeps them (the device never has them to send back).
    const renamed = await request(t.app, 'PUT', '/v1/auth/travel/profile', { token: stepped, body: { legal_first_name: 'Anna', legal_last_name: 'Ruiz' } });
    expect(renamed.body.profile).toMatchObject({ legal_first_name: 'Anna', known_traveler_number_last_four: '4567', loyalty_programs: [{ airline_code: 'UA', number_last_four: '7766' }] });
    expect(await travelerSecretOf(t.db, biz.a.businessId, biz.a.users.employee)).toEqual({
      date_of_birth: '1990-04-14', known_traveler_number: 'TT1234567', loyalty_programs: [{ airline_code: 'UA', number: 'MP99887766' }],
    });
    await request(t.app, 'PUT', '/v1/auth/travel/profile', { token: stepped, body: profile });
    // A ciphertext copied to another traveller's row does not open.
    await t.db.query(
      `INSERT INTO traveler_profiles (user_id, business_id, legal_first_name, legal_last_name, seat_preference, secret, masked)
       VALUES ($1, $2, 'X', 'Y', 'AISLE', $3, '{}')`,
      [biz.a.users.teammate, biz.a.businessId, row!.secret],
    );
    await expect(travelerSecretOf(t.db, biz.a.businessId, biz.a.users.teammate)).rejects.toThrow();
    expect((await request(t.app, 'GET', '/v1/auth/travel/profile', { token: tokens.employee })).body).toEqual({ profile: masked });
    expect((await request(t.app, 'GET', '/v1/auth/travel/profile', { token: tokens.manager })).body).toEqual({ profile: null });
    expect((await request(t.app, 'GET', '/v1/auth/travel/profile', { token: biz.bOwner })).body).toEqual({ profile: null });
    // A short loyalty number is never answered whole: at most what it hides is shown.
    const short = await request(t.app, 'PUT', '/v1/auth/travel/profile', {
      token: stepped, body: { ...profile, loyalty_programs: [{ airline_code: 'UA', number: 'AB12' }, { airline_code: 'DL', number: 'AB12345' }] },
    });
    expect(short.body.profile.loyalty_programs).toEqual([{ airline_code: 'UA', number_last_four: '' }, { airline_code: 'DL', number_last_four: '345' }]);
    const [stored] = await t.db.query<{ masked: unknown }>('SELECT masked FROM traveler_profiles WHERE user_id = $1', [biz.a.users.employee]);
    expect(JSON.stringify(stored!.masked)).not.toContain('AB12');
  });
});
