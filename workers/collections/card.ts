import {
  cardEntity, type Card, type CardFilter, type cardFilterSchema, type CardSort,
} from '../../schema/entities/card.ts';
import type { MirroredRow } from '../../schema/mirror.ts';
import { QueryEngine } from '../query-engine.ts';
import type { RowShape } from '../rebase.ts';
import { specEngine, specText } from './spec-engine.ts';
import type { WorkerCollection } from './worker-collection.ts';

/**
 * cards in the worker (issue 10): built from the definition alone (spec-engine.ts). A
 * business's cards number in the hundreds or thousands, so no typed sort keys are needed.
 */

export type AnyCardRow = Omit<Card, 'deleted'> & { deleted?: boolean; server?: Card };
export type CardEngineRow = Card & { server: Card | undefined };

function serverRow(r: AnyCardRow): Card {
  const { server, ...row } = r;
  void server;
  return { ...row, deleted: false };
}

const ROWS: RowShape<AnyCardRow, Card, CardEngineRow> = {
  server: serverRow,
  engine: (r, server) => ({ ...serverRow(r), server }),
  apply: (index, entry, row) => index.applyTo(entry, row),
};

function stored(r: Card): MirroredRow<'cards'> {
  const { deleted, ...row } = r;
  void deleted;
  return row;
}

export const cardCollection: WorkerCollection<'cards', AnyCardRow, CardEngineRow> = {
  name: 'cards',
  rows: ROWS,
  stored,
  engine: (refs) =>
    new QueryEngine<CardEngineRow, CardFilter, CardSort>(
      specEngine<CardEngineRow, typeof cardFilterSchema, CardSort>(
        cardEntity.query,
        specText<CardEngineRow>(cardEntity.searchText, cardEntity.query.referencedIds, refs),
      ),
    ),
};
