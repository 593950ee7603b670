import { createHash } from 'node:crypto';
import type { Queryable } from '../db/db.ts';

/**
 * Idempotency-Key store. A key belongs to a scope (identity + business) and remembers a hash of
 * the request it first came with. Lifecycle: claimed 'in_flight' in its own statement, then
 * marked 'done' with the exact answer *inside the write's transaction*, so a crash can never
 * commit the write without the answer (or the answer without the write). An in-flight claim
 * whose process died is taken over after IN_FLIGHT_LEASE_SECONDS.
 */
export const IN_FLIGHT_LEASE_SECONDS = 60;
/** Outboxes may hold a command for days offline; keys must outlive that. */
export const KEY_RETENTION_DAYS = 30;
export const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'mismatch' }
  | { kind: 'in_flight' };

export function requestHash(method: string, path: string, body: string): string {
  return createHash('sha256').update(`${method}\n${path}\n${body}`).digest('hex');
}

export async function claimKey(db: Queryable, scope: string, key: string, hash: string, attempt = 0): Promise<Claim> {
  const claimed = await db.query(
    `INSERT INTO idempotency_keys (scope, key, request_hash, state) VALUES ($1, $2, $3, 'in_flight')
     ON CONFLICT (scope, key) DO UPDATE SET locked_at = now()
       WHERE idempotency_keys.state = 'in_flight'
         AND idempotency_keys.request_hash = EXCLUDED.request_hash
         AND idempotency_keys.locked_at < now() - make_interval(secs => $4)
     RETURNING 1`,
    [scope, key, hash, IN_FLIGHT_LEASE_SECONDS],
  );
  if (claimed.length > 0) return { kind: 'claimed' };
  const rows = await db.query<{ request_hash: string; state: string; status: number | null; response_body: string | null }>(
    'SELECT request_hash, state, status, response_body FROM idempotency_keys WHERE scope = $1 AND key = $2',
    [scope, key],
  );
  const row = rows[0];
  // The row vanished between the two statements (its first request failed and released it).
  if (!row) return attempt < 3 ? claimKey(db, scope, key, hash, attempt + 1) : { kind: 'in_flight' };
  if (row.request_hash !== hash) return { kind: 'mismatch' };
  if (row.state === 'done' && row.status !== null && row.response_body !== null) {
    return { kind: 'replay', status: row.status, body: row.response_body };
  }
  return { kind: 'in_flight' };
}

export async function completeKey(tx: Queryable, scope: string, key: string, status: number, body: string): Promise<void> {
  await tx.query(
    `UPDATE idempotency_keys SET state = 'done', status = $3, response_body = $4 WHERE scope = $1 AND key = $2`,
    [scope, key, status, body],
  );
}

/** Forgets a claim whose request failed unexpectedly, so a retry runs it afresh. */
export async function releaseKey(db: Queryable, scope: string, key: string): Promise<void> {
  await db.query(`DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND state = 'in_flight'`, [scope, key]);
}

export async function pruneKeys(db: Queryable, retentionDays = KEY_RETENTION_DAYS): Promise<number> {
  const rows = await db.query(
    'DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(days => $1) RETURNING 1',
    [retentionDays],
  );
  return rows.length;
}
