import { addDays } from './iso-date.ts';

export { effectiveTripStatus } from './entities/trip.ts';

/**
 * The earliest calendar date anywhere on Earth at `now` (UTC−12): a trip ending before it has
 * ended everywhere, so it cannot be created (or moved there), whatever the traveller's zone.
 */
export function earliestTodayAnywhere(now: Date): string {
  return new Date(now.getTime() - 12 * 3_600_000).toISOString().slice(0, 10);
}

export type TripDates = { start_date: string; end_date: string };

/** The longest trip, in calendar days (first and last day counted): a year, leap day included. */
export const MAX_TRIP_DAYS = 366;
/** How far ahead a trip may start, in days after today (airlines sell about 330 days out). */
export const MAX_TRIP_LEAD_DAYS = 330;

/**
 * A trip's dates, as §5 field errors: the end on or after the start, and (`checked`: a create, or
 * an edit that moves the dates) not already over today anywhere, at most MAX_TRIP_DAYS long and
 * starting at most MAX_TRIP_LEAD_DAYS after today where the day is latest (UTC+14). Both sides run
 * it: the server refuses with these words, the trip form shows them before sending.
 */
export function tripDateErrors(dates: TripDates, now: Date, checked: boolean): Record<string, string> {
  const errors: Record<string, string> = {};
  if (dates.end_date < dates.start_date) errors.end_date = 'end_date must be on or after start_date';
  else if (checked && dates.end_date < earliestTodayAnywhere(now)) errors.end_date = 'end_date must not be in the past';
  else if (checked && dates.end_date > addDays(dates.start_date, MAX_TRIP_DAYS - 1)) errors.end_date = `a trip must not be longer than ${MAX_TRIP_DAYS} days`;
  if (!checked) return errors;
  const latestToday = new Date(now.getTime() + 14 * 3_600_000).toISOString().slice(0, 10);
  if (dates.start_date > addDays(latestToday, MAX_TRIP_LEAD_DAYS)) errors.start_date = `start_date must be at most ${MAX_TRIP_LEAD_DAYS} days ahead`;
  return errors;
}

/** Bookings that still hold the trip (its card is charged or an approval is pending). */
export const LIVE_BOOKING_STATUSES = ['PENDING_APPROVAL', 'BOOKED'] as const;
