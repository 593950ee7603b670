import type { z } from 'zod';
import type { EntityOf, QueriedCollection, RowOf } from '../../schema/collections.ts';
import type { MirroredRow } from '../../schema/mirror.ts';
import type { QueryEngine, TextFilter } from '../query-engine.ts';
import type { RowShape } from '../rebase.ts';
import type { ReferenceCache } from '../reference-cache.ts';

/** A queried collection's filter, as its definition's zod schema parses it (free text in `q`). */
export type FilterOf<C extends QueriedCollection> = z.output<EntityOf<C>['query']['filter']> & TextFilter;
/** A queried collection's sort keys, as its definition lists them. */
export type SortOf<C extends QueriedCollection> = EntityOf<C>['query']['sorts'][number] & string;

/** How a mirror builds its engines. */
export interface EngineOptions {
  /** Row bodies an engine keeping only some holds in memory (issue 33; the transactions engine: default by the device's memory). */
  bodies?: number;
}

/**
 * What the worker holds for one queried collection beside its definition: how its rows are
 * shaped (stored, shown, in the engine) and how its engine is built. Everything here is built
 * once per mirror; the per-row paths are the closures it returns.
 * `In`: a row as the worker meets it (stored, wire, or engine row); `E`: the engine's row.
 */
export interface WorkerCollection<C extends QueriedCollection, In extends { id: string }, E extends { id: string }> {
  name: C;
  rows: RowShape<In, RowOf<C> & { id: string }, E>;
  /** The row as stored (no `deleted`; mirror-only fields such as a negated time added). */
  stored: (row: RowOf<C>) => MirroredRow<C>;
  engine: (refs: ReferenceCache, options?: EngineOptions) => QueryEngine<E, FilterOf<C>, SortOf<C>>;
  /**
   * Optional: the cold-start first page. Until the engine has loaded, the view with no filter
   * and this sort is read from IndexedDB through the definition's `mirror.negatedTime` index
   * (ascending = newest first), its total from the count saved with the checkpoint. Without it
   * every query of the collection waits for the load.
   */
  firstPage?: { sort: SortOf<C> };
}
