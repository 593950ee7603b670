import { applyDecision } from '../../schema/commands/approval.ts';
import { applyRejection, applyStatus } from '../../schema/commands/reimbursement.ts';
import { approvalSchema, type Approval, type ApprovalFilter } from '../../schema/entities/approval.ts';
import { reimbursementSchema, type Reimbursement } from '../../schema/entities/reimbursement.ts';
import { checkAction, checkDecidable } from '../../schema/reimbursement-rules.ts';
import { canApproveCards, canReviewReimbursements, isAdmin, isBookkeeper, isManager } from '../../schema/roles.ts';
import type { Bill } from '../../schema/entities/bill.ts';
import type { CardRequest } from '../../schema/entities/card-request.ts';
import type { Card } from '../../schema/entities/card.ts';
import type { PurchaseOrder } from '../../schema/entities/purchase-order.ts';
import type { SpendRequest } from '../../schema/entities/spend-request.ts';
import { queryTerms } from '../../schema/transaction-query.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError, refuse } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { openStepApproval, storeApproval } from './approval-rows.ts';
import { lockInstance, stateOf, storeInstance } from './approval-policies.ts';
import { decide } from '../../schema/approval-policy.ts';
import { decideBill } from './bill-approvals.ts';
import { decidePaymentApproval } from './bill-payments.ts';
import { decidePayeeApproval } from './vendors.ts';
import type { Vendor } from '../../schema/entities/vendor.ts';
import { decideCardRequest } from './card-requests.ts';
import { decideTravelBooking, refuseOwnBookingRequest } from './travel/bookings.ts';
import { decideSpendRequest, pointSpendRequestAt, refuseOwnSpendRequest } from './procurement/fulfil.ts';
import { eachOnItsOwn } from './bulk-items.ts';
import { actingForOnStep, actingForWithoutChain, delegatedApproverSql, recordOnBehalfOf } from './delegations.ts';
import { newestFirstPage } from './newest-first-page.ts';
import { COLLECTIONS, writeMirrored } from './collections.ts';
import { storeReimbursement } from './reimbursements.ts';
import { escapeLike } from './transaction-sql.ts';
import { approvalViewerClause as deciderClause, stepApproverSql, visibilityOf } from './visibility.ts';

/**
 * Approvals (issue 9, card requests since issue 10, bills since issue 11): the review of submitted
 * claims, card requests and bills. Reads and decisions follow the `approver` rule (admins and
 * bookkeepers: every claim; a manager: their team's; nobody else) widened by the chains: a
 * step's named approvers (a user, a role's members, a group, the requester's manager, resolved
 * at submission) see and may decide that step's approval whatever their role. An approval
 * outside the caller's scope, or another business's, is 404 to a reviewer; to anyone else (who
 * may not review at all) it is 403 FORBIDDEN_7003, the answer they get for any id, so there is
 * no existence oracle. Deciding one's own item is 403 APPROVAL_7201. A decision writes the
 * approval and its object in one transaction, each with its own change seq.
 */

const DOC = COLLECTIONS.approvals.docSql;
const CLAIM_DOC = COLLECTIONS.reimbursements.docSql;
const REVIEWERS_ONLY = 'Only an admin, a manager or a bookkeeper can review reimbursements and card requests.';

/** §6 reviewers (admin, manager, bookkeeper): anyone else decides only as a step's named approver. */
const isReviewer = (user: ActingUser) => canReviewReimbursements(user) && canApproveCards(user);

export type ApprovalPageRequest = { filter: ApprovalFilter; pageSize: number; start?: string | undefined; includeCount: boolean };


/**
 * §7 keyset list, newest first. The caller's own claims are never listed: they are not theirs to
 * act on. Someone who may not review gets an empty list.
 */
