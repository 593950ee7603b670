import type { LimitInterval } from '../../schema/entities/card.ts';

/** A limit's interval as a form's choice names it (cards, switching). */
export const INTERVAL_LABELS: Record<LimitInterval, string> = {
  DAILY: 'Daily', WEEKLY: 'Weekly', MONTHLY: 'Monthly', YEARLY: 'Yearly', TOTAL: 'Total (one-time)',
};
