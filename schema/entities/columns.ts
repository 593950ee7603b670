/**
 * Issue 26: an entity's columns, written once beside its zod schema. A column map says, for each
 * field of the wire row, where the field lives in the table and how the feed's document reads it;
 * the server's doc SQL (`docSqlOf`) and the worker's row shapers (`shaperSource`, generated into
 * workers/collections/generated/<collection>.ts) are derived from it, so adding a field to a mirrored
 * entity is the entity file, a migration and the UI that shows it.
 * Pure: strings in, strings out (no database, no eval: the app's CSP refuses `new Function`).
 */
import type { z } from 'zod';

/** The column's PostgreSQL type, which picks how the doc reads it (`defaultDocSql`). */
export type SqlType =
  | 'uuid' | 'text' | 'int' | 'bigint' | 'bool' | 'numeric' | 'timestamptz' | 'date' | 'jsonb' | 'text[]' | 'uuid[]';

/**
 * What a field reads as in a row the worker stored before the field existed (mirror rows are
 * re-pulled on a schema bump, but wire rows of older servers and outbox copies may lack it).
 */
export type Missing = 'null' | 'empty list' | 'empty object';

export interface Column {
  type: SqlType;
  /** The table's column, when it is not named as the field. */
  column?: string;
  /** The doc's value as SQL over the row alias `r`, when it is not the column read by its type (subqueries, nested objects). */
  sql?: string;
  /** See Missing; without it the worker's shapers copy the field as is (an optional one stays undefined). */
  missing?: Missing;
  /** An index of the table holds this column (server/domain/collection-docs.test.ts checks it). */
  indexed?: boolean;
  /**
   * `false`: on the wire but not kept in the mirror's documents (`deleted`: the worker holds live
   * rows only, so its shapers write `false`).
   */
  mirrored?: false;
}

/** One column per field of the row: a field added to the zod schema without its column does not compile. */
export type ColumnMap<Row> = { readonly [K in keyof Row]-?: Column };

/** The fields every mirrored row carries (schema/entities/common.ts `mirroredFields`). */
export const MIRRORED_COLUMNS = {
  business_id: { type: 'uuid', indexed: true },
  change_seq: { type: 'bigint', indexed: true },
  updated_at: { type: 'timestamptz' },
  deleted: { type: 'bool', mirrored: false },
} as const satisfies Record<string, Column>;

/** The primary key: every mirrored table's `id` (indexed as the key). */
const ID_COLUMN = { type: 'uuid', indexed: true } as const satisfies Column;

/** Wrappers that do not change what a field holds (nullable, optional, defaults, brands). */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

interface ZodNode {
  _zod: { def: { type: string; format?: string; innerType?: ZodNode; in?: ZodNode; out?: ZodNode; element?: ZodNode } };
  isInt?: boolean;
}

/** The value a zod field holds, past its wrappers (a pipe's output; a transform's input). */
function heldType(t: ZodNode): ZodNode {
  for (;;) {
    const def = t._zod.def;
    if (WRAPPERS.has(def.type)) t = def.innerType!;
    else if (def.type === 'pipe') t = def.out!._zod.def.type === 'transform' ? def.in! : def.out!;
    else return t;
  }
}

/**
 * The column type a zod field is stored in by default: `z.uuid()` → uuid, an ISO date-time →
 * timestamptz, an ISO date → date, other strings and enums → text, boolean → bool, an integer →
 * bigint (zod's safe integers need 53 bits: a narrower `int` column is an exception the entity
 * names), another number → numeric, a list of uuids or strings → uuid[] / text[], anything else
 * (objects, lists of objects, records) → jsonb.
 */
function sqlTypeOf(field: z.ZodType): SqlType {
  const held = heldType(field as unknown as ZodNode);
  const def = held._zod.def;
  switch (def.type) {
    case 'string':
      return def.format === 'uuid' ? 'uuid' : def.format === 'datetime' ? 'timestamptz' : def.format === 'date' ? 'date' : 'text';
    case 'enum':
    case 'literal':
      return 'text';
    case 'boolean':
      return 'bool';
    case 'number':
      return held.isInt ? 'bigint' : 'numeric';
    case 'array': {
      const item = sqlTypeOf(def.element as unknown as z.ZodType);
      return item === 'uuid' ? 'uuid[]' : item === 'text' ? 'text[]' : 'jsonb';
    }
    default:
      return 'jsonb';
  }
}

/** What an entity says of its columns beyond its zod schema: per field, what differs from the inferred column. */
export type ColumnExceptions<Row> = { readonly [K in keyof Row]?: Partial<Column> };

/**
 * The column map inferred from the zod schema, in its field order: each field's type by
 * `sqlTypeOf`, `id` the indexed primary key, the mirrored fields as `MIRRORED_COLUMNS`; the entity
 * lists only what differs (`exceptions`: another column name, a computed `sql`, `missing`,
 * `indexed`, an `int` column).
 */
