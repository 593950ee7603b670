import type { Card, LimitInterval } from '../../schema/entities/card.ts';
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

/** "••1234", or null while the card is requested (no number yet). */
export const lastFourText = (card: Pick<Card, 'last_four'>): string | null => (card.last_four ? `••${card.last_four}` : null);

/** "Travel ••1234" (or the name alone before a number is assigned): every screen names a card so. */
export function cardName(card: Pick<Card, 'display_name' | 'last_four'>): string {
  const four = lastFourText(card);
  return four ? `${card.display_name} ${four}` : card.display_name;
}
