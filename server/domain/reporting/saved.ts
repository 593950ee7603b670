import { randomUUID } from 'node:crypto';
import type { SaveDashboardBody, SaveReportBody } from '../../../schema/api/calls-reporting.ts';
import type { Dashboard } from '../../../schema/entities/dashboard.ts';
import type { SavedReport } from '../../../schema/entities/saved-report.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError, validationError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { COLLECTIONS, writeMirrored } from '../collections.ts';
import { parseFilter } from './sources.ts';

/**
 * Saved reports and dashboards (issue 12): personal rows (visibility `self`), mirrored as
 * reference data so they open offline. Every write goes through writeMirrored (a seq per row,
 * announced on commit). Only the owner reads or writes a row: anyone else's id, in this business
 * or another, answers 404 as if it did not exist.
 */

const REPORT_DOC = COLLECTIONS.saved_reports.docSql;
const DASHBOARD_DOC = COLLECTIONS.dashboards.docSql;
const notFound = (what: string) => new ApiError('REQUEST_7004', `${what} was not found.`);

/** Who holds `id` (any business, deleted too), so a create never takes an id already used. */
async function holder(tx: Queryable, table: 'saved_reports' | 'dashboards', id: string) {
  const rows = await tx.query<{ business_id: string; owner_id: string; deleted: boolean }>(
    `SELECT business_id::text, owner_id::text, deleted FROM ${table} WHERE id = $1 FOR UPDATE`, [id]);
  return rows[0] ?? null;
}

/** The row to write: a new id, or the caller's live row (404 for anything else). */
async function target(tx: Queryable, table: 'saved_reports' | 'dashboards', user: ActingUser, id: string | undefined, what: string) {
  if (!id) return { id: randomUUID(), exists: false };
  const row = await holder(tx, table, id);
  if (!row) return { id, exists: false };
  if (row.business_id !== user.business_id || row.owner_id !== user.id || row.deleted) throw notFound(what);
  return { id, exists: true };
}

export async function saveReport(tx: Queryable, user: ActingUser, body: SaveReportBody, now: Date): Promise<{ row: SavedReport; created: boolean }> {
  // As strict as running it: a saved report must never be one the API refuses to run.
  parseFilter(body.query.collection, body.query.filters, 'query.filters');
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const { id, exists } = await target(tx, 'saved_reports', user, body.id, 'The report');
    const values = [id, user.business_id, user.id, body.name, JSON.stringify(body.query), body.chart, seqs.last, now.toISOString()];
    const rows = await tx.query<{ doc: SavedReport }>(
      exists
        ? `UPDATE saved_reports r SET name = $4, query = $5::jsonb, chart = $6, change_seq = $7, updated_at = $8
            WHERE r.id = $1 AND r.business_id = $2 AND r.owner_id = $3 RETURNING ${REPORT_DOC} AS doc`
        : `INSERT INTO saved_reports AS r (id, business_id, owner_id, name, query, chart, change_seq, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $8) RETURNING ${REPORT_DOC} AS doc`,
      values,
    );
    return { row: rows[0]!.doc, created: !exists };
  });
}

/** The caller's live reports among `ids`; the first one missing is 404. */
async function assertOwnReports(tx: Queryable, user: ActingUser, ids: readonly string[], lock: boolean): Promise<void> {
  const unique = [...new Set(ids)];
  const rows = await tx.query<{ id: string }>(
    `SELECT id::text FROM saved_reports WHERE business_id = $1 AND owner_id = $2 AND NOT deleted AND id = ANY($3::uuid[])
      ORDER BY id${lock ? ' FOR UPDATE' : ''}`,
    [user.business_id, user.id, unique],
  );
  const found = new Set(rows.map((r) => r.id));
  const missing = unique.find((id) => !found.has(id));
  if (missing) throw new ApiError('REQUEST_7004', `The report ${missing} was not found.`);
}

