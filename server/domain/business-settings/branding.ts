import { createHash } from 'node:crypto';
import { checkCardLogo, type CardBranding } from '../../../schema/card-branding.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { assertBusinessAdmin } from './contact.ts';

/**
 * Issue 32, card branding (business_card_branding, migration 085): every member reads it (cards
 * render it); owners and admins set the colour, upload the logo (schema/card-branding.ts
 * `checkCardLogo`: signature, then pixel bounds; SVG and markup refused) and remove both.
 */
const ONLY_ADMINS = 'Only owners and administrators can change the card branding.';

type Row = { color: string | null; content_type: 'image/png' | 'image/jpeg' | null; width: number | null; height: number | null; sha256: string | null; updated_at: string };

export async function readCardBranding(db: Queryable, businessId: string): Promise<CardBranding> {
  const [row] = await db.query<Row>(
    `SELECT color, logo_content_type AS content_type, logo_width AS width, logo_height AS height, logo_sha256 AS sha256, ll_iso(updated_at) AS updated_at
       FROM business_card_branding WHERE business_id = $1`, [businessId],
  );
  if (!row) return { color: null, logo: null, updated_at: null };
  return {
    color: row.color,
    logo: row.content_type ? { content_type: row.content_type, width: row.width!, height: row.height!, sha256: row.sha256! } : null,
    updated_at: row.updated_at,
  };
}

/** Sets the colour (null: the default design); a branding with neither colour nor logo is no row. */
export async function setCardColor(tx: Queryable, user: ActingUser, color: string | null, now: Date): Promise<CardBranding> {
  assertBusinessAdmin(user, ONLY_ADMINS);
  const args = [user.business_id, color, user.id, now.toISOString()];
  if (color === null) {
    // Deleting the empty row first: the table's CHECK refuses a branding with neither.
    await tx.query('DELETE FROM business_card_branding WHERE business_id = $1 AND logo_bytes IS NULL', [user.business_id]);
    await tx.query('UPDATE business_card_branding SET color = NULL, updated_by = $3, updated_at = $4 WHERE business_id = $1 AND $2::text IS NULL', args);
  } else {
    await tx.query(
      `INSERT INTO business_card_branding (business_id, color, updated_by, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (business_id) DO UPDATE SET color = $2, updated_by = $3, updated_at = $4`,
      args,
    );
  }
  return readCardBranding(tx, user.business_id);
}

export async function putCardLogo(tx: Queryable, user: ActingUser, declared: string, bytes: Uint8Array, now: Date): Promise<CardBranding> {
  assertBusinessAdmin(user, ONLY_ADMINS);
  const check = checkCardLogo(declared, bytes);
  if (!check.ok) throw new ApiError(check.code, check.message);
  const sha = createHash('sha256').update(bytes).digest('hex');
  await tx.query(
    `INSERT INTO business_card_branding (business_id, logo_content_type, logo_width, logo_height, logo_sha256, logo_bytes, updated_by, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (business_id) DO UPDATE SET logo_content_type = $2, logo_width = $3, logo_height = $4, logo_sha256 = $5, logo_bytes = $6,
       updated_by = $7, updated_at = $8`,
    [user.business_id, check.contentType, check.width, check.height, sha, Buffer.from(bytes), user.id, now.toISOString()],
  );
  return readCardBranding(tx, user.business_id);
}

export async function readCardLogo(db: Queryable, businessId: string): Promise<{ content_type: string; sha256: string; bytes: Uint8Array } | null> {
  const [row] = await db.query<{ content_type: string; sha256: string; bytes: Uint8Array }>(
    `SELECT logo_content_type AS content_type, logo_sha256 AS sha256, logo_bytes AS bytes FROM business_card_branding
      WHERE business_id = $1 AND logo_bytes IS NOT NULL`, [businessId],
  );
  return row ?? null;
}

/** The reset itself (no check): whether there was any branding. */
export async function clearCardBranding(tx: Queryable, businessId: string): Promise<boolean> {
  const gone = await tx.query('DELETE FROM business_card_branding WHERE business_id = $1 RETURNING 1', [businessId]);
  return gone.length > 0;
}

/** DELETE businesses/card-branding: logo and colour (404 when neither is set). */
export async function deleteCardBranding(tx: Queryable, user: ActingUser): Promise<CardBranding> {
  assertBusinessAdmin(user, ONLY_ADMINS);
  if (!(await clearCardBranding(tx, user.business_id))) throw new ApiError('REQUEST_7004', 'This business has no card branding.');
  return readCardBranding(tx, user.business_id);
}