export function columnsOf<S extends z.ZodObject>(schema: S, exceptions: ColumnExceptions<z.output<S>> = {}): ColumnMap<z.output<S>> {
  const known: Readonly<Record<string, Column>> = { id: ID_COLUMN, ...MIRRORED_COLUMNS };
  const given = exceptions as Readonly<Record<string, Partial<Column> | undefined>>;
  const map: Record<string, Column> = {};
  for (const [field, type] of Object.entries(schema.shape)) {
    map[field] = { type: sqlTypeOf(type as z.ZodType), ...known[field], ...given[field] };
  }
  return map as ColumnMap<z.output<S>>;
}

/** The table column a field reads. */
export const columnOf = (field: string, col: Column): string => col.column ?? field;

/** How the doc reads a column of this type: timestamps through ll_iso (PGlite and PostgreSQL alike), days as ISO dates. */
function defaultDocSql(field: string, col: Column): string {
  const ref = `r.${columnOf(field, col)}`;
  switch (col.type) {
    case 'timestamptz':
      return `ll_iso(${ref})`;
    case 'date':
      return `to_char(${ref}, 'YYYY-MM-DD')`;
    case 'text[]':
    case 'uuid[]':
      return `to_jsonb(${ref})`;
    case 'numeric':
      return `${ref}::float8`;
    default:
      return ref;
  }
}

/** The doc value of one field as SQL over `r`. */
const fieldDocSql = (field: string, col: Column): string => col.sql ?? defaultDocSql(field, col);

/**
 * The wire row built in SQL as jsonb (reads alias `r`). jsonb_build_object takes at most 100
 * arguments: past 50 fields the object is built in parts joined with `||`.
 */
export function docSqlOf(columns: Readonly<Record<string, Column>>): string {
  const pairs = Object.entries(columns).map(([field, col]) => `'${field}', ${fieldDocSql(field, col)}`);
  const parts: string[] = [];
  for (let i = 0; i < pairs.length; i += 50) parts.push(`jsonb_build_object(\n    ${pairs.slice(i, i + 50).join(',\n    ')})`);
  return parts.join(' || ');
}

const MISSING_JS: Record<Missing, string> = { null: 'null', 'empty list': 'NO_ITEMS', 'empty object': 'NO_ENTRIES' };

/** What the generated shapers need of a definition besides its columns. */
export interface ShaperDef {
  name: string;
  columns: Readonly<Record<string, Column>>;
  mirror: { negatedTime?: { field: string; of: string } };
}

const pascal = (name: string) => name.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());

/**
 * The worker's three row shapers of one collection as TypeScript source: each an object literal
 * naming every field in the column map's order, so every row of a collection shares one hidden
 * class (as the hand-written transaction shapers did). `server`: the wire row (`deleted: false`);
 * `engine`: the row as shown, the negated time and the confirmed `server` row underneath;
 * `stored`: what the mirror keeps (no `mirrored: false` field, the negated time).
 */
export function shaperSource(def: ShaperDef): string {
  const type = `RowOf<'${def.name}'>`;
  const fields = Object.entries(def.columns);
  const value = (field: string, col: Column) =>
    col.mirrored === false ? 'false' : col.missing ? `r.${field} ?? ${MISSING_JS[col.missing]}` : `r.${field}`;
  const lines = (keep: (col: Column) => boolean) =>
    fields.filter(([, col]) => keep(col)).map(([field, col]) => `    ${field}: ${value(field, col)},`);
  const negated = def.mirror.negatedTime;
  const negatedLine = negated ? [`    ${negated.field}: occurredDesc(r.${negated.of} as string),`] : [];
  const name = pascal(def.name);
  return [
    `/** ${def.name}: the wire row's own fields. */`,
    `export function server${name}(r: ShaperIn<'${def.name}'>): ${type} {`,
    '  return {',
    ...lines(() => true),
    '  } as ' + type + ';',
    '}',
    '',
    `/** ${def.name}: the engine's row (shown fields, mirror-only fields, the server row underneath). */`,
    `export function engine${name}(r: ShaperIn<'${def.name}'>, server: ${type} | undefined): EngineRowFor<'${def.name}'> {`,
    '  return {',
    ...lines(() => true),
    ...negatedLine,
    '    server,',
    `  } as EngineRowFor<'${def.name}'>;`,
    '}',
    '',
    `/** ${def.name}: the row as the mirror stores it. */`,
    `export function stored${name}(r: ShaperIn<'${def.name}'>): MirroredRow<'${def.name}'> {`,
    '  return {',
    ...lines((col) => col.mirrored !== false),
    ...negatedLine,
    `  } as MirroredRow<'${def.name}'>;`,
    '}',
  ].join('\n');
}