export async function listApprovals(db: Queryable, user: ActingUser, req: ApprovalPageRequest) {
  const team = await visibilityOf(db, user);
  const params: unknown[] = [user.business_id, user.id];
  const conds = ['r.business_id = $1', 'NOT r.deleted', 'r.user_id <> $2'];
  const f = req.filter;
  if (f.status?.length) conds.push(`r.status = ANY($${params.push(f.status)}::text[])`);
  if (f.object_types?.length) conds.push(`r.object_type = ANY($${params.push(f.object_types)}::text[])`);
  if (f.object_ids?.length) conds.push(`r.object_id = ANY($${params.push(f.object_ids)}::uuid[])`);
  if (f.user_ids?.length) conds.push(`r.user_id = ANY($${params.push(f.user_ids)}::uuid[])`);
  if (f.exclude_user_ids?.length) conds.push(`NOT (r.user_id = ANY($${params.push(f.exclude_user_ids)}::uuid[]))`);
  for (const term of queryTerms(f.q)) conds.push(`lower(coalesce(r.reason, '')) LIKE $${params.push(`%${escapeLike(term)}%`)}`);
  const where = conds.join(' AND ') + deciderClause(user, team, 'r', params);
  return newestFirstPage<Approval>(db, { table: 'approvals', doc: DOC, where, params }, req);
}

export type Decision = { status: 'APPROVED' } | { status: 'REJECTED'; reason: string };
export type DecisionResult = {
  approval: Approval; reimbursement?: Reimbursement; card_request?: CardRequest; card?: Card; bill?: Bill;
  spend_request?: SpendRequest; purchase_order?: PurchaseOrder; vendor?: Vendor; change_seq: number;
};

/**
 * Bulk decisions by someone who is no §6 reviewer: refused before any row is looked up unless
 * they are a step approver (or an approver's active delegate) of some pending approval of their
 * business, or of one of the requested approvals whatever its status: a bulk call that lost the
 * race to another approver still answers each id with why (decided already), not a blanket 403.
 * Then each id answers on its own, FORBIDDEN_7003 for those not theirs.
 */
async function assertMayDecideAny(db: Queryable, user: ActingUser, ids: readonly string[]): Promise<void> {
  if (isReviewer(user)) return;
  const rows = await db.query(
    `SELECT 1 FROM approvals r WHERE r.business_id = $1 AND NOT r.deleted
        AND (r.status = 'PENDING' OR r.id::text = ANY($3::text[]))
        AND (${stepApproverSql('r', '$2')} OR ${delegatedApproverSql('r', '$2')}) LIMIT 1`,
    [user.business_id, user.id, ids],
  );
  if (rows.length === 0) throw new ApiError('FORBIDDEN_7003', REVIEWERS_ONLY);
}

const OWN_ITEM: Record<Approval['object_type'], string | undefined> = {
  reimbursement: undefined, // the catalogue's message
  card_request: 'You cannot approve your own card request. Another reviewer must decide it.',
  bill: 'You cannot approve a bill you submitted. Another approver must decide it.',
  travel_booking: 'You cannot approve your own travel booking. Another approver must decide it.',
  spend_request: 'You cannot approve your own spend request. Another approver must decide it.',
  'vendor-payment': 'You cannot approve a payment you asked for. Another approver must decide it.',
  payee: 'You cannot approve a vendor change you made. Another approver must decide it.',
};

/**
 * Approve or reject: the approval (PENDING → the decision, decided_by the caller) and what it
 * reviews in the caller's transaction: a claim (SUBMITTED → APPROVED, or REJECTED with the
 * reason), or a card request (→ APPROVED with its card issued, or REJECTED). Locks: the business
 * row (seqs), then the approval, then the reviewed row, the order every writer of them follows.
 */
