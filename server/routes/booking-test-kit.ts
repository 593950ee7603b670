import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/db.ts';
import type { Fixture, FixtureRole } from '../test-fixtures.ts';

/**
 * Test-only (issue 27, booking): trips written straight to the table (the trip calls are
 * h-trips' stream), and the searches' bodies.
 */
export const SEARCH_FLIGHTS = '/v1/auth/booking/flights/search';
export const SEARCH_HOTELS = '/v1/auth/booking/hotels/search';
export const REQUESTS = '/v1/auth/booking/requests';

/** A calendar day `days` after the instant `now` (UTC). */
export const dayAfter = (now: number, days: number) => new Date(now + days * 86_400_000).toISOString().slice(0, 10);

export async function insertTrip(
  db: Queryable, f: Fixture, role: FixtureRole, over: { name?: string; purpose?: string | null; canceled?: boolean } = {},
): Promise<string> {
  const id = randomUUID();
  const [seq] = await db.query<{ s: number }>('UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $1 RETURNING change_seq AS s', [f.businessId]);
  await db.query(
    `INSERT INTO trips (id, business_id, user_id, name, destination, destination_name, start_date, end_date, purpose, status, canceled_at, created_by, change_seq)
     VALUES ($1, $2, $3, $4, 'JFK', 'New York', '2026-12-20', '2026-12-24', $5, $6, $7, $3, $8)`,
    [id, f.businessId, f.users[role], over.name ?? 'Client visit', over.purpose === undefined ? 'Quarterly review' : over.purpose,
      over.canceled ? 'CANCELED' : 'PLANNED', over.canceled ? new Date().toISOString() : null, seq!.s],
  );
  return id;
}
