import {
  cardRequestEntity, type CardRequest, type CardRequestFilter, type cardRequestFilterSchema, type CardRequestSort,
} from '../../schema/entities/card-request.ts';
import { QueryEngine } from '../query-engine.ts';
import type { RowShape } from '../rebase.ts';
import { specEngine, specText } from './spec-engine.ts';
import type { WorkerCollection } from './worker-collection.ts';
import { engineCardRequests, serverCardRequests, storedCardRequests } from './generated/card_requests.ts';

/**
 * card_requests in the worker (issue 10): built from the definition alone (spec-engine.ts; row
 * shapers generated from its columns, generated/card_requests.ts). A
 * business's card requests number in the hundreds or thousands, so no typed sort keys are needed.
 */

export type AnyCardRequestRow = Omit<CardRequest, 'deleted'> & { deleted?: boolean; server?: CardRequest };
export type CardRequestEngineRow = CardRequest & { server: CardRequest | undefined };

const ROWS: RowShape<AnyCardRequestRow, CardRequest, CardRequestEngineRow> = {
  server: serverCardRequests,
  engine: engineCardRequests,
  apply: (index, entry, row) => index.applyTo(entry, row),
};

export const cardRequestCollection: WorkerCollection<'card_requests', AnyCardRequestRow, CardRequestEngineRow> = {
  name: 'card_requests',
  rows: ROWS,
  stored: storedCardRequests,
  engine: (refs) =>
    new QueryEngine<CardRequestEngineRow, CardRequestFilter, CardRequestSort>(
      specEngine<CardRequestEngineRow, typeof cardRequestFilterSchema, CardRequestSort>(
        cardRequestEntity.query,
        specText<CardRequestEngineRow>(cardRequestEntity.searchText, cardRequestEntity.query.referencedIds, refs),
      ),
    ),
};
