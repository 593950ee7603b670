import type { Queryable } from '../db/db.ts';

/**
 * Durable work rows taken by lease: mail deliveries, chat posts, async jobs (issue 32), and any
 * later job that must run once across several server processes (issue 33). Defined once here;
 * a queue is a table with these columns (plus its own payload):
 *
 *   id uuid PRIMARY KEY, state text NOT NULL ('queued' | 'done' | 'failed' | a queue's own
 *   terminal states), attempts int NOT NULL DEFAULT 0, run_after timestamptz NOT NULL,
 *   leased_until timestamptz, last_error text, finished_at timestamptz
 *
 * and an index on (run_after) WHERE state = 'queued'. A claim is its own short statement that
 * commits before the work starts (`db`, not a long transaction): other processes then see the
 * lease and skip the row (FOR UPDATE SKIP LOCKED), so two processes never take one row while its
 * lease lasts. Work that outlives its lease (a crashed process) is taken again once the lease
 * ends: at-least-once, so a queue whose work must happen once records what it did (a sent
 * mail's message id) before completing, and checks that record when it runs again.
 */
export interface LeasedQueue {
  /** The table name (a constant of ours, never input). */
  readonly table: string;
  /** How long a claim holds the row before another process may take it. */
  readonly leaseMs: number;
  /** Attempts before the row is given up as `failed`. */
  readonly maxAttempts: number;
  /** Delay before attempt n + 1 after attempt n (1-based) failed. */
  backoffMs(attempt: number): number;
}

export type LeasedRow = { id: string; attempts: number };

const TABLE_NAME = /^[a-z_][a-z0-9_]*$/;

function tableOf(q: LeasedQueue): string {
  if (!TABLE_NAME.test(q.table)) throw new Error(`leased-queue: bad table name ${q.table}`);
  return q.table;
}

/** Exponential backoff from `firstMs`, doubling per attempt, capped at `maxMs`. */
export function doublingBackoff(firstMs: number, maxMs: number): (attempt: number) => number {
  return (attempt) => Math.min(maxMs, firstMs * 2 ** Math.max(0, attempt - 1));
}

/**
 * Takes up to `limit` due rows (queued, run_after reached, no live lease), oldest first, and
 * leases them until now + leaseMs; `attempts` counts this claim. `where` narrows the claim
 * (SQL over the table's columns, parameters from $3 on, e.g. one job kind).
 */
export async function claimDue<T extends LeasedRow>(
  db: Queryable,
  q: LeasedQueue,
  now: Date,
  limit: number,
  where?: { sql: string; params: readonly unknown[] },
): Promise<T[]> {
  const table = tableOf(q);
  const extra = where ? ` AND (${where.sql})` : '';
  return db.query<T>(
    `UPDATE ${table} SET leased_until = $1::timestamptz + make_interval(secs => ${q.leaseMs / 1000}), attempts = attempts + 1
      WHERE id IN (
        SELECT id FROM ${table}
         WHERE state = 'queued' AND run_after <= $1 AND (leased_until IS NULL OR leased_until <= $1)${extra}
         ORDER BY run_after, id
         LIMIT $2
         FOR UPDATE SKIP LOCKED)
      RETURNING *`,
    [now.toISOString(), limit, ...(where?.params ?? [])],
  );
}

/**
 * Keeps a claimed row's lease alive for long work (a job reporting progress). False when the
 * lease was lost (it ended and another process took the row): the caller stops.
 */
export async function extendLease(db: Queryable, q: LeasedQueue, row: LeasedRow, now: Date): Promise<boolean> {
  const rows = await db.query(
    `UPDATE ${tableOf(q)} SET leased_until = $2::timestamptz + make_interval(secs => ${q.leaseMs / 1000})
      WHERE id = $1 AND state = 'queued' AND attempts = $3 RETURNING id`,
    [row.id, now.toISOString(), row.attempts],
  );
  return rows.length === 1;
}

/**
 * Marks a claimed row finished in `state` (default 'done'). Only the claim that holds it may
 * (same attempt count, still queued): false when the lease was lost meanwhile.
 */
export async function completeLeased(db: Queryable, q: LeasedQueue, row: LeasedRow, now: Date, state = 'done'): Promise<boolean> {
  const rows = await db.query(
    `UPDATE ${tableOf(q)} SET state = $3, leased_until = NULL, finished_at = $2, last_error = NULL
      WHERE id = $1 AND state = 'queued' AND attempts = $4 RETURNING id`,
    [row.id, now.toISOString(), state, row.attempts],
  );
  return rows.length === 1;
}

/**
 * Records a failed attempt: queued again after the backoff, or `failed` once maxAttempts are
 * spent (or at once when `final`, an error retrying cannot mend). Returns the new state, or null
 * when the lease was lost.
 */
export async function failLeased(
  db: Queryable,
  q: LeasedQueue,
  row: LeasedRow,
  now: Date,
  error: string,
  opts: { final?: boolean } = {},
): Promise<'queued' | 'failed' | null> {
  const giveUp = opts.final === true || row.attempts >= q.maxAttempts;
  const runAfter = new Date(now.getTime() + q.backoffMs(row.attempts)).toISOString();
  const rows = await db.query<{ state: 'queued' | 'failed' }>(
    `UPDATE ${tableOf(q)}
        SET state = CASE WHEN $3 THEN 'failed' ELSE 'queued' END,
            run_after = CASE WHEN $3 THEN run_after ELSE $4::timestamptz END,
            finished_at = CASE WHEN $3 THEN $5::timestamptz ELSE NULL END,
            leased_until = NULL, last_error = $6
      WHERE id = $1 AND state = 'queued' AND attempts = $2 RETURNING state`,
    [row.id, row.attempts, giveUp, runAfter, now.toISOString(), error.slice(0, 2000)],
  );
  return rows[0]?.state ?? null;
}

/** What one delivery did: a queue's `deliverOne` answer (null: the lease was lost, nothing to count). */
export type DrainOutcome = 'sent' | 'queued' | 'failed' | 'dropped' | null;
export type DrainTally = { sent: number; retried: number; failed: number; dropped: number };

/**
 * Claims due rows ten at a time and delivers each until none is left (mail, chat posts, pushes):
 * the one loop of the delivery jobs. `onFailed` hears a row given up for good.
 */
export async function drainDue<T extends LeasedRow>(
  db: Queryable, q: LeasedQueue, now: () => number,
  deliver: (row: T) => Promise<DrainOutcome>, onFailed: (row: T) => void,
): Promise<DrainTally> {
  const tally: DrainTally = { sent: 0, retried: 0, failed: 0, dropped: 0 };
  for (;;) {
    const rows = await claimDue<T>(db, q, new Date(now()), 10);
    if (rows.length === 0) return tally;
    for (const row of rows) {
      const outcome = await deliver(row);
      if (outcome === 'sent') tally.sent += 1;
      else if (outcome === 'queued') tally.retried += 1;
      else if (outcome === 'dropped') tally.dropped += 1;
      else if (outcome === 'failed') {
        tally.failed += 1;
        onFailed(row);
      }
    }
  }
}
