import { allocationIntervalStartSql } from '../../../schema/entities/spend-allocation.ts';
import { startPeriodicJob, type PeriodicJob, type PeriodicJobOptions } from '../../core/periodic-job.ts';
import type { Db, Queryable } from '../../db/db.ts';
import { writeMirrored } from '../collections.ts';

/**
 * Issue 28: a budget's `spent` and `left` count its interval's spend (schema/entities/spend-allocation.ts),
 * computed when the feed builds the doc. The feed sends a doc only when its row's change_seq
 * moves, so without this a mirror kept last month's "left" until something else re-stamped the
 * budget. The job re-stamps every live budget whose interval (day, week, month, year) began after
 * its last stamp (`updated_at`, which every stamp writes: the routes, migration 046's triggers and
 * this job), as of the job's clock: once per rollover, since the stamp moves `updated_at` into the
 * new interval. TOTAL budgets never roll over.
 *
 * Safe to run concurrently with itself, here or on another server: each business's budgets are
 * re-read and locked under the business's seq counter (writeMirrored), so a second run waits for
 * the first and then finds them stamped.
 */

/** The budgets of `r` whose interval began after their last stamp, as of `$1` (the job's moment). */
const ROLLED_OVER = `NOT r.deleted AND r.limit_interval <> 'TOTAL' AND r.updated_at < ${allocationIntervalStartSql('$1::timestamptz')}`;

export type RolloverRun = { restamped: number };

/** One business's rolled-over budgets, each with its own seq, in one transaction; answers how many. */
async function restampBusiness(tx: Queryable, businessId: string, at: string): Promise<number> {
  return writeMirrored(tx, businessId, 1, async ({ seqs, reserve }) => {
    const rows = await tx.query<{ id: string }>(
      `SELECT r.id::text FROM spend_allocations r WHERE r.business_id = $2 AND ${ROLLED_OVER} ORDER BY r.id FOR UPDATE`,
      [at, businessId],
    );
    // Another run stamped them since they were read: the one seq taken is a harmless gap.
    if (rows.length === 0) return 0;
    const stamps = [seqs.first];
    if (rows.length > 1) {
      const more = await reserve(rows.length - 1);
      for (let s = more.first; s <= more.last; s++) stamps.push(s);
    }
    await tx.query(
      `UPDATE spend_allocations r SET change_seq = x.seq, updated_at = $3
         FROM unnest($1::uuid[], $2::int8[]) AS x(id, seq) WHERE r.business_id = $4 AND r.id = x.id`,
      [rows.map((r) => r.id), stamps, at, businessId],
    );
    return rows.length;
  });
}

/** Re-stamps every business's rolled-over budgets as of `now`; answers how many. */
export async function restampRolledOverAllocations(db: Db, now: Date): Promise<RolloverRun> {
  const at = now.toISOString();
  const due = await db.query<{ business_id: string }>(
    `SELECT DISTINCT r.business_id::text FROM spend_allocations r WHERE ${ROLLED_OVER} ORDER BY 1`, [at],
  );
  let restamped = 0;
  for (const { business_id } of due) restamped += await db.transaction((tx) => restampBusiness(tx, business_id, at));
  return { restamped };
}

/** The job in a server process (main.ts): at start and every `everyMs`; one run at a time per process. */
export const startAllocationRolloverJob = (db: Db, opts: PeriodicJobOptions): PeriodicJob =>
  startPeriodicJob((now) => restampRolledOverAllocations(db, now), opts);
