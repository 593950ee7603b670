import { createHash } from 'node:crypto';
import type { Db, Queryable } from '../db/db.ts';

/**
 * Idempotency-Key store. A key belongs to a scope (identity + business) and remembers a hash of
 * the request it first came with and the exact answer it got.
 *
 * The whole protocol runs inside the write's own database transaction:
 * - a transaction-scoped advisory lock on (scope, key) says "this key is being worked on". It is
 *   released by commit, by rollback, and by PostgreSQL itself when the holder's connection drops
 *   (its process died), so a retry after a crash is never refused for a lease period: it runs at
 *   once. A duplicate arriving while the holder is alive gets `in_flight` (409 IDEMPOTENCY_7010,
 *   which clients retry with the same key);
 * - the answer is stored in the same transaction as the write, so a crash can never commit the
 *   write without the answer, or the answer without the write;
 * - a final refusal (a 4xx that changed nothing) is stored too, after rolling back to a savepoint
 *   taken before the handler, so the refusal and nothing else commits under the key.
 * The `state` and `locked_at` columns of migration 001 are from the earlier lease design: every
 * row written now is 'done'.
 */
/** Outboxes may hold a command for days offline; keys must outlive that. */
const KEY_RETENTION_DAYS = 30;
export const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export type KeyRef = { scope: string; key: string; hash: string };
export type StoredAnswer = { status: number; text: string };

export type KeyOutcome =
  | { kind: 'ran'; answer: StoredAnswer }
  | { kind: 'refused'; error: unknown }
  | { kind: 'replay'; answer: StoredAnswer }
  | { kind: 'mismatch' }
  | { kind: 'in_flight' };

export type KeyedRun = {
  /** Runs the request's work on the transaction; returns the answer to store and send. */
  run(tx: Queryable): Promise<StoredAnswer>;
  /** The answer to store for an error the work threw, when that refusal is final; null otherwise. */
  finalRefusal(err: unknown): StoredAnswer | null;
  /**
   * Whether an answer the work returned is stored against the key. A returned "not now" (a 429
   * that had to commit what it recorded) keeps its writes but leaves the key free, so the same
   * key runs again once the limit lifts. Default: every returned answer is stored.
   */
  keep?(answer: StoredAnswer): boolean;
};

export function requestHash(method: string, path: string, body: string): string {
  return createHash('sha256').update(`${method}\n${path}\n${body}`).digest('hex');
}

const SAVEPOINT = 'idempotent_work';

/** Runs `work` at most once per (scope, key): see the header for the protocol. */
export async function runWithKey(db: Db, ref: KeyRef, work: KeyedRun): Promise<KeyOutcome> {
  return db.transaction(async (tx): Promise<KeyOutcome> => {
    const [lock] = await tx.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked',
      [`idempotency\n${ref.scope}\n${ref.key}`],
    );
    if (!lock?.locked) return { kind: 'in_flight' };
    // Read after taking the lock: READ COMMITTED gives this statement a fresh snapshot, so an
    // answer committed by the previous holder is seen here.
    const [row] = await tx.query<{ request_hash: string; status: number; response_body: string }>(
      'SELECT request_hash, status, response_body FROM idempotency_keys WHERE scope = $1 AND key = $2',
      [ref.scope, ref.key],
    );
    if (row) {
      if (row.request_hash !== ref.hash) return { kind: 'mismatch' };
      return { kind: 'replay', answer: { status: row.status, text: row.response_body } };
    }
    await tx.query(`SAVEPOINT ${SAVEPOINT}`);
    try {
      const answer = await work.run(tx);
      if (work.keep?.(answer) ?? true) await storeAnswer(tx, ref, answer);
      return { kind: 'ran', answer };
    } catch (err) {
      const refusal = work.finalRefusal(err);
      // Not final (a crash, or "not now": throttled, busy): nothing is stored and the whole
      // transaction rolls back, so the same key may run again later.
      if (!refusal) throw err;
      await tx.query(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}`);
      await storeAnswer(tx, ref, refusal);
      return { kind: 'refused', error: err };
    }
  });
}

async function storeAnswer(tx: Queryable, ref: KeyRef, answer: StoredAnswer): Promise<void> {
  await tx.query(
    `INSERT INTO idempotency_keys (scope, key, request_hash, state, status, response_body)
     VALUES ($1, $2, $3, 'done', $4, $5)`,
    [ref.scope, ref.key, ref.hash, answer.status, answer.text],
  );
}

export async function pruneKeys(db: Queryable, retentionDays = KEY_RETENTION_DAYS): Promise<number> {
  const rows = await db.query(
    'DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(days => $1) RETURNING 1',
    [retentionDays],
  );
  return rows.length;
}
