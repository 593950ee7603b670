import { z } from 'zod';
import { defineCall } from './define-call.ts';
import { cardReissueSchema, cardRenewalSchema } from '../card-renewal.ts';

/**
 * Issue 32, §7 Cards `GET renewal` and `GET reissue` (schema/card-renewal.ts). Visibility as card
 * reads: a card the caller may not see, or another business's, is 404. Renewal: 404 for a card
 * without an expiry (requested, terminated). Reissue: the replacement `cards.reissue` made; 404
 * when the card was never reissued.
 */
const auth = { scopes: ['default'] } as const;
const params = z.object({ card_uuid: z.uuid() });

export const cardRenewal = defineCall({
  id: 'cards.renewal.get', method: 'GET', path: '/v1/auth/cards/:card_uuid/renewal', auth, params, response: cardRenewalSchema,
});
export const cardReissueState = defineCall({
  id: 'cards.reissue.get', method: 'GET', path: '/v1/auth/cards/:card_uuid/reissue', auth, params, response: cardReissueSchema,
});

export const CARD_RENEWAL_CALLS = [cardRenewal, cardReissueState] as const;
