import type { LimitInterval } from '../../schema/entities/card.ts';
import type { CardRequest } from '../../schema/entities/card-request.ts';
import { formatMoney } from './format.ts';

/**
 * Card words shared by the screens that name a card or a card request (the approvals inbox, the
 * failed-changes list): the limit's period, the card's kind, one line per request or card.
 */

/** A card limit's period after its amount: "$2,000.00 a month". */
export const INTERVAL_WORDS: Record<LimitInterval, string> = {
  DAILY: 'a day',
  WEEKLY: 'a week',
  MONTHLY: 'a month',
  YEARLY: 'a year',
  TOTAL: 'in total',
};

export const cardKindLabel = (isPhysical: boolean) => (isPhysical ? 'Physical card' : 'Virtual card');

/** "Virtual card · $2,000.00 a month" */
export function cardRequestDescription(r: Pick<CardRequest, 'is_physical' | 'amount' | 'currency' | 'interval'>): string {
  return `${cardKindLabel(r.is_physical)} · ${formatMoney(r.amount, r.currency)} ${INTERVAL_WORDS[r.interval]}`;
}

export { cardName, lastFourText } from '../../schema/entities/card.ts';
