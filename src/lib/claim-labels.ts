import type { Reimbursement, ReimbursementStatus, ReimbursementType } from '../../schema/entities/reimbursement.ts';
import type { PillTone } from '../components/status-pill.tsx';
import type { SyncMarkRow } from '../components/sync-mark.tsx';
import { formatDay } from './format.ts';

/** A claim as a list or the drawer shows it: the row with its outbox marks (the worker's RowView). */
export type ClaimView = Reimbursement & SyncMarkRow;

export const TYPE_LABELS: Record<ReimbursementType, string> = {
  OUT_OF_POCKET: 'Out-of-pocket',
  MILEAGE: 'Mileage',
  PER_DIEM: 'Per diem',
};

/**
 * The claim's own status words. None of them is a sync word ("Waiting to sync", "Failed",
 * "Needs verification"): a claim saved offline reads "Draft" or "Submitted" beside the pending
 * mark, never "Pending".
 */
export const STATUS_LABELS: Record<ReimbursementStatus, string> = {
  DRAFT: 'Draft',
  SUBMITTED: 'Submitted',
  APPROVED: 'Approved',
  REJECTED: 'Rejected',
  PAID: 'Paid',
  CANCELED: 'Canceled',
};

export const STATUS_TONES: Record<ReimbursementStatus, PillTone> = {
  DRAFT: 'neutral',
  SUBMITTED: 'info',
  APPROVED: 'ok',
  REJECTED: 'danger',
  PAID: 'ok',
  CANCELED: 'neutral',
};

/** The line a list shows for a claim: merchant, trip from → to, or the per-diem location. */
export function claimDescription(c: Pick<Reimbursement, 'type' | 'merchant' | 'memo' | 'start_location' | 'end_location' | 'location'>): string {
  switch (c.type) {
    case 'OUT_OF_POCKET':
      return c.merchant || c.memo || 'Out-of-pocket expense';
    case 'MILEAGE':
      return c.start_location && c.end_location ? `${c.start_location} → ${c.end_location}` : 'Mileage';
    case 'PER_DIEM':
      return c.location || 'Per diem';
  }
}

export interface TimelineStep {
  label: string;
  /** ISO date-time, when the row carries one for the step. */
  at: string | null;
  detail?: string;
}

/**
 * The claim's history from the fields it carries: created, submitted, then where it stands now
 * (approved, rejected with the reason, paid, canceled) at its last change. A claim carries no
 * approval time of its own, so a paid claim lists "Approved" without one.
 */
export function claimTimeline(c: Pick<Reimbursement, 'status' | 'created_at' | 'submitted_at' | 'updated_at' | 'rejection_reason'>): TimelineStep[] {
  const steps: TimelineStep[] = [{ label: 'Created', at: c.created_at }];
  if (c.submitted_at) steps.push({ label: 'Submitted', at: c.submitted_at });
  switch (c.status) {
    case 'APPROVED':
      steps.push({ label: 'Approved', at: c.updated_at });
      break;
    case 'PAID':
      steps.push({ label: 'Approved', at: null }, { label: 'Paid', at: c.updated_at });
      break;
    case 'REJECTED':
      steps.push({ label: 'Rejected', at: c.updated_at, ...(c.rejection_reason ? { detail: c.rejection_reason } : {}) });
      break;
    case 'CANCELED':
      steps.push({ label: 'Canceled', at: c.updated_at });
      break;
    case 'DRAFT':
    case 'SUBMITTED':
      break;
  }
  return steps;
}

/** A claim date is a calendar date (no time zone): shown as that day wherever the reader is. */
export const formatClaimDate = formatDay;