export async function saveDashboard(tx: Queryable, user: ActingUser, body: SaveDashboardBody, now: Date): Promise<{ row: Dashboard; created: boolean }> {
  const seen = new Map<string, number>();
  body.items.forEach((item, i) => {
    const first = seen.get(item.report_id);
    if (first !== undefined) throw validationError({ [`items.${i}.report_id`]: `items.${i}.report_id is already on this dashboard (items.${first})` });
    seen.set(item.report_id, i);
  });
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const { id, exists } = await target(tx, 'dashboards', user, body.id, 'The dashboard');
    await assertOwnReports(tx, user, body.items.map((i) => i.report_id), false);
    const values = [id, user.business_id, user.id, body.name, JSON.stringify(body.items), seqs.last, now.toISOString()];
    const rows = await tx.query<{ doc: Dashboard }>(
      exists
        ? `UPDATE dashboards r SET name = $4, items = $5::jsonb, change_seq = $6, updated_at = $7
            WHERE r.id = $1 AND r.business_id = $2 AND r.owner_id = $3 RETURNING ${DASHBOARD_DOC} AS doc`
        : `INSERT INTO dashboards AS r (id, business_id, owner_id, name, items, change_seq, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $7) RETURNING ${DASHBOARD_DOC} AS doc`,
      values,
    );
    return { row: rows[0]!.doc, created: !exists };
  });
}

/**
 * Tombstones the caller's reports (all or none: any id not theirs is 404) and takes them off the
 * caller's dashboards, each changed dashboard with a seq of its own so mirrors drop the items.
 */
export async function deleteReports(tx: Queryable, user: ActingUser, ids: readonly string[], now: Date) {
  const unique = [...new Set(ids)].sort();
  return writeMirrored(tx, user.business_id, unique.length, async ({ seqs, reserve }) => {
    await assertOwnReports(tx, user, unique, true);
    await tx.query(
      `UPDATE saved_reports r SET deleted = true, change_seq = $3 + src.ord - 1, updated_at = $4
         FROM unnest($2::uuid[]) WITH ORDINALITY AS src(id, ord) WHERE r.business_id = $1 AND r.id = src.id`,
      [user.business_id, unique, seqs.first, now.toISOString()],
    );
    const boards = await tx.query<{ id: string }>(
      `SELECT id::text FROM dashboards d WHERE business_id = $1 AND owner_id = $2 AND NOT deleted
          AND EXISTS (SELECT 1 FROM jsonb_array_elements(d.items) it WHERE it ->> 'report_id' = ANY($3::text[]))
        ORDER BY id FOR UPDATE`,
      [user.business_id, user.id, unique],
    );
    let last = seqs.last;
    if (boards.length > 0) {
      const more = await reserve(boards.length);
      last = more.last;
      await tx.query(
        `UPDATE dashboards d SET change_seq = $3 + src.ord - 1, updated_at = $5,
           items = (SELECT coalesce(jsonb_agg(it ORDER BY n), '[]'::jsonb) FROM jsonb_array_elements(d.items) WITH ORDINALITY AS x(it, n)
                     WHERE NOT (it ->> 'report_id' = ANY($4::text[])))
           FROM unnest($2::uuid[]) WITH ORDINALITY AS src(id, ord) WHERE d.business_id = $1 AND d.id = src.id`,
        [user.business_id, boards.map((b) => b.id), more.first, unique, now.toISOString()],
      );
    }
    return { deleted: unique.length, change_seq: last };
  });
}

/** Tombstones the caller's dashboards (all or none: any id not theirs is 404). */
export async function deleteDashboards(tx: Queryable, user: ActingUser, ids: readonly string[], now: Date) {
  const unique = [...new Set(ids)].sort();
  return writeMirrored(tx, user.business_id, unique.length, async ({ seqs }) => {
    const rows = await tx.query<{ id: string }>(
      `SELECT id::text FROM dashboards WHERE business_id = $1 AND owner_id = $2 AND NOT deleted AND id = ANY($3::uuid[]) ORDER BY id FOR UPDATE`,
      [user.business_id, user.id, unique],
    );
    const found = new Set(rows.map((r) => r.id));
    const missing = unique.find((id) => !found.has(id));
    if (missing) throw new ApiError('REQUEST_7004', `The dashboard ${missing} was not found.`);
    await tx.query(
      `UPDATE dashboards r SET deleted = true, change_seq = $3 + src.ord - 1, updated_at = $4
         FROM unnest($2::uuid[]) WITH ORDINALITY AS src(id, ord) WHERE r.business_id = $1 AND r.id = src.id`,
      [user.business_id, unique, seqs.first, now.toISOString()],
    );
    return { deleted: unique.length, change_seq: seqs.last };
  });
}
