import type { ReimbursementPatch } from '../../schema/api/calls-reimbursements.ts';
import type { Reimbursement } from '../../schema/entities/reimbursement.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError, validationError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { eachOnItsOwn } from './bulk-items.ts';
import { COLLECTIONS } from './collections.ts';
import { deleteReimbursement, findReimbursement, updateReimbursement } from './reimbursements.ts';
import type { Visibility } from './visibility.ts';

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

/** A merchant compared for duplicates: lower case, letters and digits only. */
const NORMALIZED = (col: string) => `regexp_replace(lower(coalesce(${col}, '')), '[^a-z0-9]+', '', 'g')`;

/**
 * Possible duplicates: the claimant's other live claims with the same amount and claim date whose
 * merchant is similar (equal once normalized, one containing the other, or either has none).
 * Every match is answered (a claimant has few claims on one day for one amount); canceled claims
 * are left out (they will never be paid twice).
 */
export async function findDuplicates(
  db: Queryable, user: ActingUser, vis: Visibility,
  input: { reimbursement_id?: string | undefined; merchant?: string | null | undefined; amount?: number | undefined; transaction_date?: string | undefined },
): Promise<Reimbursement[]> {
  let probe: { user_id: string; amount: number; transaction_date: string; merchant: string | null; id: string | null };
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
    `WITH p AS (SELECT ${NORMALIZED('$5::text')} AS m)
     SELECT ${DOC} AS doc FROM reimbursements r, p
      WHERE r.business_id = $1 AND r.user_id = $2 AND NOT r.deleted AND r.status <> 'CANCELED'
        AND r.amount = $3 AND r.transaction_date = $4::date AND ($6::uuid IS NULL OR r.id <> $6::uuid)
        AND (p.m = '' OR ${NORMALIZED('r.merchant')} = ''
             OR strpos(${NORMALIZED('r.merchant')}, p.m) > 0 OR strpos(p.m, ${NORMALIZED('r.merchant')}) > 0)
      ORDER BY r.created_at DESC, r.id DESC`,
    [user.business_id, probe.user_id, probe.amount, probe.transaction_date, probe.merchant, probe.id],
  );
  return rows.map((r) => r.doc);
}
