import type { Approval } from '../../../schema/entities/approval.ts';
import type { Reimbursement } from '../../../schema/entities/reimbursement.ts';
import type { SyncMarkRow } from '../../components/sync-mark.tsx';
import { claimDescription } from '../../lib/claim-labels.ts';

/** An approval as the worker shows it (commands applied) with its outbox marks. */
export type ApprovalView = Approval & SyncMarkRow;
/** A claim as the worker shows it. */
export type ClaimRow = Reimbursement & SyncMarkRow;

/**
 * One inbox row: the approval joined with the claim it reviews and the claimant's name. The
 * row's id is the approval's (what approve/reject act on); its sync mark is the decision's,
 * else the claim's (a claim refused by the server shows on the row too).
 */
export interface InboxRow extends SyncMarkRow {
  id: string;
  approval: ApprovalView;
  /** Null while the claim has not reached this device's mirror. */
  claim: ClaimRow | null;
  claimant: string;
  description: string;
  /** The claim date (ISO date), or null without the claim. */
  date: string | null;
  amount: number | null;
  currency: string | null;
  /** When the claim was submitted for this review. */
  submitted_at: string;
}

export function joinInboxRow(approval: ApprovalView, claim: ClaimRow | null, userName: (id: string) => string): InboxRow {
  const decision = approval.pending !== null || approval.failure !== null;
  return {
    id: approval.id,
    approval,
    claim,
    claimant: userName(approval.user_id) || 'Someone',
    description: claim ? claimDescription(claim) : 'Claim not downloaded yet',
    date: claim?.transaction_date ?? null,
    amount: claim?.amount ?? null,
    currency: claim?.currency ?? null,
    submitted_at: claim?.submitted_at ?? approval.created_at,
    pending: decision ? approval.pending : (claim?.pending ?? null),
    failure: decision ? approval.failure : (claim?.failure ?? null),
  };
}
