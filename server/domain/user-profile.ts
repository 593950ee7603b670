import { createHash } from 'node:crypto';
import {
  PROFILE_PICTURE_MAX_SIDE, PROFILE_PICTURE_MIN_SIDE, preferencesOf,
  type UserPreferences, type UserSettings, type userSettingsPatchSchema,
} from '../../schema/api/calls-users.ts';
import type { z } from 'zod';
import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { imageInfo } from './image-info.ts';

/**
 * Issue 32: a person's own settings, preferences and profile picture (user_profiles, migration
 * 084; one row per spend user, made on the first write). The picture is served by user id within
 * the business with its SHA-256 as the cache key.
 */
type Row = {
  id: string; first_name: string; last_name: string; email: string; preferred_name: string | null; timezone: string | null;
  locale: UserSettings['locale']; picture_type: 'image/png' | 'image/jpeg' | 'image/webp' | null; picture_sha256: string | null;
  picture_width: number | null; picture_height: number | null;
};

export const pictureUrl = (userId: string, sha256: string) => `/v1/auth/users/${userId}/profile-picture?v=${sha256}`;

function settingsOf(r: Row): UserSettings {
  return {
    user_id: r.id, first_name: r.first_name, last_name: r.last_name, email: r.email,
    preferred_name: r.preferred_name, timezone: r.timezone, locale: r.locale,
    picture: r.picture_type && r.picture_sha256 && r.picture_width && r.picture_height
      ? { url: pictureUrl(r.id, r.picture_sha256), sha256: r.picture_sha256, content_type: r.picture_type, width: r.picture_width, height: r.picture_height }
      : null,
  };
}

export async function readSettings(db: Queryable, businessId: string, userId: string): Promise<UserSettings> {
  const [row] = await db.query<Row>(
    `SELECT u.id::text, u.first_name, u.last_name, u.email, p.preferred_name, p.timezone, p.locale, p.picture_type, p.picture_sha256,
            p.picture_width, p.picture_height
       FROM spend_users u LEFT JOIN user_profiles p ON p.user_id = u.id
      WHERE u.business_id = $1 AND u.id = $2 AND NOT u.deleted`,
    [businessId, userId],
  );
  if (!row) throw new ApiError('REQUEST_7004');
  return settingsOf(row);
}

async function ensureRow(tx: Queryable, businessId: string, userId: string): Promise<void> {
  await tx.query(
    'INSERT INTO user_profiles (user_id, business_id) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING', [userId, businessId],
  );
}

const PATCHABLE = ['preferred_name', 'timezone', 'locale'] as const;

export async function patchSettings(
  tx: Queryable, businessId: string, userId: string, patch: z.infer<typeof userSettingsPatchSchema>, now: Date,
): Promise<UserSettings> {
  await ensureRow(tx, businessId, userId);
  const named = PATCHABLE.filter((k) => patch[k] !== undefined);
  if (named.length > 0) {
    const sets = named.map((k, i) => `${k} = $${i + 3}`).join(', ');
    await tx.query(
      `UPDATE user_profiles SET ${sets}, updated_at = $2 WHERE user_id = $1`,
      [userId, now.toISOString(), ...named.map((k) => patch[k] ?? null)],
    );
  }
  return readSettings(tx, businessId, userId);
}

export async function readPreferences(db: Queryable, userId: string): Promise<UserPreferences> {
  const [row] = await db.query<{ preferences: unknown }>('SELECT preferences FROM user_profiles WHERE user_id = $1', [userId]);
  return preferencesOf(row?.preferences ?? null);
}

export async function replacePreferences(
  tx: Queryable, businessId: string, userId: string, prefs: UserPreferences, now: Date,
): Promise<UserPreferences> {
  await ensureRow(tx, businessId, userId);
  await tx.query(
    'UPDATE user_profiles SET preferences = $2::jsonb, preferences_version = $3, updated_at = $4 WHERE user_id = $1',
    [userId, JSON.stringify(prefs), prefs.version, now.toISOString()],
  );
  return preferencesOf(prefs);
}

/** The bytes must be the image their Content-Type says, 16–2048 px a side; else 422 UPLOAD_7102 naming why. */
export async function storePicture(
  tx: Queryable, businessId: string, userId: string, declared: string, bytes: Uint8Array, now: Date,
): Promise<UserSettings> {
  const info = imageInfo(bytes);
  if (!info || info.type !== declared) {
    throw new ApiError('UPLOAD_7102', 'The file is not a PNG, JPEG or WebP image of the type it was sent as.');
  }
  const side = Math.max(info.width, info.height);
  if (side > PROFILE_PICTURE_MAX_SIDE || Math.min(info.width, info.height) < PROFILE_PICTURE_MIN_SIDE) {
    throw new ApiError('UPLOAD_7102', `A profile picture must be ${PROFILE_PICTURE_MIN_SIDE} to ${PROFILE_PICTURE_MAX_SIDE} pixels on each side; this one is ${info.width} × ${info.height}.`);
  }
  await ensureRow(tx, businessId, userId);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  await tx.query(
    `UPDATE user_profiles SET picture = $2, picture_type = $3, picture_sha256 = $4, picture_width = $5, picture_height = $6, updated_at = $7
      WHERE user_id = $1`,
    [userId, bytes, info.type, sha256, info.width, info.height, now.toISOString()],
  );
  return readSettings(tx, businessId, userId);
}

export async function removePicture(tx: Queryable, businessId: string, userId: string, now: Date): Promise<UserSettings> {
  await tx.query(
    `UPDATE user_profiles SET picture = NULL, picture_type = NULL, picture_sha256 = NULL, picture_width = NULL, picture_height = NULL,
            updated_at = $2 WHERE user_id = $1`,
    [userId, now.toISOString()],
  );
  return readSettings(tx, businessId, userId);
}

export type PictureFile = { bytes: Uint8Array; content_type: string; sha256: string };

/** A person's picture in this business (null: no such person here, or no picture). */
export async function readPicture(db: Queryable, businessId: string, userId: string): Promise<PictureFile | null> {
  const [row] = await db.query<{ picture: Uint8Array; picture_type: string; picture_sha256: string }>(
    `SELECT p.picture, p.picture_type, p.picture_sha256 FROM user_profiles p
      WHERE p.user_id = $1 AND p.business_id = $2 AND p.picture IS NOT NULL`,
    [userId, businessId],
  );
  return row ? { bytes: row.picture, content_type: row.picture_type, sha256: row.picture_sha256 } : null;
}
