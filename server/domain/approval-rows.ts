import type { ApprovalInstance } from '../../schema/api/calls-approval-policies.ts';
import type { PolicyObjectType } from '../../schema/approval-policy.ts';
import type { Approval, ApprovalObjectType } from '../../schema/entities/approval.ts';
import type { Queryable } from '../db/db.ts';
import { createInstance, currentPolicy } from './approval-policies.ts';
import { COLLECTIONS } from './collections.ts';
import { notifyDecision, notifyStepOpened } from './notifications/producers.ts';

/**
 * Approval rows as the reviewed objects' writes keep them (issue 9 claims, issue 10 card
 * requests, issue 11 chains and bills): a submission or request starts an approval instance from the
 * business's current policy and opens the approval of its first step; deciding a step opens the
 * next one's (domain/approvals.ts); a cancel closes the open one and its instance. The callers
 * reserved the seq (writeMirrored) and hold the object's lock.
 */
const DOC = COLLECTIONS.approvals.docSql;

/** What an approval reviews: its id, business, whose it is, what it is worth, and the moment of the write. */
type Reviewed = {
  id: string; business_id: string; user_id: string; updated_at: string; amount: number; currency: string; department_id?: string | null;
  /** What a bill's policy conditions read besides the amount (issue 11). */
  vendor_id?: string | null; entity_id?: string | null;
};

/** The policy that governs each kind of approval (§7 names card approvals `card`). */
const POLICY_TYPE_OF: Record<ApprovalObjectType, PolicyObjectType> = {
  reimbursement: 'reimbursement', card_request: 'card', bill: 'bill', travel_booking: 'travel', spend_request: 'spend_request',
  'vendor-payment': 'vendor-payment', payee: 'payee',
};

/**
 * Issue 28: whether the business saved a policy of `type` (version >= 1). The vendor-payment and
 * payee policies gate only then: on the built-in default (version 0) payments and payees go
 * through as they always did, so a business that never configured them sees no change.
 */
export async function policySaved(db: Queryable, businessId: string, type: 'vendor-payment' | 'payee'): Promise<boolean> {
  return (await currentPolicy(db, businessId, type)).version >= 1;
}

/** The object's PENDING approval row, if any (locked): what a re-request supersedes. */
export async function hasOpenApproval(tx: Queryable, businessId: string, objectId: string): Promise<boolean> {
  const rows = await tx.query(`SELECT 1 FROM approvals WHERE business_id = $1 AND object_id = $2 AND status = 'PENDING' FOR UPDATE`, [businessId, objectId]);
  return rows.length > 0;
}

/**
 * The approver shown on a step's row (`approver_id`, display only): its one approver; null when
 * several share it or the admins stand in (as before issue 11 for a submitter without a manager).
 */
const shownApprover = (step: ApprovalInstance['steps'][number]) => (!step.fallback && step.approver_ids.length === 1 ? step.approver_ids[0]! : null);

/** The PENDING approval of step `index` of a running instance. */
export async function openStepApproval(
  tx: Queryable, instance: ApprovalInstance, index: number, businessId: string, type: ApprovalObjectType, seq: number, at: string,
): Promise<Approval> {
  const rows = await tx.query<{ doc: Approval }>(
    `INSERT INTO approvals AS r (id, business_id, object_type, object_id, user_id, approver_id, status, created_at, updated_at, change_seq, instance_id, step_index)
     VALUES ($1, $2, $3, $4, $5, $6, 'PENDING', $7, $7, $8, $9, $10)
     RETURNING ${DOC} AS doc`,
    [crypto.randomUUID(), businessId, type, instance.object_id, instance.requester_id, shownApprover(instance.steps[index]!), at, seq, instance.id, index],
  );
  await notifyStepOpened(tx, instance, index, rows[0]!.doc); // issue 29: whoever can decide it hears it is waiting
  return rows[0]!.doc;
}

/** An object just (re)submitted: its instance from the current policy, and the first step's approval. */
export async function openApproval(tx: Queryable, claim: Reviewed, seq: number, type: ApprovalObjectType = 'reimbursement'): Promise<Approval> {
  const subject = {
    requester_id: claim.user_id, amount: claim.amount, currency: claim.currency, department_id: claim.department_id ?? null,
    vendor_id: claim.vendor_id ?? null, entity_id: claim.entity_id ?? null,
  };
  const instance = await createInstance(tx, claim.business_id, POLICY_TYPE_OF[type], claim.id, subject, claim.updated_at);
  return openStepApproval(tx, instance, 0, claim.business_id, type, seq, claim.updated_at);
}

/** The object's open approval → CANCELED (the object was canceled), and its running instance; null when there was none. */
export async function cancelOpenApproval(tx: Queryable, claim: Pick<Reviewed, 'id' | 'business_id' | 'updated_at'>, seq: number): Promise<Approval | null> {
  const rows = await tx.query<{ doc: Approval }>(
    `UPDATE approvals r SET status = 'CANCELED', change_seq = $3, updated_at = $4
      WHERE r.business_id = $1 AND r.object_id = $2 AND r.status = 'PENDING'
      RETURNING ${DOC} AS doc`,
    [claim.business_id, claim.id, seq, claim.updated_at],
  );
  await tx.query(
    `UPDATE approval_instances SET status = 'CANCELED', updated_at = $3 WHERE business_id = $1 AND object_id = $2 AND status = 'PENDING'`,
    [claim.business_id, claim.id, claim.updated_at],
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
  await notifyDecision(tx, rows[0]!.doc); // issue 29: the requester hears a rejection, or the chain's final approval
  return rows[0]!.doc;
}
