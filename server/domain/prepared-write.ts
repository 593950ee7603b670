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
 * Under 30 clients a coding PATCH held it for 8 statements, ≈ 86 ms at load 13, with every other
 * writer (and, through the pool, the reads) queued behind (docs/performance.md "second step").
 *
 * `writePrepared` splits a write in two:
 * - `prepare` runs first, without the lock: the reads, validation and evaluation the write needs.
 *   It writes nothing and locks no row (no FOR UPDATE: a row lock taken before the business lock
 *   would invert the lock order every writer follows, business row first). It names the mirrored
 *   rows its answer depends on (`reads`);
 * - `write` runs under the lock (seqs reserved), with what `prepare` answered: the row writes.
 * Between the two, another writer may have committed. The business's high water is read before
 * `prepare`, so any write `prepare` could have missed has a seq above it; once the lock is held,
 * when the reservation does not follow that high water directly, a row of `reads` with a seq above
 * it makes `prepare` run again, now under the lock, where no mirrored row can change (every writer
 * of one holds this lock). That question is the write's own first statement's condition
 * (`unchanged`, for a `guarded` write: nothing more under the lock) or one statement of its own.
 * So `write` always acts on what is current at its seq, as if `prepare` had run under the lock;
 * the feed's guarantee (a reader
 * that sees high water H knows every row ≤ H is committed) is untouched: the lock is still held
 * from the reservation to commit, and every row write is inside it.
 *
 * What `reads` cannot name (rows that are not mirrored, e.g. the enabled workflows) is read before
 * the lock as of that moment: a change committed in between applies from the next write on, as if
 * it had been committed just after this one.
 */
export type ReadDependency = { collection: MirroredCollection; ids: readonly string[] };

export type Prepared<P> = { value: P; reads: readonly ReadDependency[] };

/** A `write`'s answer when its guarded statement matched nothing: `prepare` runs again under the lock. */
export const STALE = Symbol('stale');

export interface PreparedMirroredWrite extends MirroredWrite {
  /**
   * An SQL condition (its parameters appended to `params`): true when no row of `reads` was
   * written since `prepare` read it. A `guarded` write puts it in its first statement's WHERE and
   * answers STALE when that statement matched nothing; it is `true` when nothing can have changed.
   */
  unchanged: (params: unknown[]) => string;
}

export interface PreparedWrite<P, T> {
  /** Reads, validation, evaluation: no writes, no row locks. Throws to refuse (nothing is locked yet). */
  prepare: () => Promise<Prepared<P>>;
  /** The row writes, with the reserved seqs, under the business row's lock. */
  write: (prepared: P, w: PreparedMirroredWrite) => Promise<T | typeof STALE>;
  /**
   * The write's first statement carries `unchanged` (one statement fewer under the lock);
   * otherwise writePrepared asks `changedSince` itself before calling `write`.
   */
  guarded?: boolean;
}

const ALWAYS = () => 'true';

/** Runs `prepare` outside the business lock and `write` inside it (see above); `rows` seqs are reserved. */
export async function writePrepared<P, T>(tx: Queryable, businessId: string, rows: number, run: PreparedWrite<P, T>): Promise<T> {
  const since = await highWater(tx, businessId);
  let prepared = await run.prepare();
  return writeMirrored(tx, businessId, rows, async (w) => {
    // The reservation right after `since`: no write committed in between, nothing to check.
    const moved = w.seqs.first - 1 !== since;
    if (moved && !run.guarded && (await changedSince(tx, businessId, prepared.reads, since))) prepared = await run.prepare();
    const guard = moved && run.guarded ? (params: unknown[]) => unchangedSql(businessId, prepared.reads, since, params) : ALWAYS;
    const out = await run.write(prepared.value, { ...w, unchanged: guard });
    if (out !== STALE) return out;
    // Under the lock no mirrored row can change any more: this preparation is current.
    prepared = await run.prepare();
    const again = await run.write(prepared.value, { ...w, unchanged: ALWAYS });
    if (again === STALE) throw new Error('a prepared write matched nothing under the lock with nothing left to change');
    return again;
  });
}

/** "No row of `reads` has a seq above `since`" as SQL, its parameters appended to `params`. */
function unchangedSql(businessId: string, reads: readonly ReadDependency[], since: number, params: unknown[]): string {
  const named = reads.filter((r) => r.ids.length > 0);
  if (named.length === 0) return 'true';
  params.push(businessId, since);
  const [business, seq] = [params.length - 1, params.length];
  const probes = named.map((r) => {
    params.push(r.ids);
    return `EXISTS (SELECT 1 FROM ${COLLECTIONS[r.collection].table} WHERE business_id = $${business} AND id = ANY($${params.length}::uuid[]) AND change_seq > $${seq})`;
  });
  return `NOT (${probes.join(' OR ')})`;
}

/** Whether any row of `reads` was written after seq `since` (one statement; none for no reads). */
export async function changedSince(tx: Queryable, businessId: string, reads: readonly ReadDependency[], since: number): Promise<boolean> {
  const params: unknown[] = [];
  const unchanged = unchangedSql(businessId, reads, since, params);
  if (unchanged === 'true') return false;
  const [row] = await tx.query<{ unchanged: boolean }>(`SELECT ${unchanged} AS unchanged`, params);
  return row?.unchanged !== true;
}
