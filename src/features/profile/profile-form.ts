import {
  CURRENCY_VIEWS, DATE_FORMATS, LANDING_PAGES, PREFERRED_NAME_MAX, USER_LOCALES, WEEK_STARTS, isTimeZone,
  type UserPreferences, type UserSettings,
} from '../../../schema/api/calls-users.ts';

/** The profile form's text values (empty = use the default). */
export type ProfileForm = { preferred_name: string; timezone: string; locale: string };

export const formOf = (s: UserSettings): ProfileForm => ({ preferred_name: s.preferred_name ?? '', timezone: s.timezone ?? '', locale: s.locale ?? '' });

type Patch = { preferred_name?: string | null; timezone?: string | null; locale?: UserSettings['locale'] };

/** What PATCH sends: only what changed (empty clears), or the fields' errors. */
export function patchFrom(form: ProfileForm, saved: UserSettings): { ok: true; patch: Patch } | { ok: false; errors: Partial<Record<keyof ProfileForm, string>> } {
  const errors: Partial<Record<keyof ProfileForm, string>> = {};
  const name = form.preferred_name.trim();
  if (name.length > PREFERRED_NAME_MAX) errors.preferred_name = `At most ${PREFERRED_NAME_MAX} characters.`;
  if (form.timezone && !isTimeZone(form.timezone)) errors.timezone = 'Choose a time zone from the list.';
  if (form.locale && !(USER_LOCALES as readonly string[]).includes(form.locale)) errors.locale = 'Choose a language and region from the list.';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const patch: Patch = {};
  if ((name || null) !== saved.preferred_name) patch.preferred_name = name || null;
  if ((form.timezone || null) !== saved.timezone) patch.timezone = form.timezone || null;
  if ((form.locale || null) !== saved.locale) patch.locale = (form.locale || null) as UserSettings['locale'];
  return { ok: true, patch };
}

/** The time zones offered: the runtime's list, with the saved one kept even if the list lacks it. */
export function timeZoneChoices(saved: string | null): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const list = ['UTC', ...all.filter((z) => z !== 'UTC')];
  return saved && !list.includes(saved) ? [saved, ...list] : list;
}

const LOCALE_NAMES: Record<(typeof USER_LOCALES)[number], string> = {
  'en-US': 'English (United States)', 'en-GB': 'English (United Kingdom)', 'en-CA': 'English (Canada)', 'en-AU': 'English (Australia)',
  'fr-FR': 'Français (France)', 'fr-CA': 'Français (Canada)', 'de-DE': 'Deutsch (Deutschland)', 'es-ES': 'Español (España)',
  'es-MX': 'Español (México)', 'nl-NL': 'Nederlands (Nederland)', 'pt-BR': 'Português (Brasil)', 'ja-JP': '日本語 (日本)',
};
export const localeChoices = USER_LOCALES.map((value) => ({ value, label: LOCALE_NAMES[value] }));

const LANDING_NAMES: Record<(typeof LANDING_PAGES)[number], string> = {
  '/transactions': 'Transactions', '/cards': 'Cards', '/reimbursements': 'Reimbursements', '/approvals': 'Approvals',
  '/notifications': 'Notifications', '/reports': 'Reports',
};
const DATE_NAMES: Record<(typeof DATE_FORMATS)[number], string> = {
  locale: 'As my language and region write it', 'YYYY-MM-DD': '2026-03-31', 'DD/MM/YYYY': '31/03/2026', 'MM/DD/YYYY': '03/31/2026',
};
const WEEK_NAMES: Record<(typeof WEEK_STARTS)[number], string> = { monday: 'Monday', sunday: 'Sunday', saturday: 'Saturday' };
const CURRENCY_NAMES: Record<(typeof CURRENCY_VIEWS)[number], string> = {
  original: 'In the charge’s own currency', business: 'Also in the business’s currency',
};

/** Each preference's label and choices, in the form's order. */
export const PREFERENCE_FIELDS = [
  { key: 'landing_page', label: 'Start page', options: LANDING_PAGES.map((v) => ({ value: v, label: LANDING_NAMES[v] })) },
  { key: 'date_format', label: 'Dates', options: DATE_FORMATS.map((v) => ({ value: v, label: DATE_NAMES[v] })) },
  { key: 'week_start', label: 'Week starts on', options: WEEK_STARTS.map((v) => ({ value: v, label: WEEK_NAMES[v] })) },
  { key: 'currency_view', label: 'Amounts', options: CURRENCY_VIEWS.map((v) => ({ value: v, label: CURRENCY_NAMES[v] })) },
] as const satisfies readonly { key: Exclude<keyof UserPreferences, 'version'>; label: string; options: readonly { value: string; label: string }[] }[];

/** "Em" or the first name: what the app calls the person. */
export const calledName = (s: Pick<UserSettings, 'preferred_name' | 'first_name'>) => s.preferred_name ?? s.first_name;
