import type { z } from 'zod';
import type { QuerySpec } from '../../schema/entities/define-entity.ts';
import type { QueriedCollection } from '../../schema/collections.ts';
import type { OutboxEntry } from '../../sync/ports.ts';
import type { OutboxIndex } from '../outbox-index.ts';
import { QueryEngine, type TextFilter } from '../query-engine.ts';
import type { ReferenceCache } from '../reference-cache.ts';
import { specEngine, specText } from './spec-engine.ts';

/** The engine's row of a spec-built collection: the row as shown, the confirmed server row underneath. */
type SpecEngineRow<R> = R & { server: R | undefined };

/**
 * A queried collection built from its definition alone (issue 26): the row shapers generated
 * from its columns (generated/<collection>.ts), commands applied through the outbox index, and
 * the engine from the definition's query spec (spec-engine.ts: the spec's filter, comparators
 * over the rows, the search text with the names of the rows it references). No typed sort keys:
 * right for collections of hundreds or thousands of rows; a hot one (transactions) supplies its
 * own. The registry (index.ts) checks each result against its collection's WorkerCollection.
 */
export function specCollection<N extends QueriedCollection, R extends { id: string }, In extends { id: string }, M, F extends z.ZodType<TextFilter>, S extends string>(
  name: N,
  entity: { query: QuerySpec<R, F, S>; searchText: readonly (keyof R & string)[] },
  shapers: {
    server: (r: In) => R;
    engine: (r: In | R, server: R | undefined) => SpecEngineRow<R>;
    stored: (r: R) => M;
  },
) {
  return {
    name,
    rows: {
      server: shapers.server,
      engine: shapers.engine,
      apply: (index: OutboxIndex, entry: OutboxEntry, row: R) => index.applyTo(entry, row),
    },
    stored: shapers.stored,
    engine: (refs: ReferenceCache) =>
      new QueryEngine<SpecEngineRow<R>, z.output<F>, S>(
        specEngine<SpecEngineRow<R>, F, S>(entity.query, specText<SpecEngineRow<R>>(entity.searchText, entity.query.referencedIds, refs)),
      ),
  };
}
