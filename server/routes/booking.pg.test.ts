/**
 * Money moves once (issue 27): concurrent booking requests for one offer on one trip, through
 * two API processes sharing one PostgreSQL (each with its own pool), make exactly one booking and
 * one charge — with no Idempotency-Key (the business lock and the live-offer check, the unique
 * index `travel_bookings_live_offer_once` behind them), with one shared key, and mixed.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { migrate } from '../db/migrate.ts';
import { twoProcessesOnOnePg } from '../test-app.ts';
import { pgAvailable } from '../testing.ts';
import { makeBusiness, request, signIn } from '../test-fixtures.ts';
import { dayAfter, insertTrip, REQUESTS, SEARCH_FLIGHTS } from './booking-test-kit.ts';

const RACERS = 10;

describe.skipIf(!(await pgAvailable()))('booking races on PostgreSQL', () => {
  it('books and charges exactly once however 10 concurrent requests arrive', async () => {
    const procs = await twoProcessesOnOnePg();
    const { dbA, appA, appB } = procs;
    try {
      await migrate(dbA);
      const f = await makeBusiness(dbA, { transactions: 0 });
      const employee = await signIn(appA, f.email('employee'));
      const admin = await signIn(appB, f.email('admin'));
      // One offer is booked on one trip at most (TRAVEL_7024): each race books its own.
      const inPolicyOffer = async (): Promise<string> => {
        const search = await request(appA, 'POST', SEARCH_FLIGHTS, {
          token: employee, body: { origin: 'BOS', destination: 'ORD', depart_date: dayAfter(Date.now(), 30), cabin: 'ECONOMY' },
        });
        expect(search.status, search.text).toBe(200);
        return search.body.data.find((o: { in_policy: boolean }) => o.in_policy).offer_id;
      };
      const counts = async (trip: string) => {
        const [row] = await dbA.query<{ bookings: number; charges: number; cards: number }>(
          `SELECT (SELECT count(*) FROM travel_bookings WHERE trip_id = $1) AS bookings,
                  (SELECT count(*) FROM trip_spend_events WHERE trip_id = $1) AS charges,
                  (SELECT count(*) FROM cards WHERE display_name = 'Trip: ' || (SELECT name FROM trips WHERE id = $1)) AS cards`,
          [trip],
        );
        return { bookings: Number(row!.bookings), charges: Number(row!.charges), cards: Number(row!.cards) };
      };
      const race = async (trip: string, key: (i: number) => string | undefined) => {
        const offerId = await inPolicyOffer();
        return Promise.all(Array.from({ length: RACERS }, (_, i) => {
          const k = key(i);
          return request(i % 2 === 0 ? appA : appB, 'POST', REQUESTS, {
            token: i % 3 === 0 ? admin : employee, body: { trip_id: trip, offer_id: offerId }, headers: k ? { 'Idempotency-Key': k } : {},
          });
        }));
      };

      // No key: every answer is the one booking (the second device gets the existing booking, 200).
      const plain = await insertTrip(dbA, f, 'employee', { name: `Race ${randomUUID().slice(0, 6)}` });
      const r1 = await race(plain, () => undefined);
      for (const r of r1) expect(r.status, r.text).toBe(200);
      expect(new Set(r1.map((r) => r.body.id)).size).toBe(1);
      expect(await counts(plain)).toEqual({ bookings: 1, charges: 1, cards: 1 });

      // One key for all (per identity: the admin's and the employee's keys are distinct scopes).
      const keyed = await insertTrip(dbA, f, 'employee', { name: `Race ${randomUUID().slice(0, 6)}` });
      const key = randomUUID();
      const r2 = await race(keyed, () => key);
      for (const r of r2) expect([200, 409]).toContain(r.status);
      expect(new Set(r2.filter((r) => r.status === 200).map((r) => r.body.id)).size).toBe(1);
      expect(await counts(keyed)).toEqual({ bookings: 1, charges: 1, cards: 1 });
      const [keyedOffer] = await dbA.query<{ offer_id: string }>('SELECT offer_id::text FROM travel_bookings WHERE trip_id = $1', [keyed]);
      const retry = await request(appA, 'POST', REQUESTS, { token: employee, body: { trip_id: keyed, offer_id: keyedOffer!.offer_id }, headers: { 'Idempotency-Key': key } });
      expect(retry.status).toBe(200);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(await counts(keyed)).toEqual({ bookings: 1, charges: 1, cards: 1 });

      // Mixed: half with one key, half without.
      const mixed = await insertTrip(dbA, f, 'employee', { name: `Race ${randomUUID().slice(0, 6)}` });
      const r3 = await race(mixed, (i) => (i % 2 === 0 ? `${key}-m` : undefined));
      expect(new Set(r3.filter((r) => r.status === 200).map((r) => r.body.id)).size).toBe(1);
      expect(await counts(mixed)).toEqual({ bookings: 1, charges: 1, cards: 1 });
      const [trip] = await dbA.query<{ status: string; card_id: string | null }>('SELECT status, card_id::text FROM trips WHERE id = $1', [mixed]);
      expect(trip!.status).toBe('BOOKED');
      expect(trip!.card_id).not.toBeNull();
    } finally {
      await procs.close();
    }
  });
});
