import type { Transaction } from '../../schema/entities/transaction.ts';
import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { COLLECTIONS, writeMirrored } from './collections.ts';
import { findTransaction } from './transaction-sql.ts';
import type { Visibility } from './visibility.ts';

/**
 * Issue 29 (`DELETE suggested-context/{transaction}`): the transaction's coding suggestion is
 * dismissed. The suggestion itself is computed on the device (schema/mapping-rules.ts), so what is
 * stored is the dismissal: `coding_suggestion_dismissed_at`, mirrored, so the drawer honours it
 * everywhere. A repeat keeps the first moment and writes nothing (no new seq): the outbox may send
 * it twice. A transaction the caller does not see, or of another business, answers 404.
 */
export async function dismissSuggestion(tx: Queryable, businessId: string, vis: Visibility, id: string, now: Date): Promise<Transaction> {
  const seen = await findTransaction(tx, businessId, vis, id, false);
  if (!seen) throw new ApiError('REQUEST_7004');
  if ((seen as Transaction).coding_suggestion_dismissed_at) return seen as Transaction;
  return writeMirrored(tx, businessId, 1, async ({ seqs }) => {
    const rows = await tx.query<{ doc: Transaction }>(
      `UPDATE transactions r SET coding_suggestion_dismissed_at = coalesce(r.coding_suggestion_dismissed_at, $3), change_seq = $4, updated_at = now()
        WHERE r.business_id = $1 AND r.id = $2 AND NOT r.deleted RETURNING ${COLLECTIONS.transactions.docSql} AS doc`,
      [businessId, id, now.toISOString(), seqs.last],
    );
    if (!rows[0]) throw new ApiError('REQUEST_7004');
    return rows[0].doc;
  });
}
