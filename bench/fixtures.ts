/**
 * The benchmark's untimed setup and checks on the server's database: the bench's card fleet, and
 * the rows the admin's mirror must hold.
 */
import { randomUUID } from 'node:crypto';
import { issueCard } from '../schema/api/calls-cards.ts';
import { shownUserSql } from '../server/domain/hidden-users.ts';
import type { startTestServer } from '../server/testing.ts';
import type { ApiClient } from '../tests/support/api.ts';
import type { CountedCollection } from './app-probe.ts';

export type Db = Awaited<ReturnType<typeof startTestServer>>['db'];

/** Cards the bench issues besides the seed's, so the bulk lock has 1,000 to lock (the issue's figure). */
export const BENCH_CARDS = 1000;

/** Issues `n` virtual cards spread over the business's people (hidden firm and vendor users hold no cards), four calls at a time; their ids. */
export async function issueFleet(api: ApiClient, db: Db, businessId: string, n: number): Promise<string[]> {
  const people = await db.query<{ id: string }>(
    `SELECT id::text FROM spend_users WHERE business_id = $1 AND NOT deleted AND status = 'ACTIVE' AND ${shownUserSql()} ORDER BY id`,
    [businessId],
  );
  if (people.length === 0) throw new Error('no one to issue cards to');
  const ids: string[] = [];
  for (let i = 0; i < n; i += 4) {
    const batch = Array.from({ length: Math.min(4, n - i) }, (_, j) => i + j);
    const issued = await Promise.all(batch.map((k) => api.call(issueCard, {
      body: {
        id: randomUUID(), user_id: people[k % people.length]!.id, display_name: `Bench fleet ${String(k + 1).padStart(4, '0')}`,
        limit: { amount: 250_000, currency: 'USD', interval: 'MONTHLY' },
      },
    })));
    ids.push(...issued.map((c) => c.id));
  }
  return ids;
}

/** The rows the admin's mirror must hold per counted collection (the admin sees all of them). */
export async function countVisible(db: Db, businessId: string): Promise<Record<CountedCollection, number>> {
  const n = async (table: string) =>
    Number((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE business_id = $1 AND NOT deleted`, [businessId]))[0]?.n ?? 0);
  return {
    transactions: await n('transactions'), reimbursements: await n('reimbursements'), approvals: await n('approvals'), cards: await n('cards'),
    bills: await n('bills'),
  };
}

export async function countReceipts(db: Db, businessId: string): Promise<{ n: number; bytes: number }> {
  const [row] = await db.query<{ n: number; bytes: number }>(
    'SELECT count(*)::int AS n, coalesce(sum(size), 0)::bigint AS bytes FROM receipts WHERE business_id = $1 AND NOT deleted',
    [businessId],
  );
  return { n: Number(row?.n ?? 0), bytes: Number(row?.bytes ?? 0) };
}

/** The seeded trips (issue 27: the demo's two and one per 200 transactions) and the spend linked to them. */
export async function countTrips(db: Db, businessId: string): Promise<{ trips: number; links: number }> {
  const [row] = await db.query<{ trips: number; links: number }>(
    `SELECT (SELECT count(*)::int FROM trips WHERE business_id = $1 AND NOT deleted) AS trips,
            (SELECT count(*)::int FROM trip_spend_events WHERE business_id = $1) AS links`,
    [businessId],
  );
  return { trips: Number(row?.trips ?? 0), links: Number(row?.links ?? 0) };
}
