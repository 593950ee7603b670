import { attendeeSplitSchema, computeAttendeeSplit, type AttendeeSplit, type AttendeeSplitBody } from '../../schema/attendee-split.ts';
import type { Transaction } from '../../schema/entities/transaction.ts';
import { ApiError, validationError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { COLLECTIONS, writeMirrored } from './collections.ts';
import { findTransaction } from './transaction-sql.ts';
import type { Visibility } from './visibility.ts';

/**
 * Issue 32 (§7 `PUT` / `DELETE attendee-split`): the transaction's amount split across the people
 * present, stored as `transactions.attendee_split` (migration 086) and mirrored in its doc, so
 * reports and exports can charge each person their part. The rule (even split, remainder, exact sum
 * of custom amounts, sign, currency) is schema/attendee-split.ts's, applied here once. An internal
 * attendee must be a person of the business (their name is stored beside the id); a transaction the
 * caller does not see, or another business's, is 404. The event history records the change and its
 * actor (migration 086 adds the field to the transactions trigger).
 */

/** The transaction, locked, when the caller sees it; else 404. */
async function visibleForWrite(tx: Queryable, businessId: string, vis: Visibility, id: string): Promise<Transaction> {
  if (!(await findTransaction(tx, businessId, vis, id))) throw new ApiError('REQUEST_7004');
  const locked = await findTransaction(tx, businessId, { all: true }, id, true);
  if (!locked) throw new ApiError('REQUEST_7004');
  return locked as Transaction;
}

/** The names of the internal attendees; an id that is not a person of the business → 422 naming its place. */
async function peopleNames(tx: Queryable, businessId: string, body: AttendeeSplitBody): Promise<Map<string, string>> {
  const ids = body.attendees.flatMap((a) => (a.kind === 'internal' ? [a.user_id] : []));
  if (ids.length === 0) return new Map();
  const rows = await tx.query<{ id: string; name: string }>(
    `SELECT id::text AS id, trim(first_name || ' ' || last_name) AS name FROM spend_users WHERE business_id = $1 AND id = ANY($2::uuid[])`,
    [businessId, ids],
  );
  const names = new Map(rows.map((r) => [r.id, r.name]));
  body.attendees.forEach((a, i) => {
    if (a.kind === 'internal' && !names.has(a.user_id)) {
      throw validationError({ [`attendees.${i}.user_id`]: `Attendee ${i + 1} is not a person of this business.` });
    }
  });
  return names;
}

async function storeSplit(tx: Queryable, businessId: string, id: string, split: unknown): Promise<Transaction> {
  return writeMirrored(tx, businessId, 1, async ({ seqs }) => {
    const rows = await tx.query<{ doc: Transaction }>(
      `UPDATE transactions r SET attendee_split = $3::jsonb, change_seq = $4, updated_at = now()
        WHERE r.business_id = $1 AND r.id = $2 AND NOT r.deleted RETURNING ${COLLECTIONS.transactions.docSql} AS doc`,
      [businessId, id, split === null ? null : JSON.stringify(split), seqs.last],
    );
    if (!rows[0]) throw new ApiError('REQUEST_7004');
    return rows[0].doc;
  });
}

/** jsonb keeps keys in its own order: both sides are compared in the schema's. */
const sameSplit = (a: AttendeeSplit | null | undefined, b: AttendeeSplit) =>
  !!a && JSON.stringify(attendeeSplitSchema.parse(a)) === JSON.stringify(attendeeSplitSchema.parse(b));

/** Stores the split of the transaction's amount; the same split again writes nothing (no new seq). */
export async function putAttendeeSplit(tx: Queryable, businessId: string, vis: Visibility, id: string, body: AttendeeSplitBody): Promise<Transaction> {
  const txn = await visibleForWrite(tx, businessId, vis, id);
  const names = await peopleNames(tx, businessId, body);
  const result = computeAttendeeSplit(txn.amount, txn.currency, body, (userId) => names.get(userId) ?? '');
  if ('problem' in result) throw validationError({ attendees: result.problem });
  if (sameSplit(txn.attendee_split, result.split)) return txn;
  return storeSplit(tx, businessId, id, result.split);
}

/** Removes the split; a transaction without one is answered as it is (the outbox may send it twice). */
export async function deleteAttendeeSplit(tx: Queryable, businessId: string, vis: Visibility, id: string): Promise<Transaction> {
  const txn = await visibleForWrite(tx, businessId, vis, id);
  if (!txn.attendee_split) return txn;
  return storeSplit(tx, businessId, id, null);
}

/**
 * The same removal reached through a trip's spend event: the trip must be one the caller sees and
 * the transaction linked to it (issue 27's trip_spend_events); anything else is 404.
 */
export async function deleteSpendEventSplit(
  tx: Queryable, businessId: string, vis: Visibility, tripId: string, id: string, tripVisible: boolean,
): Promise<Transaction> {
  if (!tripVisible) throw new ApiError('REQUEST_7004');
  const linked = await tx.query(
    `SELECT 1 FROM trip_spend_events WHERE business_id = $1 AND trip_id = $2 AND object_type = 'transaction' AND object_id = $3`,
    [businessId, tripId, id],
  );
  if (linked.length === 0) throw new ApiError('REQUEST_7004', 'This trip has no such card transaction among its spend events.');
  return deleteAttendeeSplit(tx, businessId, vis, id);
}