export async function decideApproval(tx: Queryable, user: ActingUser, id: string, decision: Decision, now: Date): Promise<DecisionResult> {
  const reviewer = isReviewer(user);
  return writeMirrored(tx, user.business_id, 2, async (w) => {
    const { seqs } = w;
    const team = await visibilityOf(tx, user);
    const params: unknown[] = [user.business_id, id];
    const [found] = await tx.query<{ doc: Approval }>(
      `SELECT ${DOC} AS doc FROM approvals r
        WHERE r.business_id = $1 AND r.id = $2 AND NOT r.deleted${deciderClause(user, team, 'r', params)} FOR UPDATE OF r`,
      params,
    );
    if (!found) throw reviewer ? new ApiError('REQUEST_7004') : new ApiError('FORBIDDEN_7003', REVIEWERS_ONLY);
    const approval = approvalSchema.parse(found.doc);
    if (approval.user_id === user.id) throw new ApiError('APPROVAL_7201', OWN_ITEM[approval.object_type]);
    if (approval.object_type === 'travel_booking') await refuseOwnBookingRequest(tx, user, approval);
    if (approval.object_type === 'spend_request') await refuseOwnSpendRequest(tx, user, approval);
    refuse(checkDecidable(approval.status));
    const at = now.toISOString();
    const decided = applyDecision({ ...approval, change_seq: seqs.first, updated_at: at }, decision);
    const progress = await advanceChain(tx, user, approval, decision, at);
    if (progress && !progress.completed) {
      // The chain goes on: the object stays where it is until its last step completes.
      if (!progress.step_completed) {
        // An "all" step still waiting for others: the row stays PENDING, re-stamped so the feed corrects an optimistic decision.
        return { approval: await storeApproval(tx, { ...approval, change_seq: seqs.first, updated_at: at }), change_seq: seqs.first };
      }
      const closed = await storeApproval(tx, { ...decided, decided_by: user.id });
      const nextSeq = (await w.reserve(1)).last;
      const opened = await openStepApproval(tx, progress.instance, progress.next_index, user.business_id, approval.object_type, nextSeq, at);
      if (approval.object_type === 'spend_request') {
        // Issue 28: the request names its open review, so the requester's mirror follows the chain.
        return { approval: closed, change_seq: await pointSpendRequestAt(tx, approval.object_id, opened, (await w.reserve(1)).last) };
      }
      // Issue 28: a vendor-payment approval reviews a bill too (its next approvers need the bill in their mirror).
      if (approval.object_type !== 'bill' && approval.object_type !== 'vendor-payment') return { approval: closed, change_seq: nextSeq };
      // The feed pages a bill by its own seq: re-stamped, it reaches the next step's approvers'
      // mirrors (the bill_pay rule shows it to them from this write on).
      const billSeq = (await w.reserve(1)).last;
      await tx.query('UPDATE bills SET change_seq = $3, updated_at = $4 WHERE business_id = $1 AND id = $2',
        [user.business_id, approval.object_id, billSeq, at]);
      return { approval: closed, change_seq: billSeq };
    }
    if (approval.object_type === 'bill') {
      const bill = await decideBill(tx, user, approval.object_id, decision, seqs.last, at);
      const nextApproval = await storeApproval(tx, { ...decided, decided_by: user.id });
      return { approval: nextApproval, bill, change_seq: seqs.last };
    }
    if (approval.object_type === 'vendor-payment') {
      // Issue 28: the last approval pays (or schedules) the bill in this transaction, checked again.
      const bill = await decidePaymentApproval(tx, user, approval, decision, seqs.last, now);
      return { approval: await storeApproval(tx, { ...decided, decided_by: user.id }), bill, change_seq: seqs.last };
    }
    if (approval.object_type === 'payee') {
      const vendor = await decidePayeeApproval(tx, user, approval, decision, seqs.last, at);
      return { approval: await storeApproval(tx, { ...decided, decided_by: user.id }), vendor, change_seq: seqs.last };
    }
    if (approval.object_type === 'travel_booking') {
      // Issue 27: approving books and charges it (card, charge, code) in this transaction.
      const result = await decideTravelBooking(tx, user, approval, decision, w, seqs.last, now);
      return { approval: await storeApproval(tx, { ...decided, decided_by: user.id }), ...result };
    }
    if (approval.object_type === 'spend_request') {
      // Issue 28: approving fulfils it (card, budget room or purchase order) in this transaction.
      const result = await decideSpendRequest(tx, user, approval, decision, w, seqs.last, now);
      return { approval: await storeApproval(tx, { ...decided, decided_by: user.id }), ...result };
    }
    if (approval.object_type === 'card_request') {
      const result = await decideCardRequest(tx, user, approval, decision, w, seqs.last, now);
      const nextApproval = await storeApproval(tx, { ...decided, decided_by: user.id });
      return { approval: nextApproval, ...result };
    }
    const [claimRow] = await tx.query<{ doc: Reimbursement }>(
      `SELECT ${CLAIM_DOC} AS doc FROM reimbursements r WHERE r.business_id = $1 AND r.id = $2 AND NOT r.deleted FOR UPDATE`,
      [user.business_id, approval.object_id],
    );
    if (!claimRow) throw new ApiError('REQUEST_7004');
    const claim = reimbursementSchema.parse(claimRow.doc);
    refuse(checkAction(decision.status === 'APPROVED' ? 'approve' : 'reject', claim.status));
    const nextApproval = await storeApproval(tx, { ...decided, decided_by: user.id });
    const stampedClaim = { ...claim, change_seq: seqs.last, updated_at: at };
    const nextClaim = decision.status === 'APPROVED' ? applyStatus(stampedClaim, 'APPROVED') : applyRejection(stampedClaim, decision.reason);
    const reimbursement = await storeReimbursement(tx, nextClaim);
    return { approval: nextApproval, reimbursement, change_seq: seqs.last };
  });
}

