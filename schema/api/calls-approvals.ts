import { z } from 'zod';
import { defineCall } from './define-call.ts';
import { bulkResultSchema } from './calls-reimbursements.ts';
import { approvalFilterSchema, approvalSchema } from '../entities/approval.ts';
import { reimbursementSchema } from '../entities/reimbursement.ts';
import { cardRequestSchema } from '../entities/card-request.ts';
import { cardSchema } from '../entities/card.ts';
import { billSchema } from '../entities/bill.ts';
import { spendRequestSchema } from '../entities/spend-request.ts';
import { purchaseOrderSchema } from '../entities/purchase-order.ts';
import { vendorSchema } from '../entities/vendor.ts';
import { pageQuerySchema, paginatedSchema } from '../paging.ts';

/**
 * Approvals (issue 9): the review of submitted reimbursements (card requests since issue 10, bills
 * since issue 11). Who may review (§6: admin, the claimant's manager, bookkeeper) sees the
 * approvals in their scope, and a chain step's named approvers (any role) see and decide that
 * step's approval; nobody decides their own claim or bill (403 APPROVAL_7201) and the list leaves
 * the caller's own out. The chain's last approval moves the object in the same transaction.
 */
const scopes = { scopes: ['default'] } as const;
const approvalParams = z.object({ approval_id: z.uuid() });

/** A decision's answer: both rows written, and the last change seq (the feed carries both). */
export const decisionSchema = z.object({
  approval: approvalSchema,
  /** The reviewed claim (object_type `reimbursement`). */
  reimbursement: reimbursementSchema.optional(),
  /** The reviewed card request (object_type `card_request`), and the card an approval issued. */
  card_request: cardRequestSchema.optional(),
  card: cardSchema.optional(),
  /** The reviewed bill (object_type `bill`, issue 11): APPROVED when the chain completed, or REJECTED. */
  bill: billSchema.optional(),
  /**
   * The reviewed spend request (object_type `spend_request`, issue 28): FULFILLED when the chain
   * completed (with the `card` issued, or the `purchase_order` created; a budget's room shows in
   * the allocation the feed brings), or REJECTED.
   */
  spend_request: spendRequestSchema.optional(),
  purchase_order: purchaseOrderSchema.optional(),
  /**
   * Issue 28: a `vendor-payment` decision answers the reviewed `bill` (paid or scheduled when the
   * chain completed; its `payment_approval` REJECTED otherwise); a `payee` decision the `vendor`.
   */
  vendor: vendorSchema.optional(),
  change_seq: z.number().int(),
});
export const rejectBodySchema = z.object({ reason: z.string().trim().min(1).max(2000) });

/** Keyset list, newest first (§7 paging); `?status=PENDING` is the inbox. */
export const listApprovals = defineCall({
  id: 'approvals.list',
  method: 'GET',
  path: '/v1/auth/approvals',
  auth: scopes,
  retry: 'paged',
  query: pageQuerySchema.extend(approvalFilterSchema.shape),
  response: paginatedSchema(approvalSchema),
});

export const approveApproval = defineCall({
  id: 'approvals.approve',
  method: 'POST',
  path: '/v1/auth/approvals/:approval_id/approve',
  auth: scopes,
  params: approvalParams,
  body: z.object({}).optional(),
  response: decisionSchema,
});

export const rejectApproval = defineCall({
  id: 'approvals.reject',
  method: 'POST',
  path: '/v1/auth/approvals/:approval_id/reject',
  auth: scopes,
  params: approvalParams,
  body: rejectBodySchema,
  response: decisionSchema,
});

const MAX_BULK_APPROVALS = 500;
const bulkApprovalBodySchema = z.object({
  approval_ids: z.array(z.uuid()).min(1).max(MAX_BULK_APPROVALS),
  decision: z.enum(['APPROVE', 'REJECT']),
  /** Required when rejecting. */
  reason: z.string().trim().min(1).max(2000).optional(),
});

/** §7 POST /approval_policy/bulk-approval: each approval decided on its own; one answer per id. */
export const bulkApproval = defineCall({
  id: 'approvals.bulk',
  method: 'POST',
  path: '/v1/auth/approval_policy/bulk-approval',
  auth: scopes,
  body: bulkApprovalBodySchema,
  response: z.object({ results: z.array(bulkResultSchema(decisionSchema.omit({ change_seq: true }))), change_seq: z.number().int() }),
});

export const APPROVAL_CALLS = [listApprovals, approveApproval, rejectApproval, bulkApproval] as const;
