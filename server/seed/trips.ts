import type { Queryable } from '../db/db.ts';
import { AIRPORTS } from '../../schema/travel/airports.ts';
import { bulkInsert, cols } from './bulk-insert.ts';
import { Rng } from './prng.ts';
import type { TimelineItem } from './reimbursements.ts';
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

/** One generated trip per this many seeded transactions (issue 27's benchmark: 500 at 100k). */
export const TRANSACTIONS_PER_TRIP = 200;
const PURPOSES = ['Customer visit', 'Sales kickoff', 'Conference', 'Site inspection', 'Partner meeting', 'Team offsite'] as const;
const DESTINATIONS = Object.keys(AIRPORTS).sort();

type TripRow = {
  id: string; business_id: string; user_id: string; created_by: string; name: string; destination: string; destination_name: string;
  start_date: string; end_date: string; purpose: string; status: 'PLANNED'; created_at: string; change_seq: number; updated_at: string; deleted: boolean;
};

/**
 * Trips at scale (issue 27's benchmark): one per TRANSACTIONS_PER_TRIP transactions, each around a
 * cleared card charge older than a week drawn by the seed's rng (its cardholder travels from the day before to a few days
 * after), every tenth one upcoming instead. No seqs yet (0): `tripTimeline` stamps them into the
 * claims' walk through the timeline (seed/reimbursements.ts), by when each trip was last written,
 * as the live API would have; stacked after every other row, the 500 trips of 100k filled the
 * first mirror's first backfill page (with the bench's 1,000 cards), so no transaction came before
 * the second page.
 */
export function generateTrips(data: DemoData, now: Date, seed: number): TripRow[] {
  const count = Math.floor(data.transactions.length / TRANSACTIONS_PER_TRIP);
  const rng = new Rng(seed, `${data.business.id}\u0000generated-trips`);
  const weekAgo = new Date(now.getTime() - 7 * DAY).toISOString();
  const charges = data.transactions.filter((t) => t.state === 'CLEARED' && t.occurred_at < weekAgo);
  const rows: TripRow[] = [];
  for (let i = 0; i < count && charges.length > 0; i++) {
    const anchor = charges[rng.int(0, charges.length - 1)]!;
    const destination = rng.pick(DESTINATIONS);
    const purpose = rng.pick(PURPOSES);
    const upcoming = i % 10 === 9;
    const start = upcoming ? now.getTime() + rng.int(3, 60) * DAY : Date.parse(anchor.occurred_at) - DAY;
    const end = start + rng.int(1, 4) * DAY;
    const created = new Date(Math.min(start - rng.int(3, 30) * DAY, now.getTime() - DAY)).toISOString();
    const city = AIRPORTS[destination]!.city;
    rows.push({
      id: rng.uuid(), business_id: data.business.id, user_id: anchor.user_id, created_by: anchor.user_id, name: `${purpose} in ${city}`,
      destination, destination_name: city, start_date: isoDay(start), end_date: isoDay(end), purpose: `${purpose}.`, status: 'PLANNED',
      created_at: created, change_seq: 0, updated_at: created, deleted: false,
    });
  }
  return rows;
}

/** The generated trips as timeline items, in updated_at order: `stamp` hands out the trip's seq. */
export function tripTimeline(trips: readonly TripRow[]): TimelineItem[] {
  return [...trips]
    .sort((a, b) => (a.updated_at < b.updated_at ? -1 : a.updated_at > b.updated_at ? 1 : 0))
    .map((trip) => ({ updated_at: trip.updated_at, stamp: (next: () => number) => void (trip.change_seq = next()) }));
}

/**
 * Inserts the generated trips and links each one's spend: its traveller's cleared charges and
 * approved or paid claims dated within it (a charge or claim another trip holds stays there).
 */
export async function insertGeneratedTrips(tx: Queryable, trips: readonly TripRow[]): Promise<void> {
  if (trips.length === 0) return;
  await bulkInsert(tx, 'trips', cols(
    'id:uuid', 'business_id:uuid', 'user_id:uuid', 'created_by:uuid', 'name:text', 'destination:text', 'destination_name:text',
    'start_date:date', 'end_date:date', 'purpose:text', 'status:text', 'created_at:timestamptz', 'change_seq:bigint', 'updated_at:timestamptz',
    'deleted:boolean',
  ), trips);
  await tx.query(
    `INSERT INTO trip_spend_events (business_id, trip_id, object_type, object_id, linked_by, linked_at)
     SELECT t.business_id, t.id, 'transaction', x.id, t.user_id, t.end_date + interval '1 day' FROM trips t
       JOIN transactions x ON x.business_id = t.business_id AND x.user_id = t.user_id
        AND x.occurred_at >= t.start_date AND x.occurred_at < t.end_date + 1
      WHERE t.id = ANY($1::uuid[]) AND x.state = 'CLEARED' AND x.fraud_status IS NULL AND NOT x.deleted
     UNION ALL
     SELECT t.business_id, t.id, 'reimbursement', r.id, t.user_id, t.end_date + interval '1 day' FROM trips t
       JOIN reimbursements r ON r.business_id = t.business_id AND r.user_id = t.user_id
        AND r.transaction_date BETWEEN t.start_date AND t.end_date
      WHERE t.id = ANY($1::uuid[]) AND r.status IN ('APPROVED', 'PAID') AND NOT r.deleted
     ON CONFLICT DO NOTHING`,
    [trips.map((t) => t.id)],
  );
}
