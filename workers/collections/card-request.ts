import { cardRequestEntity, type CardRequest } from '../../schema/entities/card-request.ts';
import { specCollection } from './spec-collection.ts';
import { engineCardRequests, serverCardRequests, storedCardRequests } from './generated/card_requests.ts';

/**
 * card_requests in the worker (issue 10): built from the definition alone (spec-engine.ts; row
 * shapers generated from its columns, generated/card_requests.ts). A
 * business's card requests number in the hundreds or thousands, so no typed sort keys are needed.
 */

export type AnyCardRequestRow = Omit<CardRequest, 'deleted'> & { deleted?: boolean; server?: CardRequest };
export type CardRequestEngineRow = CardRequest & { server: CardRequest | undefined };

export const cardRequestCollection = specCollection<'card_requests', AnyCardRequestRow, CardRequestEngineRow>(cardRequestEntity, {
  server: serverCardRequests,
  engine: engineCardRequests,
  stored: storedCardRequests,
});
