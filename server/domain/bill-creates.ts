import type { Bill } from '../../schema/entities/bill.ts';
import type { ActingUser } from '../core/actor.ts';
import { createdBefore } from './live-doc.ts';
import type { Queryable } from '../db/db.ts';
import { findBill } from './bills.ts';

/**
 * Offline creates (schema/commands/bill.ts) name the new bill with the client's id, so the rows
 * a device shows and the commands it queued on them keep their id once the server has the bill.
 * The Idempotency-Key replays a lost answer while the server keeps it; this answers a repeat
 * beyond that: a create the caller already made under this id answers the stored bill, as it is
 * now (later edits included). An id of another business's or another user's bill, or of a deleted
 * one, is refused on `id` (as reimbursements do): a client id is never a way to reach a row.
 * Returns null when the id is new (the caller creates the bill under it).
 */
export async function billCreatedBefore(db: Queryable, user: ActingUser, id: string): Promise<Bill | null> {
  return createdBefore(db, user, id, { table: 'bills', noun: 'bill' }, () => findBill(db, user.business_id, id));
}
