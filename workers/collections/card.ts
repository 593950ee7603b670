import {
  cardEntity, type Card, type CardFilter, type cardFilterSchema, type CardSort,
} from '../../schema/entities/card.ts';
import { QueryEngine } from '../query-engine.ts';
import type { RowShape } from '../rebase.ts';
import { specEngine, specText } from './spec-engine.ts';
import type { WorkerCollection } from './worker-collection.ts';
import { engineCards, serverCards, storedCards } from './generated/cards.ts';

/**
 * cards in the worker (issue 10): built from the definition alone (spec-engine.ts; row shapers
 * generated from its columns, generated/cards.ts). A
 * business's cards number in the hundreds or thousands, so no typed sort keys are needed.
 */

export type AnyCardRow = Omit<Card, 'deleted'> & { deleted?: boolean; server?: Card };
export type CardEngineRow = Card & { server: Card | undefined };

const ROWS: RowShape<AnyCardRow, Card, CardEngineRow> = {
  server: serverCards,
  engine: engineCards,
  apply: (index, entry, row) => index.applyTo(entry, row),
};

export const cardCollection: WorkerCollection<'cards', AnyCardRow, CardEngineRow> = {
  name: 'cards',
  rows: ROWS,
  stored: storedCards,
  engine: (refs) =>
    new QueryEngine<CardEngineRow, CardFilter, CardSort>(
      specEngine<CardEngineRow, typeof cardFilterSchema, CardSort>(
        cardEntity.query,
        specText<CardEngineRow>(cardEntity.searchText, cardEntity.query.referencedIds, refs),
      ),
    ),
};
