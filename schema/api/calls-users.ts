import { z } from 'zod';
import { callGroup } from './call-group.ts';
import { uploadBodySchema } from './define-call.ts';

/**
 * Issue 32 (§7 "Users and authentication"): what a person edits about themself. Legal first and
 * last names stay with the admins, SCIM and HRIS (they are the card's and the payroll's names);
 * the person sets the name the app calls them, their time zone and locale (settings), how the app
 * behaves for them (preferences: one versioned object, replaced whole), and a profile picture.
 * Another person's picture is read by id within the business; another business's id is 404.
 */
const scopes = { scopes: ['default'] } as const;
const current = callGroup('/v1/auth/users/current', scopes);

/** The locales the app formats dates and numbers in (BCP 47). */
export const USER_LOCALES = ['en-US', 'en-GB', 'en-CA', 'en-AU', 'fr-FR', 'fr-CA', 'de-DE', 'es-ES', 'es-MX', 'nl-NL', 'pt-BR', 'ja-JP'] as const;

/** An IANA time zone the runtime knows ("UTC" included). */
export function isTimeZone(tz: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(tz)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export const PREFERRED_NAME_MAX = 60;

export const profilePictureSchema = z.object({
  /** The picture's URL; `v` is its SHA-256, so a new picture is a new URL and an old one may be kept for good. */
  url: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  content_type: z.enum(['image/png', 'image/jpeg', 'image/webp']),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type ProfilePicture = z.infer<typeof profilePictureSchema>;

export const userSettingsSchema = z.object({
  user_id: z.uuid(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  /** What the app calls the person; null = their first name. */
  preferred_name: z.string().nullable(),
  /** IANA zone; null = the device's. */
  timezone: z.string().nullable(),
  /** One of USER_LOCALES; null = the browser's. */
  locale: z.enum(USER_LOCALES).nullable(),
  picture: profilePictureSchema.nullable(),
});
export type UserSettings = z.infer<typeof userSettingsSchema>;

export const userSettingsPatchSchema = z.object({
  preferred_name: z.string().trim().min(1).max(PREFERRED_NAME_MAX).nullable().optional(),
  timezone: z.string().refine(isTimeZone, { message: 'timezone must be a valid IANA time zone' }).nullable().optional(),
  locale: z.enum(USER_LOCALES).nullable().optional(),
});

/** The pages a person may land on after sign-in. */
export const LANDING_PAGES = ['/transactions', '/cards', '/reimbursements', '/approvals', '/notifications', '/reports'] as const;
export const DATE_FORMATS = ['locale', 'YYYY-MM-DD', 'DD/MM/YYYY', 'MM/DD/YYYY'] as const;
export const WEEK_STARTS = ['monday', 'sunday', 'saturday'] as const;
export const CURRENCY_VIEWS = ['original', 'business'] as const;

/**
 * The app's preferences. `version` names the shape; a stored object of an older version is read
 * through the defaults of the current one (fields it lacks take DEFAULT_PREFERENCES'). The theme
 * is not here: it is the device's (applied before the first paint from local storage).
 */
export const PREFERENCES_VERSION = 1;
export const userPreferencesSchema = z.object({
  version: z.literal(PREFERENCES_VERSION),
  landing_page: z.enum(LANDING_PAGES),
  date_format: z.enum(DATE_FORMATS),
  week_start: z.enum(WEEK_STARTS),
  /** Amounts in the charge's own currency, or converted to the business's as well. */
  currency_view: z.enum(CURRENCY_VIEWS),
});
export type UserPreferences = z.infer<typeof userPreferencesSchema>;

export const DEFAULT_PREFERENCES: UserPreferences = {
  version: PREFERENCES_VERSION, landing_page: '/transactions', date_format: 'locale', week_start: 'monday', currency_view: 'original',
};

/** A stored preferences object (any version, possibly partial) read as the current version. */
export function preferencesOf(stored: unknown): UserPreferences {
  const merged = { ...DEFAULT_PREFERENCES, ...(stored && typeof stored === 'object' ? stored : {}), version: PREFERENCES_VERSION };
  const parsed = userPreferencesSchema.safeParse(merged);
  if (parsed.success) return parsed.data;
  // A field an older version allowed and this one does not: that field's default.
  const out: Record<string, unknown> = { ...DEFAULT_PREFERENCES };
  for (const key of Object.keys(DEFAULT_PREFERENCES) as (keyof UserPreferences)[]) {
    const one = userPreferencesSchema.shape[key].safeParse((merged as Record<string, unknown>)[key]);
    if (one.success) out[key] = one.data;
  }
  return out as UserPreferences;
}

export const PROFILE_PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const PROFILE_PICTURE_MAX_BYTES = 2 * 1024 * 1024;
/** Longest side; anything larger is refused (nothing here resizes: the app scales it down before upload). */
export const PROFILE_PICTURE_MAX_SIDE = 2048;
export const PROFILE_PICTURE_MIN_SIDE = 16;

export const getUserSettings = current('users.settings.get', 'GET', '/settings', { response: userSettingsSchema });
/** Changes only the fields named; null clears one. */
export const patchUserSettings = current('users.settings.patch', 'PATCH', '/settings', {
  body: userSettingsPatchSchema, response: userSettingsSchema,
});
export const getUserPreferences = current('users.preferences.get', 'GET', '/preferences', { response: userPreferencesSchema });
/** Replaces the whole object (every field, the current version). */
export const putUserPreferences = current('users.preferences.put', 'PUT', '/preferences', {
  body: userPreferencesSchema, response: userPreferencesSchema,
});
/** The body is the image (PNG, JPEG or WebP, ≤ 2 MB, 16–2048 px a side): answers the settings. */
export const putProfilePicture = current('users.profilePicture.put', 'PUT', '/profile-picture', {
  body: uploadBodySchema, upload: { contentTypes: PROFILE_PICTURE_TYPES, maxBytes: PROFILE_PICTURE_MAX_BYTES }, response: userSettingsSchema,
});
export const deleteProfilePicture = current('users.profilePicture.delete', 'DELETE', '/profile-picture', { response: userSettingsSchema });
/** Anyone's picture in the caller's business, by user id (`v` = its sha256, for caching); 404 when none. */
export const getProfilePicture = callGroup('/v1/auth/users', scopes)('users.profilePicture.file', 'GET', '/:user_uuid/profile-picture', {
  params: z.object({ user_uuid: z.uuid() }),
  query: z.object({ v: z.string().regex(/^[0-9a-f]{64}$/).optional() }),
  response: z.string(),
});

export const USER_CALLS = [
  getUserSettings, patchUserSettings, getUserPreferences, putUserPreferences, putProfilePicture, deleteProfilePicture, getProfilePicture,
] as const;
