import { cardEntity } from '../../schema/entities/card.ts';
import { specCollection } from './spec-collection.ts';
import { engineCards, serverCards, storedCards } from './generated/cards.ts';

/**
 * cards in the worker (issue 10): built from the definition alone (spec-engine.ts; row shapers
 * generated from its columns, generated/cards.ts). A
 * business's cards number in the hundreds or thousands, so no typed sort keys are needed.
 */
export const cardCollection = specCollection(cardEntity, {
  server: serverCards, engine: engineCards, stored: storedCards,
});
