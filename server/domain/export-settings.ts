import { isAdmin } from '../../schema/roles.ts';
import {
  availableColumns, chosenColumns, defaultColumnKeys, unknownColumnKeys,
  type ExportSettings, type ExportTable, type PrimaryCardQuery, type PrimaryCardRow,
} from '../../schema/export-settings.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError, validationError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { CARD_DOC } from './cards.ts';
import { escapeLike } from './transaction-sql.ts';

/**
 * Export table user-settings (issue 32): one row per person and table, the chosen column keys in
 * order. Reading answers the keys that still exist (a removed column drops out); none saved is
 * every column in the default order. Each person reads and writes only their own.
 */
type SettingsRow = { columns: unknown; updated_at: Date | string };

async function storedRow(db: Queryable, user: ActingUser, table: ExportTable): Promise<SettingsRow | null> {
  const rows = await db.query<SettingsRow>(
    'SELECT columns, updated_at FROM export_settings WHERE business_id = $1 AND user_id = $2 AND table_name = $3',
    [user.business_id, user.id, table],
  );
  return rows[0] ?? null;
}

/** The caller's saved keys of a table that still exist, or null (the default). */
async function savedColumnKeys(db: Queryable, user: ActingUser, table: ExportTable): Promise<string[] | null> {
  const row = await storedRow(db, user, table);
  if (!row || !Array.isArray(row.columns)) return null;
  const known = new Set(defaultColumnKeys(table));
  const keys = row.columns.filter((k): k is string => typeof k === 'string' && known.has(k));
  return keys.length > 0 ? keys : null;
}

export async function exportSettingsOf(db: Queryable, user: ActingUser, table: ExportTable): Promise<ExportSettings> {
  const row = await storedRow(db, user, table);
  const keys = await savedColumnKeys(db, user, table);
  return {
    table,
    columns: keys ?? defaultColumnKeys(table),
    available: availableColumns(table),
    customized: keys !== null,
    updated_at: keys && row ? new Date(row.updated_at).toISOString() : null,
  };
}

export async function saveExportSettings(db: Queryable, user: ActingUser, table: ExportTable, columns: string[], now: Date): Promise<ExportSettings> {
  const unknown = unknownColumnKeys(table, columns);
  if (unknown.length > 0) {
    throw validationError(Object.fromEntries(unknown.map((k) => [`columns.${columns.indexOf(k)}`, `columns.${columns.indexOf(k)} must be one of ${defaultColumnKeys(table).join(', ')}`])));
  }
  await db.query(
    `INSERT INTO export_settings (business_id, user_id, table_name, columns, updated_at) VALUES ($1, $2, $3, $4::jsonb, $5)
      ON CONFLICT (user_id, table_name) DO UPDATE SET columns = EXCLUDED.columns, updated_at = EXCLUDED.updated_at`,
    [user.business_id, user.id, table, JSON.stringify(columns), now],
  );
  return exportSettingsOf(db, user, table);
}

export async function resetExportSettings(db: Queryable, user: ActingUser, table: ExportTable): Promise<ExportSettings> {
  await db.query('DELETE FROM export_settings WHERE business_id = $1 AND user_id = $2 AND table_name = $3', [user.business_id, user.id, table]);
  return exportSettingsOf(db, user, table);
}

/** The caller's chosen columns of a table (all of them when none are saved). */
export async function exportColumnsOf<R>(db: Queryable, user: ActingUser, table: ExportTable) {
  return chosenColumns<R>(table, await savedColumnKeys(db, user, table));
}

/**
 * §7 "export of primary cards (query)": each person's primary live card (not terminated, not
 * deleted) in the caller's business, owners and admins only, filtered by the cardholder's
 * department, the card's status and the words of `q` (each must appear in the name, email, card
 * name or last four), by cardholder name.
 */
export async function primaryCardRows(db: Queryable, user: ActingUser, query: PrimaryCardQuery): Promise<PrimaryCardRow[]> {
  if (!isAdmin(user)) throw new ApiError('FORBIDDEN_7003', 'Only owners and admins can export primary cards.');
  const params: unknown[] = [user.business_id];
  const where = [`r.business_id = $1`, `r.is_primary`, `r.status <> 'TERMINATED'`, `NOT r.deleted`, `NOT u.deleted`];
  if (query.department_id) {
    params.push(query.department_id);
    where.push(`u.department_id = $${params.length}`);
  }
  if (query.status) {
    params.push(query.status);
    where.push(`r.status = $${params.length}`);
  }
  for (const word of (query.q ?? '').toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8)) {
    params.push(`%${escapeLike(word)}%`);
    const p = `$${params.length}`;
    where.push(`(lower(u.first_name || ' ' || u.last_name) LIKE ${p} OR lower(u.email) LIKE ${p} OR lower(r.display_name) LIKE ${p} OR coalesce(r.last_four, '') LIKE ${p})`);
  }
  const rows = await db.query<{ card: PrimaryCardRow['card']; first_name: string; last_name: string; email: string; department_id: string | null; location_id: string | null }>(
    `SELECT ${CARD_DOC} AS card, u.first_name, u.last_name, u.email, u.department_id::text, u.location_id::text
       FROM cards r JOIN spend_users u ON u.id = r.user_id AND u.business_id = r.business_id
      WHERE ${where.join(' AND ')}
      ORDER BY lower(u.last_name), lower(u.first_name), u.id`,
    params,
  );
  return rows.map((r) => ({
    card: r.card, cardholder: `${r.first_name} ${r.last_name}`.trim(), email: r.email, department_id: r.department_id, location_id: r.location_id,
  }));
}

export const primaryCardsFileName = (now: Date): string => `primary-cards-${now.toISOString().slice(0, 10)}.csv`;
