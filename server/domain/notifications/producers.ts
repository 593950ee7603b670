import type { ApprovalInstance } from '../../../schema/api/calls-approval-policies.ts';
import type { Approval } from '../../../schema/entities/approval.ts';
import type { Notification } from '../../../schema/entities/notification.ts';
import type { Transaction } from '../../../schema/entities/transaction.ts';
import type { Queryable } from '../../db/db.ts';
import { activeDelegatesOf } from '../delegations.ts';
import { notify } from './notify.ts';
import { thresholdFor } from './threshold.ts';
import {
  approvalPath, decidedTitle, largeTransactionBody, largeTransactionTitle, rejectedBody, requesterTarget, waitingTitle, type Reviewed,
} from './wording.ts';

/**
 * The producers the approval and card writes call, one hook line each, inside the write's own
 * transaction (issue 29): they only decide who hears what and hand it to `notify()`, which keeps
 * "once per person and event" (event_key), skips the actor and inactive people, and mails.
 */

/** What an approval reviews, for the wording: the requester's name and what the instance was resolved against. */
async function reviewedOf(tx: Queryable, approval: Pick<Approval, 'id' | 'object_type' | 'object_id' | 'user_id'>): Promise<Reviewed> {
  const [row] = await tx.query<{ requester: string; amount: number | string | null; currency: string | null }>(
    `SELECT trim(u.first_name || ' ' || u.last_name) AS requester,
            (ai.subject ->> 'amount')::bigint AS amount, ai.subject ->> 'currency' AS currency
       FROM approvals a JOIN spend_users u ON u.id = a.user_id
       LEFT JOIN approval_instances ai ON ai.id = a.instance_id
      WHERE a.id = $1`,
    [approval.id],
  );
  const amount = row?.amount == null ? null : Number(row.amount);
  return {
    approval_id: approval.id, object_type: approval.object_type, object_id: approval.object_id,
    requester: row?.requester || 'Someone', amount, currency: row?.currency ?? null,
  };
}

/**
 * A step of a chain just opened (approval-rows.ts `openStepApproval`): everyone who can decide it
 * hears `approval_waiting`: the step's resolved approvers (a user, a role's or a group's members,
 * the requester's manager, or the admins standing in: resolved at submission, the very list the
 * inbox's `stepApproverSql` reads) and the active delegates of those approvers (whom
 * `delegatedApproverSql` lets decide it), never the requester (the actor).
 */
export async function notifyStepOpened(tx: Queryable, instance: ApprovalInstance, index: number, approval: Approval): Promise<Notification[]> {
  const approvers = (instance.steps[index]?.approver_ids ?? []).filter((id) => id !== approval.user_id);
  if (approvers.length === 0) return [];
  const delegates = (await activeDelegatesOf(tx, approval.business_id, approvers))
    .filter((d) => d.delegator_id !== approval.user_id).map((d) => d.delegate_id);
  const owners = [...new Set([...approvers, ...delegates])];
  const reviewed = await reviewedOf(tx, approval);
  const title = waitingTitle(reviewed);
  return notify(tx, approval.business_id, owners.map((owner) => ({
    owner_id: owner, kind: 'approval_waiting' as const, title, subject_type: 'approval' as const, subject_id: approval.id,
    path: approvalPath(approval.id), actor_id: approval.user_id, event_key: `approval:${approval.id}:waiting`,
    body: approvers.includes(owner) ? '' : 'You can decide it for an approver who delegated their approvals to you.',
  })), approval.updated_at);
}

/**
 * An approval row just stored (approval-rows.ts `storeApproval`): a rejection tells the requester
 * with the reason; an approval only when it finished its instance (the chain's last step, which
 * domain/approvals.ts stores after the instance), or had no instance (rows from before chains).
 * A step of a longer chain approved, or an "all" step still waiting, says nothing.
 */
export async function notifyDecision(tx: Queryable, approval: Approval): Promise<Notification[]> {
  if (approval.status !== 'APPROVED' && approval.status !== 'REJECTED') return [];
  if (approval.status === 'APPROVED') {
    const [chain] = await tx.query<{ status: string | null }>(
      'SELECT ai.status FROM approvals a LEFT JOIN approval_instances ai ON ai.id = a.instance_id WHERE a.id = $1', [approval.id],
    );
    if (chain?.status != null && chain.status !== 'APPROVED') return [];
  }
  const reviewed = await reviewedOf(tx, approval);
  let by: string | null = null;
  if (approval.status === 'REJECTED' && approval.decided_by) {
    const [u] = await tx.query<{ name: string }>(`SELECT trim(first_name || ' ' || last_name) AS name FROM spend_users WHERE id = $1`, [approval.decided_by]);
    by = u?.name ?? null;
  }
  const rejected = approval.status === 'REJECTED';
  return notify(tx, approval.business_id, [{
    owner_id: approval.user_id, kind: rejected ? 'rejected' : 'approved', title: decidedTitle(reviewed, approval.status),
    body: rejected ? rejectedBody(approval.reason, by) : '', ...requesterTarget(reviewed), actor_id: approval.decided_by,
    event_key: `approval:${approval.id}:${rejected ? 'rejected' : 'approved'}`,
  }], approval.updated_at);
}

/**
 * A card transaction just written (card-spend.ts): at or above the business's notify threshold,
 * in the threshold's currency (other currencies are not converted, so not compared), every active
 * admin and owner hears `large_transaction`; the cardholder is the actor, so an admin's own
 * purchase does not notify them.
 */
export async function notifyLargeTransaction(tx: Queryable, t: Transaction): Promise<Notification[]> {
  const threshold = await thresholdFor(tx, t.business_id);
  if (!threshold || t.currency !== threshold.currency || t.amount < threshold.amount) return [];
  const admins = await tx.query<{ id: string }>(
    `SELECT id::text FROM spend_users WHERE business_id = $1 AND role IN ('BUSINESS_ADMIN', 'BUSINESS_OWNER') AND status = 'ACTIVE' AND NOT deleted`,
    [t.business_id],
  );
  const [holder] = await tx.query<{ name: string }>(`SELECT trim(first_name || ' ' || last_name) AS name FROM spend_users WHERE id = $1`, [t.user_id]);
  const title = largeTransactionTitle(t, holder?.name || 'A cardholder');
  return notify(tx, t.business_id, admins.map((a) => ({
    owner_id: a.id, kind: 'large_transaction' as const, title, body: largeTransactionBody(threshold),
    subject_type: 'transaction' as const, subject_id: t.id, path: `/transactions?open=${t.id}`, actor_id: t.user_id, event_key: `txn:${t.id}:large`,
  })), t.updated_at);
}
