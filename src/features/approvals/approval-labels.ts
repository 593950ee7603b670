import type { ApprovalStatus } from '../../../schema/entities/approval.ts';
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
