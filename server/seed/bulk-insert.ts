import type { Queryable } from '../db/db.ts';

/** A column to bulk-insert: its name and the PostgreSQL type its JSON value is read as. */
export interface BulkColumn {
  name: string;
  type: 'uuid' | 'text' | 'bigint' | 'integer' | 'numeric' | 'boolean' | 'date' | 'timestamptz' | 'jsonb' | 'bytea';
  /** Computes the value from the row (default: the row's property of the same name). */
  value?: (row: Record<string, unknown>) => unknown;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/** Rows per statement: large enough to amortise the round trip, small enough to bound memory. */
const BULK_CHUNK_SIZE = 5_000;

/**
 * Inserts rows with one `INSERT … SELECT … FROM jsonb_to_recordset($1)` per chunk: a single
 * parameter per statement works the same on PGlite and node-postgres (no driver-specific array
 * encoding), and lets jsonb columns (tracking, options, permissions) pass through untouched.
 * Table and column names are checked identifiers, never user input.
 */
export async function bulkInsert(
  tx: Queryable,
  table: string,
  columns: readonly BulkColumn[],
  rows: readonly Record<string, unknown>[],
  chunkSize = BULK_CHUNK_SIZE,
): Promise<number> {
  for (const name of [table, ...columns.map((c) => c.name)]) {
    if (!IDENTIFIER.test(name)) throw new Error(`not a plain SQL identifier: ${name}`);
  }
  // Short positional keys (c0, c1, …) and no nulls keep the JSON about a third smaller: PGlite
  // copies and parses every byte of the parameter, and that is much of a bulk insert's cost.
  const names = columns.map((c) => c.name).join(', ');
  const keys = columns.map((c, i) => `c${i}`);
  const shape = columns.map((c, i) => `${keys[i]} ${c.type}`).join(', ');
  const sql = `INSERT INTO ${table} (${names}) SELECT ${keys.join(', ')} FROM jsonb_to_recordset($1::jsonb) AS r(${shape})`;
  for (let i = 0; i < rows.length; i += chunkSize) {
    const chunk = rows.slice(i, i + chunkSize).map((row) => encodeRow(row, columns, keys));
    await tx.query(sql, [JSON.stringify(chunk)]);
  }
  return rows.length;
}

/** Only the table's columns go over the wire (entities carry computed fields the table lacks). */
function encodeRow(row: Record<string, unknown>, columns: readonly BulkColumn[], keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  columns.forEach((c, i) => {
    const value = c.value ? c.value(row) : row[c.name];
    // A missing key reads as NULL in jsonb_to_recordset, so nulls need not travel.
    if (value !== null && value !== undefined) out[keys[i] as string] = value;
  });
  return out;
}

/** Shorthand for a column list: `cols('id:uuid', 'name:text')`. */
export function cols(...specs: `${string}:${BulkColumn['type']}`[]): BulkColumn[] {
  return specs.map((spec) => {
    const [name, type] = spec.split(':') as [string, BulkColumn['type']];
    return { name, type };
  });
}
