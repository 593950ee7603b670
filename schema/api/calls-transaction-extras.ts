import { z } from 'zod';
import { attendeeSplitBodySchema } from '../attendee-split.ts';
import { transactionSchema } from '../entities/transaction.ts';
import { defineCall } from './define-call.ts';

/**
 * Issue 32, §7 Transactions' long tail (docs/design/issue-32-long-tail.md): the attendee split
 * (`PUT attendee-split`, `DELETE attendee-split` on a transaction and on a trip's spend event) and
 * `PUT copy-receipts` for a refund. Each answers the transaction as stored (its doc carries
 * `attendee_split` and `receipt_ids`), so the outbox confirms by the row.
 */
const scopes = { scopes: ['default'] } as const;
const transactionParams = z.object({ transaction_canonical_uuid: z.uuid() });

/** Splits the transaction's amount across its attendees (schema/attendee-split.ts: the rounding rule, the exact sum). */
export const putAttendeeSplit = defineCall({
  id: 'transactions.attendeeSplit.put',
  method: 'PUT',
  path: '/v1/auth/transactions/:transaction_canonical_uuid/attendee-split',
  auth: scopes,
  params: transactionParams,
  body: attendeeSplitBodySchema,
  response: transactionSchema,
});

/** Removes the split (the attendees stay); removing none changes nothing. */
export const deleteAttendeeSplit = defineCall({
  id: 'transactions.attendeeSplit.delete',
  method: 'DELETE',
  path: '/v1/auth/transactions/:transaction_canonical_uuid/attendee-split',
  auth: scopes,
  params: transactionParams,
  response: transactionSchema,
});

/**
 * The same, reached as a trip's spend event (issue 27's trip_spend_events): the card transaction
 * linked to that trip. A claim linked to a trip carries no split, so only a transaction is found.
 */
export const deleteSpendEventAttendeeSplit = defineCall({
  id: 'travel.trips.spendEvents.attendeeSplit.delete',
  method: 'DELETE',
  path: '/v1/auth/travel/trips/:trip_id/spend-events/:transaction_canonical_uuid/attendee-split',
  auth: scopes,
  params: z.object({ trip_id: z.uuid(), transaction_canonical_uuid: z.uuid() }),
  response: transactionSchema,
});

/**
 * A refund takes its original purchase's receipts: the same stored receipts are linked, no file is
 * copied. No refund→purchase link is stored, so the purchase is named in the body and must belong
 * with the refund: same card, same merchant and currency, the refund negative and the purchase positive.
 */
export const copyRefundReceipts = defineCall({
  id: 'transactions.copyReceipts',
  method: 'PUT',
  path: '/v1/auth/transactions/:transaction_canonical_uuid/copy-receipts',
  auth: scopes,
  params: transactionParams,
  body: z.object({ source_transaction_id: z.uuid() }),
  response: transactionSchema,
});

export const TRANSACTION_EXTRA_CALLS = [putAttendeeSplit, deleteAttendeeSplit, deleteSpendEventAttendeeSplit, copyRefundReceipts] as const;