/**
 * Issue 11: the decision on the approval's instance (rows from before issue 11 have none: null).
 * §6 business-wide reviewers (admins, bookkeepers) may decide any step in its approvers' stead; on
 * the built-in default policy a manager of the requester may too, as before issue 11. Anyone else
 * who reached here (a manager, or a step's named approver of any role) must be one of the open
 * step's approvers.
 */
async function advanceChain(tx: Queryable, user: ActingUser, approval: Approval, decision: Decision, at: string) {
  const [link] = await tx.query<{ instance_id: string | null; step_index: number | null }>(
    'SELECT instance_id::text, step_index FROM approvals WHERE id = $1', [approval.id],
  );
  if (!link?.instance_id || link.step_index === null) {
    await recordOnBehalfOf(tx, approval.id, await actingForWithoutChain(tx, user, approval));
    return null;
  }
  const instance = await lockInstance(tx, user.business_id, link.instance_id);
  const override = isAdmin(user) || isBookkeeper(user) || (instance.policy_version === 0 && isManager(user));
  // Issue 29: a delegate decides for the approver they stand in for ("by X for Y").
  const actingFor = await actingForOnStep(tx, user, stateOf(instance), link.step_index);
  const result = decide(stateOf(instance), link.step_index, user.id, decision.status, { override, actingFor });
  if (!result.ok) {
    if (result.refusal === 'own_item') throw new ApiError('APPROVAL_7201');
    if (result.refusal === 'not_approver') throw new ApiError('FORBIDDEN_7003', result.message);
    refuse(result);
    return null;
  }
  const stored = await storeInstance(tx, user.business_id, instance.id, result.instance, at);
  await recordOnBehalfOf(tx, approval.id, actingFor);
  return { instance: stored, completed: result.completed, step_completed: result.step_completed, next_index: link.step_index + 1 };
}

/** §7 bulk-approval: each approval decided on its own (the single call's rules), one answer per id. */
export async function bulkDecide(tx: Queryable, user: ActingUser, ids: readonly string[], decision: Decision, now: Date) {
  await assertMayDecideAny(tx, user, ids);
  let seq = 0;
  const results = await eachOnItsOwn(tx, ids, async (id) => {
    const { change_seq, ...rows } = await decideApproval(tx, user, id, decision, now);
    seq = Math.max(seq, change_seq);
    return rows;
  });
  return { results, change_seq: seq };
}
