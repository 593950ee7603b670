import type { z } from 'zod';
import { ENTITIES, REFERENCE_COLLECTIONS } from '../../schema/collections.ts';
import type { QuerySpec } from '../../schema/entities/define-entity.ts';
import { compileSpecFilter } from '../compile-filter.ts';
import type { EngineSpec, SortKeys, TextFilter } from '../query-engine.ts';
import type { ReferenceCache } from '../reference-cache.ts';

/**
 * An engine spec straight from a definition's query spec, for any queried collection without a
 * hand-tuned one: the spec's `matches` as the filter, its comparators over the rows as the sort
 * keys, and `textOf` (see `specText`). Everything is bound here, once per engine.
 */
export function specEngine<R extends { id: string }, F extends z.ZodType<TextFilter>, S extends string>(
  query: QuerySpec<R, F, S>,
  textOf: (row: R) => string,
): EngineSpec<R, z.output<F>, S> {
  return {
    sorts: query.sorts,
    textOf,
    compileFilter: compileSpecFilter(query.matches),
    sortKeys: () => comparedSortKeys(query.compare),
  };
}

/**
 * Sort keys that are the rows themselves: the spec's comparator, bound to each sort once. No
 * typed arrays, so every update re-places the row (right for small collections; a hot one
 * supplies typed keys, as transactions do).
 */
function comparedSortKeys<R, S extends string>(compare: (sort: S) => (a: R, b: R) => number): SortKeys<R, S> {
  return {
    moved: () => true,
    invalidates: () => null,
    set: () => false,
    compare: (sort, slots) => {
      const cmp = compare(sort);
      return (a, b) => cmp(slots.row(a), slots.row(b));
    },
    clear: () => undefined,
  };
}

/**
 * A row's search text from its definition: its own `searchText` fields, then the shown text
 * (the definition's `searchText`) of every reference row it names (`referencedIds`). Values
 * become words: strings and numbers as they are, lists item by item, objects by their `name`.
 */
export function specText<R>(
  fields: readonly (keyof R & string)[],
  referencedIds: (row: R) => string[],
  refs: ReferenceCache,
): (row: R) => string {
  const lookups = REFERENCE_COLLECTIONS.map((k) => ({ rows: refs.maps[k] as ReadonlyMap<string, Record<string, unknown>>, fields: ENTITIES[k].searchText }));
  const shown = (id: string): string => {
    for (const { rows, fields: shownFields } of lookups) {
      const row = rows.get(id);
      if (row) return shownFields.map((f) => wordsOf(row[f])).join(' ');
    }
    return '';
  };
  return (row) => {
    const parts = fields.map((f) => wordsOf(row[f]));
    for (const id of referencedIds(row)) parts.push(shown(id));
    return parts.join(' ');
  };
}

/** Rows naming any of `ids` (a referenced name changed: their search text is re-derived). */
export function refersTo<R>(referencedIds: (row: R) => string[], ids: ReadonlySet<string>): (row: R) => boolean {
  return (row) => referencedIds(row).some((id) => ids.has(id));
}

function wordsOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map(wordsOf).join(' ');
  if (value && typeof value === 'object' && 'name' in value) return wordsOf(value.name);
  return '';
}
