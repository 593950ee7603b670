/**
 * Travel rewards are earned once (issue 27): concurrent approvals of one booking, and concurrent
 * requests for one in-policy offer, through two API processes sharing one PostgreSQL, leave one
 * reward for the booking (the approval and business locks, the unique index
 * `travel_rewards_one_per_booking` behind them).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_TRAVEL_POLICY, DEFAULT_TRAVEL_SETTINGS } from '../../schema/travel-policy.ts';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { request, signIn } from '../test-fixtures.ts';
import { dayAfter, insertTrip, REQUESTS, SEARCH_FLIGHTS } from './booking-test-kit.ts';

const RACERS = 8;

describe.skipIf(!(await pgAvailable()))('travel reward races on PostgreSQL', () => {
  it('earns one reward however many approvals and booking requests race', async () => {
    await withPgBusiness({}, async ({ dbA, appA, appB, f, admin }) => {
      const employee = await signIn(appA, f.email('employee'));
      const manager = await signIn(appB, f.email('manager'));
      const setPolicy = (over: Record<string, unknown>) => dbA.query(
        `INSERT INTO travel_policies (business_id, policy) VALUES ($1, $2::jsonb) ON CONFLICT (business_id) DO UPDATE SET policy = EXCLUDED.policy`,
        [f.businessId, JSON.stringify({ ...DEFAULT_TRAVEL_POLICY, ...over })]);
      await dbA.query('INSERT INTO travel_settings (business_id, settings) VALUES ($1, $2::jsonb)',
        [f.businessId, JSON.stringify({ ...DEFAULT_TRAVEL_SETTINGS, rewards: { enabled: true, share_percent: 50 } })]);
      await setPolicy({});
      const offers = async (cabin: string) => {
        const res = await request(appA, 'POST', SEARCH_FLIGHTS, {
          token: employee, body: { origin: 'BOS', destination: 'ORD', depart_date: dayAfter(Date.now(), 30), cabin },
        });
        expect(res.status, res.text).toBe(200);
        return res.body.data as { offer_id: string; in_policy: boolean; price: { amount: number } }[];
      };
      const rewardsOf = (trip: string) => dbA.query<{ booking_id: string; status: string }>(
        'SELECT booking_id::text, status FROM travel_rewards WHERE trip_id = $1', [trip]);

      // Racing approvals of one pending booking that today's (widened) policy takes in.
      const approvalTrip = await insertTrip(dbA, f, 'employee', { name: 'Approval race' });
      const business = (await offers('BUSINESS')).find((o) => o.price.amount < 600_000)!;
      const pending = await request(appA, 'POST', REQUESTS, { token: employee, body: { trip_id: approvalTrip, offer_id: business.offer_id } });
      expect(pending.body.status, pending.text).toBe('PENDING_APPROVAL');
      await setPolicy({ cabin_by_duration: [{ min_duration_minutes: 0, max_cabin: 'BUSINESS' }] });
      const approvals = await Promise.all(Array.from({ length: RACERS }, (_, i) =>
        request(i % 2 === 0 ? appA : appB, 'POST', `/v1/auth/approvals/${pending.body.approval_id}/approve`, { token: i % 3 === 0 ? admin : manager })));
      expect(approvals.filter((r) => r.status === 200).length, approvals.map((r) => r.text).join('\n')).toBeGreaterThanOrEqual(1);
      expect(await rewardsOf(approvalTrip)).toEqual([{ booking_id: pending.body.id, status: 'EARNED' }]);

      // Racing requests for one in-policy offer: one booking, one reward.
      await setPolicy({});
      const bookingTrip = await insertTrip(dbA, f, 'employee', { name: 'Booking race' });
      const economy = (await offers('ECONOMY')).find((o) => o.in_policy && o.price.amount < 80_000)!;
      const booked = await Promise.all(Array.from({ length: RACERS }, (_, i) =>
        request(i % 2 === 0 ? appA : appB, 'POST', REQUESTS, { token: i % 3 === 0 ? admin : employee, body: { trip_id: bookingTrip, offer_id: economy.offer_id } })));
      for (const r of booked) expect(r.status, r.text).toBe(200);
      const ids = new Set(booked.map((r) => r.body.id));
      expect(ids.size).toBe(1);
      expect(new Set(booked.map((r) => r.body.reward?.id)).size).toBe(1);
      expect(await rewardsOf(bookingTrip)).toEqual([{ booking_id: [...ids][0], status: 'EARNED' }]);
    });
  });
});
