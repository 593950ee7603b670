import type { Approval, ApprovalObjectType } from '../../../schema/entities/approval.ts';
import type { CardRequest } from '../../../schema/entities/card-request.ts';
import type { Reimbursement } from '../../../schema/entities/reimbursement.ts';
import type { SyncMarkRow } from '../../components/sync-mark.tsx';
import { claimDescription, TYPE_LABELS } from '../../lib/claim-labels.ts';
import { formatCount } from '../../lib/format.ts';
import { cardRequestDescription } from '../../lib/card-labels.ts';
import { OBJECT_TYPE_LABELS } from './approval-labels.ts';

/** An approval as the worker shows it (commands applied) with its outbox marks. */
export type ApprovalView = Approval & SyncMarkRow;
/** A claim as the worker shows it. */
export type ClaimRow = Reimbursement & SyncMarkRow;
/** A card request as the worker shows it. */
export type CardRequestRow = CardRequest & SyncMarkRow;
/** The reviewed object's row, whichever kind the approval reviews. */
export type ReviewedRow = ClaimRow | CardRequestRow;

/**
 * The queried collection holding what an approval of this type reviews; null while that kind is
 * not mirrored (bills, issue 11: the inbox shows the approval without its bill until they are).
 */
export const REVIEWED_COLLECTION = {
  reimbursement: 'reimbursements',
  card_request: 'card_requests',
  bill: null,
} as const satisfies Record<ApprovalObjectType, string | null>;

/**
 * One inbox row: the approval joined with what it reviews (a claim or a card request) and the
 * submitter's name. The row's id is the approval's (what approve/reject act on); its sync mark is
 * the decision's, else the reviewed row's (a claim or request refused by the server shows too).
 */
export interface InboxRow extends SyncMarkRow {
  id: string;
  kind: ApprovalObjectType;
  approval: ApprovalView;
  /** The claim (kind `reimbursement`); null while it has not reached this device's mirror. */
  claim: ClaimRow | null;
  /** The card request (kind `card_request`); null while it has not reached this device's mirror. */
  request: CardRequestRow | null;
  /** Who submitted it: the claimant or the requester. */
  claimant: string;
  /** The Type column: the claim's type, or "Card request". */
  typeLabel: string;
  /** "Lyft", "Office → Client", "Virtual card · $2,000.00 a month". */
  description: string;
  /** The row in one line, for labels and titles: "Card request · Virtual card · $2,000.00 a month". */
  summary: string;
  /** The requester's reason (card requests); null for claims. */
  reason: string | null;
  /** The claim date (ISO date), or null (card requests; a claim not downloaded yet). */
  date: string | null;
  amount: number | null;
  currency: string | null;
  /** When it was submitted for this review. */
  submitted_at: string;
}

export function joinInboxRow(approval: ApprovalView, reviewed: ReviewedRow | null, userName: (id: string) => string): InboxRow {
  const decision = approval.pending !== null || approval.failure !== null;
  const base = {
    id: approval.id,
    kind: approval.object_type,
    approval,
    claimant: userName(approval.user_id) || 'Someone',
    pending: decision ? approval.pending : (reviewed?.pending ?? null),
    failure: decision ? approval.failure : (reviewed?.failure ?? null),
  };
  if (approval.object_type === 'card_request') {
    const request = reviewed as CardRequestRow | null;
    const description = request ? cardRequestDescription(request) : 'Card request not downloaded yet';
    const typeLabel = OBJECT_TYPE_LABELS.card_request;
    return {
      ...base, claim: null, request, typeLabel, description, summary: request ? `${typeLabel} · ${description}` : description,
      reason: request?.reason ?? null, date: null, amount: request?.amount ?? null, currency: request?.currency ?? null,
      submitted_at: request?.created_at ?? approval.created_at,
    };
  }
  const claim = reviewed as ClaimRow | null;
  const description = claim ? claimDescription(claim) : 'Claim not downloaded yet';
  return {
    ...base, claim, request: null, typeLabel: claim ? TYPE_LABELS[claim.type] : '', description, summary: description, reason: null,
    date: claim?.transaction_date ?? null, amount: claim?.amount ?? null, currency: claim?.currency ?? null,
    submitted_at: claim?.submitted_at ?? approval.created_at,
  };
}

/** "2 claims", "1 card request", "2 claims and 1 card request": what a decision covered. */
export function reviewedText(kinds: readonly ApprovalObjectType[]): string {
  const claims = kinds.filter((k) => k === 'reimbursement').length;
  const requests = kinds.length - claims;
  const parts = [];
  if (claims > 0) parts.push(`${formatCount(claims)} claim${claims === 1 ? '' : 's'}`);
  if (requests > 0) parts.push(`${formatCount(requests)} card request${requests === 1 ? '' : 's'}`);
  return parts.join(' and ');
}
