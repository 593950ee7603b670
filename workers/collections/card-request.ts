import { cardRequestEntity } from '../../schema/entities/card-request.ts';
import { specCollection } from './spec-collection.ts';
import { engineCardRequests, serverCardRequests, storedCardRequests } from './generated/card_requests.ts';

/**
 * card_requests in the worker (issue 10): built from the definition alone (spec-engine.ts; row
 * shapers generated from its columns, generated/card_requests.ts). A
 * business's card requests number in the hundreds or thousands, so no typed sort keys are needed.
 */
export const cardRequestCollection = specCollection(cardRequestEntity, {
  server: serverCardRequests, engine: engineCardRequests, stored: storedCardRequests,
});
