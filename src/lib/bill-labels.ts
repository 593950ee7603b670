import type { BillStatus } from '../../schema/entities/bill.ts';
import type { PillTone } from '../components/status-pill.tsx';

/** A bill's status as people read it (§7 bill pay). */
export const BILL_STATUS_LABELS: Record<BillStatus, string> = {
  DRAFT: 'Draft',
  PENDING_APPROVAL: 'Awaiting approval',
  APPROVED: 'Approved',
  SCHEDULED: 'Scheduled',
  PAID: 'Paid',
  RECONCILED: 'Reconciled',
  REJECTED: 'Rejected',
  CANCELED: 'Canceled',
  PAYMENT_FAILED: 'Payment failed',
};

export const BILL_STATUS_TONES: Record<BillStatus, PillTone> = {
  DRAFT: 'neutral',
  PENDING_APPROVAL: 'info',
  APPROVED: 'ok',
  SCHEDULED: 'info',
  PAID: 'ok',
  RECONCILED: 'ok',
  REJECTED: 'danger',
  CANCELED: 'neutral',
  PAYMENT_FAILED: 'danger',
};
