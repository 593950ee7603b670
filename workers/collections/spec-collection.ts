import type { z } from 'zod';
import type { QueriedCollection, RowOf } from '../../schema/collections.ts';
import type { QuerySpec } from '../../schema/entities/define-entity.ts';
import type { MirroredRow } from '../../schema/mirror.ts';
import { QueryEngine, type TextFilter } from '../query-engine.ts';
import { specEngine, specText } from './spec-engine.ts';
import type { FilterOf, SortOf, WorkerCollection } from './worker-collection.ts';

/** What a queried collection's definition gives its worker entry. */
interface SpecDef<C extends QueriedCollection> {
  name: C;
  searchText: readonly (keyof RowOf<C> & string)[];
  query: QuerySpec<RowOf<C>, z.ZodType<TextFilter>, SortOf<C>>;
}

/** A collection's generated row shapers (generated/<collection>.ts). */
export interface Shapers<C extends QueriedCollection, In extends { id: string }, E extends { id: string }> {
  server: (r: In) => RowOf<C>;
  engine: (r: In | RowOf<C>, server: RowOf<C> | undefined) => E;
  stored: (row: RowOf<C>) => MirroredRow<C>;
}

/**
 * A queried collection's worker entry built from its definition alone: the generated shapers,
 * commands applied by the outbox index, and an engine from the query spec (its filter, its
 * comparators, the search text with the names of referenced rows). For collections small enough
 * to need no typed sort keys (transactions.ts writes its own).
 */
export function specCollection<C extends QueriedCollection, In extends { id: string }, E extends RowOf<C> & { id: string }>(
  def: SpecDef<C>,
  shapers: Shapers<C, In, E>,
): WorkerCollection<C, In, E> {
  const query = def.query as unknown as QuerySpec<E, z.ZodType<TextFilter>, SortOf<C>>;
  return {
    name: def.name,
    rows: { server: shapers.server, engine: shapers.engine, apply: (index, entry, row) => index.applyTo(entry, row) },
    stored: shapers.stored,
    engine: (refs) =>
      new QueryEngine(specEngine(query, specText<E>(def.searchText, query.referencedIds, refs))) as unknown as QueryEngine<E, FilterOf<C>, SortOf<C>>,
  };
}
