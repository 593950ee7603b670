import { createHash, randomUUID } from 'node:crypto';
import type { HrisImport, HrisImportSummary } from '../../../schema/api/calls-hris.ts';
import { hrisDiffCounts, type HrisColumn, type HrisDiff, type HrisRow, type HrisRowError } from '../../../schema/hris.ts';
import type { Queryable } from '../../db/db.ts';
import { ApiError } from '../../core/errors.ts';
import type { ConnectionRow } from './connection.ts';
import { parseHrisCsv } from './parse.ts';
import { planImport } from './plan.ts';
import { loadSnapshot } from './snapshot.ts';

/**
 * An import: one file, read and checked whole when it arrives. A file with any problem is stored
 * `invalid` with its errors (nothing to apply); a good one `ready` with its diff, until applied.
 * The parsed rows are kept so the apply can make the same plan again against the people as they
 * are then (apply.ts).
 */
export type StoredRows = { columns: HrisColumn[]; people: HrisRow[] };
export type ImportRow = {
  id: string; business_id: string; provider: string; source: 'upload' | 'drop'; file_name: string; status: HrisImport['status'];
  row_count: number; rows: StoredRows | []; errors: HrisRowError[]; diff: HrisDiff | null; created_at: string; applied_at: string | null;
  error_count: number;
};
const COMMON = `id::text, business_id::text, provider, source, file_name, status, row_count, diff, jsonb_array_length(errors) AS error_count,
  ll_iso(created_at) AS created_at, ll_iso(applied_at) AS applied_at`;
const SELECT = `SELECT ${COMMON}, rows, errors FROM hris_imports`;
/** The history reads no rows or errors (a file may hold thousands). */
const SELECT_SUMMARY = `SELECT ${COMMON}, '[]'::jsonb AS rows, '[]'::jsonb AS errors FROM hris_imports`;

export const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

type Outcome = { status: 'invalid' | 'ready'; rowCount: number; rows: StoredRows | []; errors: HrisRowError[]; diff: HrisDiff | null };

/** The file's text: UTF-8 (a byte-order mark is fine); anything else is refused as a whole-file error. */
function textOf(bytes: Uint8Array): string | null {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text.includes('\u0000') ? null : text;
  } catch {
    return null;
  }
}

export async function assess(db: Queryable, businessId: string, conn: ConnectionRow, bytes: Uint8Array, actingUserId: string): Promise<Outcome> {
  const text = textOf(bytes);
  const whole = (message: string): Outcome => ({ status: 'invalid', rowCount: 0, rows: [], errors: [{ row: 0, column: null, message }], diff: null });
  if (text === null) return whole('The file is not a UTF-8 text CSV. Export it from your HRIS as CSV (UTF-8) and try again.');
  const parsed = parseHrisCsv(text);
  if (!parsed.ok) return { status: 'invalid', rowCount: 0, rows: [], errors: parsed.errors, diff: null };
  const rows = { columns: parsed.columns, people: parsed.rows };
  const planned = planImport(parsed.rows, parsed.columns, await loadSnapshot(db, businessId), {
    invite_new_hires: conn.invite_new_hires, suspend_leavers: conn.suspend_leavers, default_role: conn.default_role, actingUserId,
  });
  if (!planned.ok) return { status: 'invalid', rowCount: parsed.rows.length, rows, errors: planned.errors, diff: null };
  return { status: 'ready', rowCount: parsed.rows.length, rows, errors: [], diff: planned.plan.diff };
}

export type NewImport = {
  businessId: string; conn: ConnectionRow; source: 'upload' | 'drop'; fileName: string; bytes: Uint8Array;
  createdBy: string | null; actingUserId: string;
};

/**
 * Stores an import of `bytes`. A dropped file is taken once per business and content (the unique
 * (business, sha256) row): when another process or an earlier poll took it, null.
 */
export async function createImport(tx: Queryable, n: NewImport): Promise<string | null> {
  const o = await assess(tx, n.businessId, n.conn, n.bytes, n.actingUserId);
  const id = randomUUID();
  const rows = await tx.query(
    `INSERT INTO hris_imports (id, business_id, provider, source, file_name, file_sha256, status, row_count, rows, errors, diff, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (business_id, file_sha256) WHERE source = 'drop' DO NOTHING RETURNING id`,
    [id, n.businessId, n.conn.provider, n.source, n.fileName, sha256Hex(n.bytes), o.status, o.rowCount, JSON.stringify(o.rows),
      JSON.stringify(o.errors), o.diff ? JSON.stringify(o.diff) : null, n.createdBy],
  );
  return rows.length > 0 ? id : null;
}

export async function loadImport(db: Queryable, businessId: string, id: string, lock = false): Promise<ImportRow> {
  const rows = await db.query<ImportRow>(`${SELECT} WHERE business_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`, [businessId, id]);
  if (!rows[0]) throw new ApiError('REQUEST_7004', 'This import was not found.');
  return rows[0];
}

export function importSummary(r: ImportRow): HrisImportSummary {
  return {
    id: r.id, source: r.source, file_name: r.file_name, status: r.status, row_count: r.row_count, error_count: Number(r.error_count),
    counts: r.diff ? hrisDiffCounts(r.diff) : null, created_at: r.created_at, applied_at: r.applied_at,
  };
}

export const importDto = (r: ImportRow): HrisImport => ({ ...importSummary(r), provider: r.provider, errors: r.errors, diff: r.diff });

export async function listImports(db: Queryable, businessId: string): Promise<HrisImportSummary[]> {
  const rows = await db.query<ImportRow>(`${SELECT_SUMMARY} WHERE business_id = $1 ORDER BY created_at DESC, id LIMIT 50`, [businessId]);
  return rows.map(importSummary);
}
