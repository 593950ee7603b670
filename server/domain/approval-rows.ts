import type { Approval, ApprovalObjectType } from '../../schema/entities/approval.ts';
import type { Queryable } from '../db/db.ts';
import { COLLECTIONS } from './collections.ts';

/**
 * Approval rows as the reviewed objects' writes keep them (issue 9 claims, issue 10 card
 * requests): a submission or request opens one, a cancel closes the open one. The callers
 * reserved the seq (writeMirrored) and hold the object's lock.
 */
const DOC = COLLECTIONS.approvals.docSql;

/** What an approval reviews: its id, business, whose it is, and the moment of the write. */
type Reviewed = { id: string; business_id: string; user_id: string; updated_at: string };

/** A PENDING approval for an object just (re)submitted; the approver scope is the submitter's manager. */
export async function openApproval(tx: Queryable, claim: Reviewed, seq: number, type: ApprovalObjectType = 'reimbursement'): Promise<Approval> {
  const rows = await tx.query<{ doc: Approval }>(
    `INSERT INTO approvals AS r (id, business_id, object_type, object_id, user_id, approver_id, status, created_at, updated_at, change_seq)
     SELECT $1, $2, $7, $3, $4, u.manager_id, 'PENDING', $5, $5, $6
       FROM spend_users u WHERE u.id = $4
     RETURNING ${DOC} AS doc`,
    [crypto.randomUUID(), claim.business_id, claim.id, claim.user_id, claim.updated_at, seq, type],
  );
  return rows[0]!.doc;
}

/** The object's open approval → CANCELED (the object was canceled); null when there was none. */
export async function cancelOpenApproval(tx: Queryable, claim: Reviewed, seq: number): Promise<Approval | null> {
  const rows = await tx.query<{ doc: Approval }>(
    `UPDATE approvals r SET status = 'CANCELED', change_seq = $3, updated_at = $4
      WHERE r.business_id = $1 AND r.object_id = $2 AND r.status = 'PENDING'
      RETURNING ${DOC} AS doc`,
    [claim.business_id, claim.id, seq, claim.updated_at],
  );
  return rows[0]?.doc ?? null;
}

/** Writes an approval row as `next` says (status, reason, decision, seq, updated_at). */
export async function storeApproval(tx: Queryable, next: Approval): Promise<Approval> {
  const rows = await tx.query<{ doc: Approval }>(
    `UPDATE approvals r SET status = $3, reason = $4, decided_by = $5, decided_at = $6, change_seq = $7, updated_at = $8
      WHERE r.business_id = $1 AND r.id = $2 RETURNING ${DOC} AS doc`,
    [next.business_id, next.id, next.status, next.reason, next.decided_by, next.decided_at, next.change_seq, next.updated_at],
  );
  return rows[0]!.doc;
}
