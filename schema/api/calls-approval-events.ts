import { z } from 'zod';
import { defineCall } from './define-call.ts';
import { approvalSchema } from '../entities/approval.ts';

/**
 * Issue 32, §7 Approvals "GET bulk approval chain events uses a body": a read whose query is a
 * body, declared as the catalogue declares body-carrying reads (a read-only POST: no
 * Idempotency-Key, no transaction; browsers cannot send a GET body). For each named approval, the
 * events of its chain (the approval instance it belongs to): the submission, each step's
 * assignment, every approval (an "all" step's co-approvers too), the rejection or cancelation.
 *
 * Who: the approvals the caller mirrors (the `approver` rule: reviewers in their scope, a step's
 * approvers, the requester's own). As every bulk call here, all or none: an unknown id, another
 * business's or one the caller cannot see answers 404 REQUEST_7004 naming the first, and nothing else.
 */
export const MAX_CHAIN_EVENT_APPROVALS = 100;

export const CHAIN_EVENT_TYPES = ['submitted', 'assigned', 'approved', 'rejected', 'canceled'] as const;

export const chainEventSchema = z.object({
  type: z.enum(CHAIN_EVENT_TYPES),
  /** The chain step (0-based); null for the submission. */
  step: z.number().int().nonnegative().nullable(),
  /**
   * When. Null only for a co-approver of an "all" step who was not the last to approve: the chain
   * records who approved such a step, and the moment of its last approval only.
   */
  at: z.iso.datetime({ offset: true }).nullable(),
  /** Who: the requester (submitted), the decider (approved, rejected; a delegate acting for `on_behalf_of`); null when the system did it. */
  actor_id: z.uuid().nullable(),
  on_behalf_of: z.uuid().nullable(),
  /** `assigned`: the step's approvers (the business's admins when the policy named nobody who can); else empty. */
  approver_ids: z.array(z.uuid()),
  /** `rejected`: the reason given. */
  reason: z.string().nullable(),
});
export type ChainEvent = z.infer<typeof chainEventSchema>;

export const approvalChainSchema = z.object({
  approval_id: z.uuid(),
  object_type: approvalSchema.shape.object_type,
  object_id: z.uuid(),
  /** The chain (approval instance); null for approvals made before chains existed (one step). */
  instance_id: z.uuid().nullable(),
  /** The chain's state: PENDING while a step is open, then APPROVED, REJECTED or CANCELED. */
  status: approvalSchema.shape.status,
  events: z.array(chainEventSchema),
});
export type ApprovalChain = z.infer<typeof approvalChainSchema>;

export const approvalChainEvents = defineCall({
  id: 'approvals.chainEvents',
  method: 'POST',
  path: '/v1/auth/approvals_v2/chain-events',
  auth: { scopes: ['default'] },
  readOnly: true,
  body: z.object({
    approval_ids: z.array(z.uuid()).min(1).max(MAX_CHAIN_EVENT_APPROVALS)
      .refine((ids) => new Set(ids).size === ids.length, 'approval_ids must not repeat an approval'),
  }),
  response: z.object({ data: z.array(approvalChainSchema) }),
});

export const APPROVAL_EVENT_CALLS = [approvalChainEvents] as const;
