import type { Queryable } from '../db/db.ts';
import { AIRPORTS } from '../../schema/travel/airports.ts';
import { Rng } from './prng.ts';
import type { DemoData } from './types.ts';

/**
 * The demo employee's trips (issue 27): a past one around their latest cleared card charge older
 * than a week, with the charges of those days and one of their claims linked (so the trip page
 * shows spend and a total), and an upcoming one with nothing booked yet. Ids follow from the seed;
 * the trips take the seqs after `afterSeq`. Nothing when the employee has no such charge.
 */
const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export async function insertDemoTrips(tx: Queryable, data: DemoData, now: Date, seed: number, afterSeq: number): Promise<number> {
  const employee = data.accounts.find((a) => a.email.startsWith('employee@'));
  if (!employee) return afterSeq;
  const businessId = data.business.id;
  const [anchor] = await tx.query<{ day: string }>(
    `SELECT to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day FROM transactions
      WHERE business_id = $1 AND user_id = $2 AND state = 'CLEARED' AND amount > 0 AND fraud_status IS NULL AND occurred_at < $3
      ORDER BY occurred_at DESC, id LIMIT 1`,
    [businessId, employee.user_id, new Date(now.getTime() - 7 * DAY).toISOString()],
  );
  if (!anchor) return afterSeq;
  const rng = new Rng(seed, `${businessId}\u0000trips`);
  const mid = Date.parse(`${anchor.day}T00:00:00Z`);
  const trips = [
    { id: rng.uuid(), name: 'Customer workshop in New York', destination: 'JFK', start: isoDay(mid - DAY), end: isoDay(mid + DAY),
      purpose: 'Quarterly workshop with the customer success team.', created: new Date(mid - 14 * DAY).toISOString() },
    { id: rng.uuid(), name: 'Partner summit in London', destination: 'LHR', start: isoDay(now.getTime() + 12 * DAY), end: isoDay(now.getTime() + 15 * DAY),
      purpose: 'Annual partner summit.', created: new Date(now.getTime() - DAY).toISOString() },
  ];
  let seq = afterSeq;
  for (const t of trips) {
    await tx.query(
      `INSERT INTO trips (id, business_id, user_id, created_by, name, destination, destination_name, start_date, end_date, purpose, status,
                          created_at, updated_at, change_seq)
       VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $8, $9, 'PLANNED', $10, $10, $11)`,
      [t.id, businessId, employee.user_id, t.name, t.destination, AIRPORTS[t.destination]!.city, t.start, t.end, t.purpose, t.created, ++seq],
    );
  }
  const past = trips[0]!;
  await tx.query(
    `INSERT INTO trip_spend_events (business_id, trip_id, object_type, object_id, linked_by, linked_at)
     SELECT $1::uuid, $2::uuid, 'transaction', id, $3::uuid, $6::timestamptz FROM transactions
      WHERE business_id = $1::uuid AND user_id = $3::uuid AND state = 'CLEARED' AND fraud_status IS NULL AND NOT deleted
        AND occurred_at >= $4::date AND occurred_at < $5::date + 1
     UNION ALL
     SELECT $1::uuid, $2::uuid, 'reimbursement', id, $3::uuid, $6::timestamptz FROM (
       SELECT id FROM reimbursements WHERE business_id = $1 AND user_id = $3 AND status IN ('APPROVED', 'PAID') AND NOT deleted
        ORDER BY transaction_date DESC, id LIMIT 1) c`,
    [businessId, past.id, employee.user_id, past.start, past.end, new Date(mid + 2 * DAY).toISOString()],
  );
  return seq;
}
