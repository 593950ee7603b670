import type { ApprovalObjectType } from '../../schema/entities/approval.ts';
import type { ReimbursementStatus } from '../../schema/entities/reimbursement.ts';
import {
  checkAction, checkDecidable, checkDeletable, checkEditable, isSettled, settlesAt, type ApprovalStatus, type PaymentMethod,
} from '../../schema/reimbursement-rules.ts';
import { canApproveCards, canReviewReimbursements, isAdmin, isEligibleForPayrollReimbursement, type Actor } from '../../schema/roles.ts';

/**
 * Which claim actions a screen offers (issue 9): the status machine (`checkAction`,
 * `checkEditable`, `checkDeletable`) crossed with who the viewer is, as the server decides them —
 * the claimant edits, submits, resubmits, cancels and deletes their own claim
 * (server/domain/reimbursements.ts `ownForWrite`); an admin or owner pays and cancels a payment
 * (`isAdmin`, reimbursement-payments.ts); a reviewer (`canReviewReimbursements`) decides a pending
 * approval of someone else's claim. Pure; the server stays the authority.
 */
export interface ClaimActionSet {
  edit: boolean;
  submit: boolean;
  resubmit: boolean;
  cancel: boolean;
  deleteDraft: boolean;
  pay: boolean;
  cancelPayment: boolean;
}

export interface ClaimFacts {
  status: ReimbursementStatus;
  user_id: string;
  /** When the claim last changed: for a PAID claim, the payment's moment (settlement counts from it). */
  updated_at: string;
}

export function claimActions(claim: ClaimFacts, viewer: Actor, now: Date): ClaimActionSet {
  const own = claim.user_id === viewer.id;
  const admin = isAdmin(viewer);
  return {
    edit: own && checkEditable(claim.status).ok,
    // A rejected claim goes back with Resubmit (its own call); Submit is a draft's.
    submit: own && claim.status === 'DRAFT' && checkAction('submit', claim.status).ok,
    resubmit: own && checkAction('resubmit', claim.status).ok,
    cancel: own && checkAction('cancel', claim.status).ok,
    deleteDraft: own && checkDeletable(claim.status).ok,
    pay: admin && checkAction('pay', claim.status).ok,
    cancelPayment: admin && checkAction('cancelPayment', claim.status).ok && !isSettled(settlesAt(new Date(claim.updated_at)), now),
  };
}

/**
 * Whether the viewer may decide this approval: a reviewer of its kind (§6: claims
 * `canReviewReimbursements`, card requests `canApproveCards`), a PENDING approval, not their own.
 */
export function canDecide(approval: { status: ApprovalStatus; user_id: string; object_type?: ApprovalObjectType }, viewer: Actor): boolean {
  // A bill's approval reaches a mirror only for §6 reviewers and its step's named approvers (the
  // feed's approver rule), whatever their role: the server settles the rest by name.
  // Issue 28: so do a bill's payment (vendor-payment) and a vendor's payee change.
  const byName = approval.object_type === 'bill' || approval.object_type === 'vendor-payment' || approval.object_type === 'payee';
  if (byName) return approval.user_id !== viewer.id && checkDecidable(approval.status).ok;
  const reviews = approval.object_type === 'card_request' ? canApproveCards : canReviewReimbursements;
  return reviews(viewer) && approval.user_id !== viewer.id && checkDecidable(approval.status).ok;
}

/**
 * The payment methods offered for a claimant (§6: payroll needs their payroll currency). The
 * directory rows this device holds may not carry it (`undefined`): then payroll is offered and
 * the server, which knows, refuses it with its message.
 */
export function paymentMethods(claimant: { payroll_currency?: string | null } | undefined): readonly PaymentMethod[] {
  const currency = claimant?.payroll_currency;
  if (currency === undefined) return ['ACH', 'PAYROLL'];
  return isEligibleForPayrollReimbursement({ payroll_currency: currency }) ? ['ACH', 'PAYROLL'] : ['ACH'];
}

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = { ACH: 'ACH bank transfer', PAYROLL: 'With payroll' };
