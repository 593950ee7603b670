/**
 * Calendar arithmetic on ISO dates (`YYYY-MM-DD`), in UTC days: no time zone moves a date. Kept
 * apart from the modules that use it so a small import (the travel routes' search defaults,
 * loaded with the router) does not pull a whole rules module into the first load.
 */
const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of an ISO date (or the date part of an ISO timestamp). */
const dayNumber = (iso: string): number => Math.round(Date.parse(`${iso.slice(0, 10)}T00:00:00Z`) / DAY_MS);

/** The ISO date `days` after `iso` (negative: before). */
export function addDays(iso: string, days: number): string {
  return new Date((dayNumber(iso) + days) * DAY_MS).toISOString().slice(0, 10);
}
