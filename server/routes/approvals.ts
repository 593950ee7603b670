import { approveApproval, bulkApproval, listApprovals, rejectApproval } from '../../schema/api/calls-approvals.ts';
import type { ApprovalFilter } from '../../schema/entities/approval.ts';
import { validationError } from '../core/errors.ts';
import { bulkDecide, decideApproval, listApprovals as listRows } from '../domain/approvals.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';

/** Approvals (issue 9): the reviewer's inbox and decisions (rules in domain/approvals.ts). */
export const approvalHandlers = {
  [listApprovals.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const { page_size, start, include_count, ...filter } = ctx.input.query;
    return ok(await listRows(ctx.db, user, {
      filter: filter as ApprovalFilter, pageSize: page_size, start, includeCount: include_count === true,
    }));
  },

  [approveApproval.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    return ok(await decideApproval(ctx.db, user, ctx.input.params.approval_id, { status: 'APPROVED' }, new Date(ctx.deps.now())));
  },

  [rejectApproval.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const decision = { status: 'REJECTED' as const, reason: ctx.input.body.reason };
    return ok(await decideApproval(ctx.db, user, ctx.input.params.approval_id, decision, new Date(ctx.deps.now())));
  },

  [bulkApproval.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const { approval_ids, decision, reason } = ctx.input.body;
    if (decision === 'REJECT' && !reason) throw validationError({ reason: 'reason is required' });
    const d = decision === 'APPROVE' ? { status: 'APPROVED' as const } : { status: 'REJECTED' as const, reason: reason! };
    return ok(await bulkDecide(ctx.db, user, approval_ids, d, new Date(ctx.deps.now())));
  },
} satisfies DomainHandlers;
