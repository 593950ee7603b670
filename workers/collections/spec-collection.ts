import type { z } from 'zod';
import type { QueriedCollection, RowOf } from '../../schema/collections.ts';
import type { QuerySpec } from '../../schema/entities/define-entity.ts';
import type { MirroredRow } from '../../schema/mirror.ts';
import { QueryEngine, type TextFilter } from '../query-engine.ts';
import { specEngine, specText } from './spec-engine.ts';
import type { EngineRowFor, ShaperIn } from './shaper-types.ts';
import type { FilterOf, SortOf, WorkerCollection } from './worker-collection.ts';

/** What a queried collection's definition gives its worker entry. */
interface SpecDef<C extends QueriedCollection> {
  name: C;
  searchText: readonly (keyof RowOf<C> & string)[];
  query: QuerySpec<RowOf<C>, z.ZodType<TextFilter>, SortOf<C>>;
}

/** A collection's generated row shapers (generated/<collection>.ts). */
export interface Shapers<C extends QueriedCollection> {
  server: (r: ShaperIn<C>) => RowOf<C>;
  engine: (r: ShaperIn<C>, server: RowOf<C> | undefined) => EngineRowFor<C>;
  stored: (row: ShaperIn<C>) => MirroredRow<C>;
}

/**
 * A queried collection's worker entry built from its definition alone: the generated shapers,
 * commands applied by the outbox index, and an engine from the query spec (its filter, its
 * comparators, the search text with the names of referenced rows). For collections small enough
 * to need no typed sort keys (transactions.ts writes its own).
 */
export function specCollection<C extends QueriedCollection>(def: SpecDef<C>, shapers: Shapers<C>): WorkerCollection<C, ShaperIn<C>, EngineRowFor<C>> {
  type E = EngineRowFor<C>;
  const query = def.query as unknown as QuerySpec<E, z.ZodType<TextFilter>, SortOf<C>>;
  return {
    name: def.name,
    rows: { server: shapers.server, engine: shapers.engine as WorkerCollection<C, ShaperIn<C>, E>['rows']['engine'], apply: (index, entry, row) => index.applyTo(entry, row) },
    stored: shapers.stored,
    engine: (refs) =>
      new QueryEngine(specEngine(query, specText<E>(def.searchText, query.referencedIds, refs))) as unknown as QueryEngine<E, FilterOf<C>, SortOf<C>>,
  };
}
