import type { LimitInterval } from '../../schema/entities/card.ts';
import type { SpendAllocation } from '../../schema/entities/spend-allocation.ts';
import type { SpendRequest, SpendRequestStatus, SpendRequestType } from '../../schema/entities/spend-request.ts';
import type { PillTone } from '../components/status-pill.tsx';
import { formatCount, formatMoney } from './format.ts';
import { INTERVAL_WORDS } from './card-labels.ts';

/**
 * Issue 28: the words of a spend request and a budget, shared by the screens that show them (the
 * Requests and Budgets pages, the approvals inbox, the card drawer). Pure; tested.
 */

export const REQUEST_STATUS_LABELS: Record<SpendRequestStatus, string> = {
  DRAFT: 'Draft',
  PENDING_APPROVAL: 'Pending approval',
  APPROVED: 'Approved',
  FULFILLED: 'Fulfilled',
  REJECTED: 'Rejected',
  CANCELED: 'Canceled',
};

export const REQUEST_STATUS_TONES: Record<SpendRequestStatus, PillTone> = {
  DRAFT: 'neutral',
  PENDING_APPROVAL: 'info',
  APPROVED: 'ok',
  FULFILLED: 'ok',
  REJECTED: 'danger',
  CANCELED: 'neutral',
};

export const REQUEST_TYPE_LABELS: Record<SpendRequestType, string> = {
  GENERAL_EXPENSE: 'General expense',
  PRODUCT_OR_SERVICE: 'Product or service',
  PHYSICAL_CARD: 'Physical card',
};

type Amounted = Pick<SpendRequest, 'type' | 'amount' | 'interval'>;

/** "$500.00 a month" for a card-like request (its limit and interval), "$1,200.00" for a purchase. */
export function requestAmountText(r: Amounted): string {
  const money = formatMoney(r.amount.amount, r.amount.currency);
  return r.type === 'PRODUCT_OR_SERVICE' ? money : `${money} ${INTERVAL_WORDS[r.interval]}`;
}

/** What a request names beyond itself, looked up in reference data (blank when not on this device). */
export interface RequestNames {
  user(id: string): string;
  vendor(id: string): string;
  budget(id: string): string;
}

/** "Acme Supplies · 3 lines", "Marketing budget", or the description: the request's "what" in one line. */
export function requestSubject(r: Pick<SpendRequest, 'type' | 'vendor_id' | 'line_items' | 'spend_allocation_id' | 'description'>, names: RequestNames): string {
  if (r.type === 'PRODUCT_OR_SERVICE') {
    const vendor = r.vendor_id ? names.vendor(r.vendor_id) || 'Vendor not on this device' : 'No vendor';
    return `${vendor} · ${linesText(r.line_items.length)}`;
  }
  if (r.spend_allocation_id) return `More room in ${names.budget(r.spend_allocation_id) || 'a budget'}`;
  return r.description;
}

export const linesText = (n: number) => `${formatCount(n)} ${n === 1 ? 'line' : 'lines'}`;

/**
 * What approving the request does, in a sentence (the inbox's drawer and the approve dialog):
 * "Approving issues a $500.00 virtual card to Ana Ruiz (limit $500.00 a month).",
 * "Approving adds $500.00 to the Marketing budget for Ana Ruiz.",
 * "Approving creates a purchase order to Acme for 3 lines ($1,200.00).",
 * "Approving issues a physical card to Ana Ruiz with a $500.00 a month limit, shipped to them."
 */
export function approvalOutcomeText(r: Pick<SpendRequest, 'type' | 'amount' | 'interval' | 'user_id' | 'vendor_id' | 'line_items' | 'spend_allocation_id'>, names: RequestNames): string {
  const who = names.user(r.user_id) || 'the requester';
  const money = formatMoney(r.amount.amount, r.amount.currency);
  const limit = `${money} ${INTERVAL_WORDS[r.interval]}`;
  switch (r.type) {
    case 'GENERAL_EXPENSE':
      if (r.spend_allocation_id) return `Approving adds ${money} to the ${names.budget(r.spend_allocation_id) || 'chosen'} budget for ${who}.`;
      return `Approving issues a ${money} virtual card to ${who} (limit ${limit}).`;
    case 'PRODUCT_OR_SERVICE': {
      const vendor = (r.vendor_id && names.vendor(r.vendor_id)) || 'the vendor';
      return `Approving creates a purchase order to ${vendor} for ${linesText(r.line_items.length)} (${money}).`;
    }
    case 'PHYSICAL_CARD':
      return `Approving issues a physical card to ${who} with a ${limit} limit, shipped to them.`;
  }
}

