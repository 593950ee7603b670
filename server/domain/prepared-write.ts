import type { MirroredCollection } from '../../schema/collections.ts';
import { highWater } from '../db/change-seq.ts';
import type { Queryable } from '../db/db.ts';
import { COLLECTIONS, writeMirrored, type MirroredWrite } from './collections.ts';

/**
 * Issue 33: writes whose serialised part is only their row writes.
 *
 * `writeMirrored` reserves seqs first, and the reservation holds the business row's lock to
 * commit, so every statement after it (reading the row, checking the references, evaluating the
 * command, composing the answer) ran with every other writer of the business queued behind it.
 * Under 30 clients a coding PATCH held that lock for all of its statements and the process's
 * event-loop waits between them (docs/performance.md "second step").
 *
 * `writePrepared` splits a write in two:
 * - `prepare` runs first, without the lock: the reads, validation and evaluation the write needs.
 *   It writes nothing and locks no row (no FOR UPDATE: a row lock taken before the business lock
 *   would invert the lock order every writer follows, business row first). It names the mirrored
 *   rows its answer depends on (`reads`);
 * - `write` runs under the lock (seqs reserved), with what `prepare` answered: the row writes.
 * Between the two, another writer may have committed. The business's high water is read before
 * `prepare`, so any write `prepare` could have missed has a seq above it; once the lock is held,
 * when the reservation does not follow that high water directly, one statement asks whether a row
 * of `reads` has a seq above it, and if so `prepare` runs again, now under the lock, where no
 * mirrored row can change (every writer of one holds this lock). So `write` always acts on what
 * is current at its seq, as if `prepare` had run under the lock; the feed's guarantee (a reader
 * that sees high water H knows every row ≤ H is committed) is untouched: the lock is still held
 * from the reservation to commit, and every row write is inside it.
 *
 * What `reads` cannot name (rows that are not mirrored, e.g. the enabled workflows) is read before
 * the lock as of that moment: a change committed in between applies from the next write on, as if
 * it had been committed just after this one.
 */
export type ReadDependency = { collection: MirroredCollection; ids: readonly string[] };

export type Prepared<P> = { value: P; reads: readonly ReadDependency[] };

export interface PreparedWrite<P, T> {
  /** Reads, validation, evaluation: no writes, no row locks. Throws to refuse (nothing is locked yet). */
  prepare: () => Promise<Prepared<P>>;
  /** The row writes, with the reserved seqs, under the business row's lock. */
  write: (prepared: P, w: MirroredWrite) => Promise<T>;
}

/** Runs `prepare` outside the business lock and `write` inside it (see above); `rows` seqs are reserved. */
export async function writePrepared<P, T>(tx: Queryable, businessId: string, rows: number, run: PreparedWrite<P, T>): Promise<T> {
  const since = await highWater(tx, businessId);
  let prepared = await run.prepare();
  return writeMirrored(tx, businessId, rows, async (w) => {
    if (w.seqs.first - 1 !== since && (await changedSince(tx, businessId, prepared.reads, since))) {
      prepared = await run.prepare();
    }
    return run.write(prepared.value, w);
  });
}

/** Whether any row of `reads` was written after seq `since` (one statement; false for none). */
export async function changedSince(tx: Queryable, businessId: string, reads: readonly ReadDependency[], since: number): Promise<boolean> {
  const params: unknown[] = [businessId, since];
  const probes = reads
    .filter((r) => r.ids.length > 0)
    .map((r) => {
      params.push(r.ids);
      return `EXISTS (SELECT 1 FROM ${COLLECTIONS[r.collection].table} WHERE business_id = $1 AND id = ANY($${params.length}::uuid[]) AND change_seq > $2)`;
    });
  if (probes.length === 0) return false;
  const [row] = await tx.query<{ changed: boolean }>(`SELECT ${probes.join(' OR ')} AS changed`, params);
  return row?.changed === true;
}
