import type { BillStatus } from '../../schema/entities/bill.ts';
import type { ApprovalStatus } from '../../schema/entities/approval.ts';
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

/** Statuses whose invoice is still owed: only these can be overdue. */
const OWED: readonly BillStatus[] = ['DRAFT', 'PENDING_APPROVAL', 'APPROVED', 'SCHEDULED', 'PAYMENT_FAILED', 'REJECTED'];

/** The local calendar day as ISO `YYYY-MM-DD` (a bill's dates are calendar days, not instants). */
export function localDay(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Past its due date (before `today`) and still owed: not paid, reconciled or canceled. */
export function isOverdue(bill: { status: BillStatus; due_date: string }, today: string): boolean {
  return OWED.includes(bill.status) && bill.due_date < today;
}

/** Whole days from `from` to `to` (ISO dates; negative when `to` is earlier). */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * How the due date reads beside the date for a bill still owed: "Overdue by 3 days",
 * "Due today", "Due tomorrow", "Due in 5 days"; null when nothing is owed or it is further off
 * than two weeks (the date alone says enough).
 */
export function dueText(bill: { status: BillStatus; due_date: string }, today: string): string | null {
  if (!OWED.includes(bill.status)) return null;
  const days = daysBetween(today, bill.due_date);
  if (days < 0) return `Overdue by ${-days} ${days === -1 ? 'day' : 'days'}`;
  if (days === 0) return 'Due today';
  if (days === 1) return 'Due tomorrow';
  return days <= 14 ? `Due in ${days} days` : null;
}

/** A step of a bill's approval chain as the bill's detail shows it (the approval row's status). */
export const BILL_STEP_LABELS: Record<ApprovalStatus, string> = {
  PENDING: 'Waiting for a decision',
  APPROVED: 'Approved',
  REJECTED: 'Rejected',
  CANCELED: 'Canceled',
};

export const BILL_STEP_TONES: Record<ApprovalStatus, PillTone> = {
  PENDING: 'info',
  APPROVED: 'ok',
  REJECTED: 'danger',
  CANCELED: 'neutral',
};
