import type { Transaction } from '../../schema/entities/transaction.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError, validationError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { findReceipt } from './receipts.ts';
import { findTransaction, touchTransactions } from './transaction-sql.ts';
import type { Visibility } from './visibility.ts';

/**
 * Issue 32 (§7 `PUT copy-receipts` for a refund): the refund takes its original purchase's
 * receipts. Nothing links a refund to its purchase (only travel bookings keep their charge and
 * refund), so the caller names the purchase and the two must belong together: same card, merchant
 * and currency, the refund negative and the purchase positive (else 422). The same stored receipts
 * are linked (transaction_receipts), no bytes are copied; a receipt linked already is skipped, so a
 * second run adds nothing and takes no seq. Both transactions must be ones the caller sees (else
 * 404), and only the purchase's receipts the caller may read are linked. The refund's
 * `receipt_ids` then list them, which clears its missing-receipt state.
 */
function refundPairingProblem(refund: Transaction, purchase: Transaction): string | null {
  if (refund.id === purchase.id) return 'A transaction cannot take its own receipts.';
  if (!(refund.amount < 0)) return 'Only a refund (a negative amount) takes its purchase\'s receipts.';
  if (!(purchase.amount > 0)) return 'The original must be a purchase (a positive amount).';
  if (refund.card_id !== purchase.card_id) return 'The purchase was made on another card.';
  if (refund.merchant_name !== purchase.merchant_name) return 'The purchase was made at another merchant.';
  if (refund.currency !== purchase.currency) return 'The purchase is in another currency.';
  return null;
}

export async function copyRefundReceipts(
  tx: Queryable, user: ActingUser, vis: Visibility, refundId: string, purchaseId: string, now: Date,
): Promise<Transaction> {
  const refund = (await findTransaction(tx, user.business_id, vis, refundId)) as Transaction | null;
  if (!refund) throw new ApiError('REQUEST_7004');
  const purchase = (await findTransaction(tx, user.business_id, vis, purchaseId)) as Transaction | null;
  if (!purchase) throw new ApiError('REQUEST_7004', 'The original purchase was not found.');
  const problem = refundPairingProblem(refund, purchase);
  if (problem) throw validationError({ source_transaction_id: problem });
  const readable: string[] = [];
  // FOR SHARE: a concurrent delete of a receipt waits for this link and then removes it too.
  for (const id of purchase.receipt_ids) if (await findReceipt(tx, user.business_id, vis, id, 'share')) readable.push(id);
  if (readable.length === 0) throw validationError({ source_transaction_id: 'The original purchase has no receipts to copy.' });
  const inserted = await tx.query(
    `INSERT INTO transaction_receipts (transaction_id, receipt_id, business_id, attached_by, created_at)
     SELECT $1, src.id, $3, $4, $5::timestamptz + (src.ord - 1) * interval '1 microsecond'
       FROM unnest($2::uuid[]) WITH ORDINALITY AS src(id, ord)
     ON CONFLICT (transaction_id, receipt_id) DO NOTHING RETURNING 1`,
    [refundId, readable, user.business_id, user.id, now.toISOString()],
  );
  if (inserted.length > 0) await touchTransactions(tx, user.business_id, [refundId]);
  return (await findTransaction(tx, user.business_id, { all: true }, refundId)) as Transaction;
}
