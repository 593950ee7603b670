import type { z } from 'zod';
import { columnsOf, type ColumnExceptions, type ColumnMap } from './columns.ts';

/**
 * Everything about one mirrored collection that server and client share, declared once beside
 * its zod schema (tldraw keeps a record's type, validator and migrations in one file the same
 * way). The registry in schema/collections.ts lists the definitions; every per-collection list
 * (feed, mirror JSON schemas, worker lists, server registry) is derived from it.
 */

/**
 * Who may see a collection's rows, by name; the server turns each name into SQL
 * (server/domain/visibility.ts) and the feed only sends what it allows.
 * - `business`: everyone in the business (directory, chart of accounts).
 * - `owner`: rows with a `user_id`, seen by that user, their managers up the reporting line,
 *   and the business-wide roles (§6).
 * - `approver`: rows with a `user_id` (whose claim it is), seen by who may review it (§6: admins
 *   and bookkeepers every row, a manager their team's, the manager's own included so a self-review
 *   is refused by name rather than 404); nobody else (an employee who is not a manager, an auditor).
 * - `bill_pay`: bills (issue 11): everyone who manages bill pay (§6: admin, AP clerk with
 *   AP_ACCESS, bookkeeper: `mayManageBills`) every row; anyone else the bills they created and
 *   those an `approvals` row (object_type `bill`) names them approver of.
 * - `self`: rows with an `owner_id`, seen by that user alone, whatever their role (issue 12: saved
 *   reports and dashboards are personal; `owner` would show them to managers and admins).
 * - `allocation`: spend allocations (issue 28): the business-wide roles (`canSeeAllTransactions`)
 *   every row; anyone else those they own, created or are a member of, and those a live card of
 *   theirs draws on.
 * - `spend_request`: spend requests (issue 28): the `owner` rule on `user_id`, plus whoever asked
 *   (`requested_by`) and every approver named on a step of one of its approvals (the inbox's own
 *   test), so a step approver of any role mirrors the request they decide, and keeps it after.
 * - `people`: the people of the business (issue 31): every spend user but the hidden ones (a firm
 *   user's or a vendor network admin's user in the business, `isHiddenSpendUser`), whose own row
 *   alone is theirs to see.
 */
export const VISIBILITY_RULES = ['business', 'owner', 'approver', 'bill_pay', 'self', 'allocation', 'spend_request', 'treasury', 'people'] as const;
export type VisibilityRule = (typeof VISIBILITY_RULES)[number];

/**
 * How the worker stores the collection. `own`: a collection of its own in RxDB. `ref`: small
 * reference data sharing the one `refs` RxDB collection (the free RxDB build opens 13
 * collections in all; the budget is in docs/architecture.md). Moving one is a change of this
 * word, not of the machinery (the worker resyncs a mirror stored with another layout).
 */
export type MirrorKind = 'own' | 'ref';

/**
 * A mirror-only number field holding -Date.parse(row[of]), indexed so the newest-first read
 * walks the index ascending (a descending sort on the Dexie storage scans the whole index).
 */
export interface NegatedTime<Row> {
  field: string;
  of: keyof Row & string;
}

export interface MirrorSpec<Row> {
  kind: MirrorKind;
  /** RxDB indexes; keep them few: each one is another IndexedDB write per row. */
  indexes: (string | string[])[];
  negatedTime?: NegatedTime<Row>;
}

/** What the worker's query engine needs to filter, sort and re-index a collection. */
export interface QuerySpec<Row, F extends z.ZodType, S extends string> {
  filter: F;
  sorts: readonly [S, ...S[]];
  /** The structured part of a filter; free text is matched by the text index. */
  matches: (row: Row, filter: z.output<F>) => boolean;
  compare: (sort: S) => (a: Row, b: Row) => number;
  /** Ids of other mirrored rows whose names are part of this row's search text. */
  referencedIds: (row: Row) => string[];
}

export interface EntityDef<
  N extends string,
  S extends z.ZodObject,
  M extends MirrorSpec<z.output<S>> = MirrorSpec<z.output<S>>,
  Q = undefined,
> {
  /** The collection's name on the wire, in the mirror and in the server registry. */
  name: N;
  schema: S;
  idField: 'id' & keyof z.output<S>;
  mirror: M;
  visibility: VisibilityRule;
  /** Own fields a row is found by (and shown by, for reference data). */
  searchText: readonly (keyof z.output<S> & string)[];
  query: Q;
  /**
   * Issue 26: each field's column (schema/entities/columns.ts). The server's doc SQL
   * (server/domain/collections.ts) and the worker's row shapers (workers/collections/
   * generated/<collection>.ts) are derived from it.
   */
  columns: ColumnMap<z.output<S>>;
}

export function defineEntity<
  const N extends string,
  S extends z.ZodObject,
  const M extends MirrorSpec<z.output<S>>,
  Q = undefined,
>(def: Omit<EntityDef<N, S, M, Q>, 'query' | 'idField'> & { query?: Q; idField?: 'id' }): EntityDef<N, S, M, Q> {
  // Every row is found by its `id`: the field is named here once, not by each entity.
  return { ...def, idField: 'id' as EntityDef<N, S, M, Q>['idField'], query: def.query as Q };
}

/**
 * The mirror of a collection read newest first: its own RxDB collection with one index, the
 * negated timestamp `field` of `of` (see NegatedTime), which that read walks ascending.
 */
export const newestFirst = <const F extends string, const O extends string>(field: F, of: O) =>
  ({ kind: 'own' as const, indexes: [field], negatedTime: { field, of } });

/**
 * A reference collection: small data other rows name (people, departments, vendors…), kept in the
 * worker's shared `refs` with no query spec, found by its `id`; its columns are inferred from the
 * schema (`columnsOf`) but for the `columns` it names.
 */
export function defineReference<const N extends string, S extends z.ZodObject>(
  def: Pick<EntityDef<N, S>, 'name' | 'schema' | 'visibility' | 'searchText'> & { columns?: ColumnExceptions<z.output<S>> },
) {
  return defineEntity({
    ...def,
    mirror: { kind: 'ref', indexes: [] },
    columns: columnsOf(def.schema, def.columns),
  });
}

/** A definition with any name, schema and query spec (what the registry holds). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyEntityDef = EntityDef<string, z.ZodObject, MirrorSpec<any>, any>;
