import { z } from 'zod';
import { produce } from 'immer';
import { defineCommand } from './define-command.ts';
import { approveApproval, rejectApproval, rejectBodySchema } from '../api/calls-approvals.ts';
import type { Approval } from '../entities/approval.ts';
import { applyRejection, applyStatus } from './reimbursement.ts';
import { applyRequestStatus } from './card.ts';
import type { MirrorReader } from './define-command.ts';

/**
 * Approval decisions, run optimistically by the worker (the approval leaves the PENDING inbox at
 * once) and with authority by the server (server/domain/approvals.ts), which also moves the claim
 * and stamps `decided_by`. The decision's moment is the row's `updated_at`, stamped by the caller.
 * Confirmed by change seq: the answer names the last seq written and the feed brings both rows.
 */
export function applyDecision(
  row: Approval,
  decision: ({ status: 'APPROVED' } | { status: 'REJECTED'; reason: string }) & { at?: string },
): Approval {
  return produce(row, (d) => {
    d.status = decision.status;
    d.reason = decision.status === 'REJECTED' ? decision.reason : null;
    d.decided_at = decision.at ?? d.updated_at;
  });
}

/**
 * The moment of the decision on the device (issue 25: an offline approval's "Decided on" showed
 * the approval's last server change, minutes earlier). Stamped once, when the command is queued
 * (the args' default), stored with the entry and never sent: the server stamps its own time.
 */
const stamped = <T extends { decided_at?: string | undefined }>(a: T): T => (a.decided_at ? a : { ...a, decided_at: new Date().toISOString() });
const decidedAt = z.iso.datetime({ offset: true }).optional();

/** The reviewed object's id when the approval reviews that kind of object. */
const reviewed = (type: Approval['object_type']) => (a: { approval_id: string }, mirror: MirrorReader) => {
  const approval = mirror.get('approvals', a.approval_id);
  return [approval?.object_type === type ? approval.object_id : undefined];
};

export const approvalApprove = defineCommand({
  name: 'approval.approve',
  args: z.object({ approval_id: z.uuid(), decided_at: decidedAt }).transform(stamped),
  collection: 'approvals',
  entityIds: (a) => [a.approval_id],
  call: approveApproval,
  request: (a) => ({ params: { approval_id: a.approval_id } }),
  apply: (row, a) => applyDecision(row, { status: 'APPROVED', at: a.decided_at }),
  // The decision moves the claim too: shown at once, confirmed when the feed brings both rows.
  also: {
    reimbursements: {
      ids: reviewed('reimbursement'),
      apply: (claim) => applyStatus(claim, 'APPROVED'),
    },
    // Approving a card request issues the card (the server's row comes through the feed).
    card_requests: {
      ids: reviewed('card_request'),
      apply: (request) => applyRequestStatus(request, 'APPROVED'),
    },
  },
  confirm: 'change_seq',
});

export const approvalReject = defineCommand({
  name: 'approval.reject',
  args: z.object({ approval_id: z.uuid(), decided_at: decidedAt }).extend(rejectBodySchema.shape).transform(stamped),
  collection: 'approvals',
  entityIds: (a) => [a.approval_id],
  call: rejectApproval,
  request: (a) => ({ params: { approval_id: a.approval_id }, body: { reason: a.reason } }),
  apply: (row, a) => applyDecision(row, { status: 'REJECTED', reason: a.reason, at: a.decided_at }),
  also: {
    reimbursements: {
      ids: reviewed('reimbursement'),
      apply: (claim, a) => applyRejection(claim, a.reason),
    },
    card_requests: {
      ids: reviewed('card_request'),
      apply: (request, a) => applyRequestStatus(request, 'REJECTED', a.reason),
    },
  },
  confirm: 'change_seq',
});
