import { ENTITIES, REFERENCE_COLLECTIONS, type ReferenceCollection, type RowOf } from '../schema/collections.ts';
import type { ReferenceData } from './contracts/views.ts';

/**
 * Reference data in memory (every collection without a query spec: users, departments,
 * locations, GL accounts, tracking categories, cards): small, read on every search-text build
 * and by the UI's pickers. One map per collection of REFERENCE_COLLECTIONS, whatever the mirror
 * stores it in (its own RxDB collection or `refs`). What a queried row's text takes from here is
 * the queried collection's business (workers/collections/).
 */
export type ReferenceMaps = { readonly [K in ReferenceCollection]: ReadonlyMap<string, RowOf<K>> };
type WritableMaps = { readonly [K in ReferenceCollection]: Map<string, RowOf<K>> };
type Identified<K extends ReferenceCollection> = RowOf<K> & { id: string };

/** How many of `rows` match `where` (pure; the worker's cheap "any of kind" read). */
export function countMatching(rows: Iterable<object>, where: Readonly<Record<string, unknown>> = {}): number {
  const fields = Object.entries(where).filter(([, v]) => v !== undefined);
  let n = 0;
  for (const row of rows) if (fields.every(([f, v]) => (row as Record<string, unknown>)[f] === v)) n++;
  return n;
}

/** The UI's ReferenceData is exactly one row list per reference collection (checked here). */
type Rows = { [K in ReferenceCollection]: RowOf<K>[] };
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const referenceDataMatches: Same<Rows, ReferenceData> = true;
void referenceDataMatches;

export class ReferenceCache {
  private readonly data = Object.fromEntries(REFERENCE_COLLECTIONS.map((k) => [k, new Map()])) as unknown as WritableMaps;
  private readonly versions = new Map<ReferenceCollection, number>();

  /** The live maps (read-only views): text builders hold them, so a lookup is one Map.get. */
  get maps(): ReferenceMaps {
    return this.data;
  }

  /** Bumped by every change of the kind (for views derived from it, rebuilt on demand). */
  version(kind: ReferenceCollection): number {
    return this.versions.get(kind) ?? 0;
  }

  /**
   * Applies upserts and removals; returns the ids whose shown text may have changed (its
   * definition's `searchText` fields), so the rows referring to them are re-indexed for search.
   */
  apply<K extends ReferenceCollection>(kind: K, upserts: readonly Identified<K>[], removals: readonly string[]): string[] {
    const map = this.data[kind] as Map<string, Identified<K>>;
    const fields = ENTITIES[kind].searchText as readonly (keyof RowOf<K>)[];
    const shown = (row: RowOf<K>) => JSON.stringify(fields.map((f) => row[f]));
    const changed: string[] = [];
    for (const row of upserts) {
      const old = map.get(row.id);
      map.set(row.id, row);
      if (!old || shown(old) !== shown(row)) changed.push(row.id);
    }
    for (const id of removals) if (map.delete(id)) changed.push(id);
    if (upserts.length > 0 || removals.length > 0) this.versions.set(kind, this.version(kind) + 1);
    return changed;
  }

  snapshot(): ReferenceData {
    return Object.fromEntries(REFERENCE_COLLECTIONS.map((k) => [k, [...this.data[k].values()]])) as unknown as ReferenceData;
  }
}
