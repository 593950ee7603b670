/**
 * The shapes entity query specs share (define-entity.ts `QuerySpec`): list filters that narrow a
 * row field to the ids or statuses asked for, and the date-then-id orders. An entity uses them
 * where it really has that shape and writes its own test or order where it does not.
 */

type Compare<Row> = (a: Row, b: Row) => number;

/** a before b ascending: -1, 0 or 1 (ISO dates and times compare as text). */
export const ascending = <T extends string | number>(a: T, b: T): number => (a < b ? -1 : a > b ? 1 : 0);

/** Rows by a date (or time) field, ties by id, both in `dir`: a total order. */
export function byDateThenId<Row extends { id: string }>(field: keyof Row & string, dir: 'asc' | 'desc'): Compare<Row> {
  const s = dir === 'asc' ? 1 : -1;
  return (a, b) => (a[field] < b[field] ? -s : a[field] > b[field] ? s : a.id < b.id ? -s : a.id > b.id ? s : 0);
}

/** The filter's params that are lists. */
type ListParam<F> = { [K in keyof F]-?: NonNullable<F[K]> extends readonly unknown[] ? K : never }[keyof F];
/** The row's fields that hold one item of such a list (or null: a row without one matches no list). */
type FieldHolding<Row, Item> = { [K in keyof Row]-?: Row[K] extends Item | null ? K : never }[keyof Row];

/** One list param of a filter and the row field it narrows. */
export type ListMatch<Row, F> = {
  [P in ListParam<F>]: { param: P; field: FieldHolding<Row, NonNullable<F[P]> extends readonly (infer I)[] ? I : never> };
}[ListParam<F>];

/**
 * The structured part of a filter made of lists: a row matches when, for every list asked for
 * (present and not empty), its field is one of the list's items. A null field matches no list.
 */
export function listMatcher<Row, F>(lists: readonly ListMatch<Row, F>[]): (row: Row, filter: F) => boolean {
  return (row, filter) => {
    for (const { param, field } of lists as readonly { param: keyof F; field: keyof Row }[]) {
      const wanted = filter[param] as readonly unknown[] | undefined;
      if (wanted?.length && !wanted.includes(row[field])) return false;
    }
    return true;
  };
}

/** The ids a row names, without the empty ones (a query spec's `referencedIds`). */
export const presentIds = (...ids: (string | null | undefined)[]): string[] => ids.filter((id): id is string => !!id);
