import type { ReimbursementPatch } from '../../schema/api/calls-reimbursements.ts';
import type { Reimbursement } from '../../schema/entities/reimbursement.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError, validationError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { eachOnItsOwn } from './bulk-items.ts';
import { COLLECTIONS } from './collections.ts';
import { deleteReimbursement, findReimbursement, updateReimbursement } from './reimbursements.ts';
import type { Visibility } from './visibility.ts';
import { isPossibleDuplicate, type DuplicateProbe } from '../../schema/reimbursement-duplicates.ts';

/**
 * Reimbursement calls over many claims (issue 9): bulk edit of coding and memo, bulk delete of
 * drafts (each item under the single call's rules, on its own savepoint: one refusal does not undo
 * the others), and the duplicate check.
 */

const DOC = COLLECTIONS.reimbursements.docSql;

export async function bulkUpdateReimbursements(
  tx: Queryable, user: ActingUser, vis: Visibility, ids: readonly string[], patch: ReimbursementPatch, now: Date,
) {
  const results = await eachOnItsOwn(tx, ids, (id) => updateReimbursement(tx, user, vis, id, patch, now));
  return { results, change_seq: Math.max(0, ...results.map((r) => (r.ok ? r.row.change_seq : 0))) };
}

export async function bulkDeleteReimbursements(tx: Queryable, user: ActingUser, vis: Visibility, ids: readonly string[]) {
  const results = await eachOnItsOwn(tx, ids, async (id) => {
    const { deleted, change_seq } = await deleteReimbursement(tx, user, vis, id);
    return { deleted, change_seq };
  });
  return { results, change_seq: Math.max(0, ...results.map((r) => (r.ok ? r.row.change_seq : 0))) };
}

/**
 * Possible duplicates (schema/reimbursement-duplicates.ts, the rule the form also runs offline):
 * the claimant's claims with the same amount and claim date are read by index, then the shared
 * rule keeps those with a similar merchant. Every match is answered (a claimant has few claims on
 * one day for one amount).
 */
export async function findDuplicates(
  db: Queryable, user: ActingUser, vis: Visibility,
  input: { reimbursement_id?: string | undefined; merchant?: string | null | undefined; amount?: number | undefined; transaction_date?: string | undefined },
): Promise<Reimbursement[]> {
  let probe: DuplicateProbe;
  if (input.reimbursement_id) {
    const claim = await findReimbursement(db, user.business_id, vis, input.reimbursement_id);
    if (!claim) throw new ApiError('REQUEST_7004');
    probe = { user_id: claim.user_id, amount: claim.amount, transaction_date: claim.transaction_date, merchant: claim.merchant, id: claim.id };
  } else {
    const missing: Record<string, string> = {};
    if (input.amount === undefined) missing.amount = 'amount is required';
    if (input.transaction_date === undefined) missing.transaction_date = 'transaction_date is required';
    if (Object.keys(missing).length > 0) throw validationError(missing);
    probe = { user_id: user.id, amount: input.amount!, transaction_date: input.transaction_date!, merchant: input.merchant ?? null, id: null };
  }
  const rows = await db.query<{ doc: Reimbursement }>(
    `SELECT ${DOC} AS doc FROM reimbursements r
      WHERE r.business_id = $1 AND r.user_id = $2 AND NOT r.deleted AND r.status <> 'CANCELED'
        AND r.amount = $3 AND r.transaction_date = $4::date
      ORDER BY r.created_at DESC, r.id DESC`,
    [user.business_id, probe.user_id, probe.amount, probe.transaction_date],
  );
  return rows.map((r) => r.doc).filter((claim) => isPossibleDuplicate(probe, claim));
}