/** What came of a request, as its list row and drawer link it. */
export type RequestOutcome =
  | { kind: 'card'; label: string; href: string }
  | { kind: 'purchase_order'; label: string; href: string }
  | { kind: 'budget'; label: string; href: string }
  | { kind: 'none'; label: string };

/** The request's result: the card issued, the PO created, the budget grown; else what it waits for. */
export function requestOutcome(
  r: Pick<SpendRequest, 'status' | 'type' | 'card_id' | 'purchase_order_id' | 'spend_allocation_id'>,
  names: { budget(id: string): string; poNumber(id: string): string },
): RequestOutcome {
  if (r.card_id) return { kind: 'card', label: r.type === 'PHYSICAL_CARD' ? 'Physical card' : 'Virtual card', href: `/cards?open=${r.card_id}` };
  if (r.purchase_order_id) return { kind: 'purchase_order', label: names.poNumber(r.purchase_order_id) || 'Purchase order', href: `/purchase-orders/${r.purchase_order_id}` };
  if (r.spend_allocation_id && (r.status === 'FULFILLED' || r.status === 'APPROVED')) {
    return { kind: 'budget', label: names.budget(r.spend_allocation_id) || 'Budget', href: `/budgets?open=${r.spend_allocation_id}` };
  }
  const waiting: Record<SpendRequestStatus, string> = {
    DRAFT: 'Not sent yet', PENDING_APPROVAL: 'Waiting for approval', APPROVED: 'Being issued', FULFILLED: '—', REJECTED: 'Nothing issued', CANCELED: 'Nothing issued',
  };
  return { kind: 'none', label: waiting[r.status] };
}

/** One step of a request's history. */
export interface TimelineStep {
  key: 'created' | 'submitted' | 'approved' | 'rejected' | 'fulfilled' | 'canceled';
  label: string;
  at: string;
}

/** Created, submitted, decided (approved or rejected), fulfilled or canceled: the steps that happened, oldest first. */
export function requestTimeline(r: Pick<SpendRequest, 'status' | 'created_at' | 'submitted_at' | 'decided_at' | 'fulfilled_at' | 'canceled_at'>): TimelineStep[] {
  const steps: TimelineStep[] = [{ key: 'created', label: 'Created', at: r.created_at }];
  if (r.submitted_at) steps.push({ key: 'submitted', label: 'Submitted for approval', at: r.submitted_at });
  if (r.decided_at) steps.push(r.status === 'REJECTED' ? { key: 'rejected', label: 'Rejected', at: r.decided_at } : { key: 'approved', label: 'Approved', at: r.decided_at });
  if (r.fulfilled_at) steps.push({ key: 'fulfilled', label: 'Fulfilled', at: r.fulfilled_at });
  if (r.canceled_at) steps.push({ key: 'canceled', label: 'Canceled', at: r.canceled_at });
  return steps.sort((a, b) => a.at.localeCompare(b.at));
}

// --- Budgets -------------------------------------------------------------------------------------

/** The interval as a budget's sentence ends: "this month", "in total". */
const BUDGET_PERIOD: Record<LimitInterval, string> = {
  DAILY: 'today', WEEKLY: 'this week', MONTHLY: 'this month', YEARLY: 'this year', TOTAL: 'in total',
};

type BudgetMoney = Pick<SpendAllocation, 'limit' | 'spent' | 'left'>;

/** "$380.00 left of $500.00 this month". */
export function budgetLeftText(a: BudgetMoney): string {
  return `${formatMoney(a.left, a.limit.currency)} left of ${formatMoney(a.limit.amount, a.limit.currency)} ${BUDGET_PERIOD[a.limit.interval]}`;
}

/** How much of the limit is spent, 0..1 (a zero limit with nothing spent is empty, with spend full). */
export function budgetUsed(a: BudgetMoney): number {
  if (a.limit.amount <= 0) return a.spent > 0 ? 1 : 0;
  return Math.min(1, Math.max(0, a.spent / a.limit.amount));
}

/** The progress bar's tone: over 90 % spent is a warning, all of it danger. */
export function budgetTone(a: BudgetMoney): 'ok' | 'warn' | 'danger' {
  const used = budgetUsed(a);
  return a.left <= 0 && a.limit.amount > 0 ? 'danger' : used >= 0.9 ? 'warn' : 'ok';
}

/** Whether the budget can still be spent from on `today` (YYYY-MM-DD): not archived, not past its end date. */
export const budgetOpen = (a: Pick<SpendAllocation, 'archived' | 'end_date'>, today: string) => !a.archived && (a.end_date === null || a.end_date >= today);
