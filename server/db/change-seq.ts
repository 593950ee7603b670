import type { Queryable } from './db.ts';

/** The NOTIFY channel that carries `{business_id, seq}` after every committed write. */
export const CHANGES_CHANNEL = 'ledgerline_changes';

export type SeqRange = { first: number; last: number };

/**
 * Reserves `n` consecutive change sequence numbers for a business. Call it inside the write's
 * transaction, before touching rows, and give each written row its own number in the range.
 *
 * Why this makes the feed safe to page: the UPDATE takes the business row's lock and holds it to
 * commit, so writers of one business are serialised. A reader that sees counter value H therefore
 * knows every row stamped ≤ H is already committed: no later commit can appear "behind" a
 * checkpoint. (A sequence object would hand out numbers without that ordering guarantee.)
 * Returns null when the business does not exist.
 */
export async function allocateSeqs(tx: Queryable, businessId: string, n: number, opts: { announce?: boolean } = {}): Promise<SeqRange | null> {
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`cannot allocate ${n} sequence numbers`);
  // `announce` (issue 33): announceChange of the range's last seq in the same statement, one round
  // trip fewer while the business lock is held. Queued at once, delivered only if `tx` commits (a
  // savepoint rolled back drops it with the rows), so announcing before the rows are written tells
  // no one anything early; the payload is announceChange's.
  const rows = opts.announce
    ? await tx.query<{ last: number }>(
      `UPDATE businesses SET change_seq = change_seq + $2 WHERE id = $1
       RETURNING change_seq AS last, pg_notify($3, json_build_object('business_id', id::text, 'seq', change_seq)::text)`,
      [businessId, n, CHANGES_CHANNEL],
    )
    : await tx.query<{ last: number }>('UPDATE businesses SET change_seq = change_seq + $2 WHERE id = $1 RETURNING change_seq AS last', [businessId, n]);
  const last = rows[0]?.last;
  if (last === undefined) return null;
  return { first: Number(last) - n + 1, last: Number(last) };
}

/** Announces a business's new high-water mark; delivered to listeners only if `tx` commits. */
export async function announceChange(tx: Queryable, businessId: string, seq: number): Promise<void> {
  await tx.notify(CHANGES_CHANNEL, JSON.stringify({ business_id: businessId, seq }));
}

/** The highest committed sequence of a business (0 for an unknown one). */
export async function highWater(db: Queryable, businessId: string): Promise<number> {
  const rows = await db.query<{ change_seq: number }>('SELECT change_seq FROM businesses WHERE id = $1', [businessId]);
  return Number(rows[0]?.change_seq ?? 0);
}
