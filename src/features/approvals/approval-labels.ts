import type { ApprovalObjectType, ApprovalStatus } from '../../../schema/entities/approval.ts';
import type { PillTone } from '../../components/status-pill.tsx';

/** A review's own words (never a sync word: a decision saved offline reads "Approved" beside "Waiting to sync"). */
export const APPROVAL_LABELS: Record<ApprovalStatus, string> = {
  PENDING: 'Awaiting review',
  APPROVED: 'Approved',
  REJECTED: 'Rejected',
  CANCELED: 'Withdrawn',
};

export const APPROVAL_TONES: Record<ApprovalStatus, PillTone> = {
  PENDING: 'info',
  APPROVED: 'ok',
  REJECTED: 'danger',
  CANCELED: 'neutral',
};

/** What an approval reviews, as the inbox's Type filter and rows name it. */
export const OBJECT_TYPE_LABELS: Record<ApprovalObjectType, string> = {
  reimbursement: 'Claim',
  card_request: 'Card request',
  bill: 'Bill',
  travel_booking: 'Travel booking',
  spend_request: 'Spend request',
  'vendor-payment': 'Vendor payment',
  payee: 'Payee change',
};

/** The reject dialog's words for the kinds rejected: what the submitters see, and what an empty reason misses. */
export function rejectWords(kinds: readonly ApprovalObjectType[]) {
  const claims = kinds.every((k) => k === 'reimbursement');
  const requests = kinds.every((k) => k === 'card_request');
  if (claims) return { after: 'The claimants see the reason on their claims and can edit and resubmit.', missing: 'Say why, so the claimant can fix it.' };
  if (requests) return { after: 'The requesters see the reason on their card requests.', missing: 'Say why, so the requester knows.' };
  if (kinds.every((k) => k === 'spend_request')) return { after: 'The requesters see the reason on their spend requests.', missing: 'Say why, so the requester knows.' };
  if (kinds.every((k) => k === 'vendor-payment')) {
    return { after: 'Nothing is paid. Whoever asked for the payment sees the reason on the bill.', missing: 'Say why, so the payer knows.' };
  }
  if (kinds.every((k) => k === 'payee')) {
    return { after: 'The vendor stays unpaid until its details are saved again and approved.', missing: 'Say why, so the details can be fixed.' };
  }
  if (kinds.every((k) => k === 'bill')) {
    return { after: 'Whoever submitted the bills sees the reason and can fix and resubmit them.', missing: 'Say why, so the bill can be fixed.' };
  }
  if (!kinds.includes('bill')) return { after: 'The claimants and requesters see the reason.', missing: 'Say why, so they know.' };
  return { after: 'The people who submitted them see the reason.', missing: 'Say why, so they know.' };
}
