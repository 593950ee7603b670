import {
  cardRequestEntity, type CardRequest, type CardRequestFilter, type cardRequestFilterSchema, type CardRequestSort,
} from '../../schema/entities/card-request.ts';
import type { MirroredRow } from '../../schema/mirror.ts';
import { QueryEngine } from '../query-engine.ts';
import type { RowShape } from '../rebase.ts';
import { specEngine, specText } from './spec-engine.ts';
import type { WorkerCollection } from './worker-collection.ts';

/**
 * card_requests in the worker (issue 10): built from the definition alone (spec-engine.ts). A
 * business's card requests number in the hundreds or thousands, so no typed sort keys are needed.
 */

export type AnyCardRequestRow = Omit<CardRequest, 'deleted'> & { deleted?: boolean; server?: CardRequest };
export type CardRequestEngineRow = CardRequest & { server: CardRequest | undefined };

function serverRow(r: AnyCardRequestRow): CardRequest {
  const { server, ...row } = r;
  void server;
  return { ...row, deleted: false };
}

const ROWS: RowShape<AnyCardRequestRow, CardRequest, CardRequestEngineRow> = {
  server: serverRow,
  engine: (r, server) => ({ ...serverRow(r), server }),
  apply: (index, entry, row) => index.applyTo(entry, row),
};

function stored(r: CardRequest): MirroredRow<'card_requests'> {
  const { deleted, ...row } = r;
  void deleted;
  return row;
}

export const cardRequestCollection: WorkerCollection<'card_requests', AnyCardRequestRow, CardRequestEngineRow> = {
  name: 'card_requests',
  rows: ROWS,
  stored,
  engine: (refs) =>
    new QueryEngine<CardRequestEngineRow, CardRequestFilter, CardRequestSort>(
      specEngine<CardRequestEngineRow, typeof cardRequestFilterSchema, CardRequestSort>(
        cardRequestEntity.query,
        specText<CardRequestEngineRow>(cardRequestEntity.searchText, cardRequestEntity.query.referencedIds, refs),
      ),
    ),
};
