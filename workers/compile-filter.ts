import type { TextFilter } from './query-engine.ts';

/**
 * A collection's filter predicate (its query spec's `matches`) made ready for a scan: null when
 * the filter holds nothing but free text (`q` is matched by the text index), else the spec's
 * predicate with the filter bound once. A hot collection compiles its own, equivalent predicate
 * (transactions: id lists as Sets, only the conditions present; workers/collections/).
 */
export function compileSpecFilter<R, F extends TextFilter>(
  matches: (row: R, filter: F) => boolean,
): (filter: F) => ((row: R) => boolean) | null {
  return (filter) => (hasStructure(filter) ? (row) => matches(row, filter) : null);
}

/** Whether a filter holds a condition besides free text. */
function hasStructure(filter: TextFilter): boolean {
  for (const [key, value] of Object.entries(filter)) if (key !== 'q' && value !== undefined) return true;
  return false;
}
