import type { Trip, TripStatus } from './entities/trip.ts';

/**
 * Issue 27, trips, pure. The stored status is the server's at the trip's last write (PLANNED,
 * BOOKED or CANCELED); the dates move a trip through IN_PROGRESS and COMPLETED without a write,
 * so both sides show this instead. `today` is the viewer's calendar day (YYYY-MM-DD).
 */
export function effectiveTripStatus(trip: Pick<Trip, 'status' | 'start_date' | 'end_date'>, today: string): TripStatus {
  if (trip.status === 'CANCELED') return 'CANCELED';
  if (today > trip.end_date) return 'COMPLETED';
  if (today >= trip.start_date) return 'IN_PROGRESS';
  return trip.status;
}

/**
 * The earliest calendar date anywhere on Earth at `now` (UTC−12): a trip ending before it has
 * ended everywhere, so it cannot be created (or moved there), whatever the traveller's zone.
 */
export function earliestTodayAnywhere(now: Date): string {
  return new Date(now.getTime() - 12 * 3_600_000).toISOString().slice(0, 10);
}

export type TripDates = { start_date: string; end_date: string };

/**
 * A trip's dates, as §5 field errors: the end on or after the start, and (`notEnded`: a create, or
 * an edit that moves the dates) not already over today anywhere. Both sides run it: the server
 * refuses with these words, the trip form shows them before sending.
 */
export function tripDateErrors(dates: TripDates, now: Date, notEnded: boolean): Record<string, string> {
  const errors: Record<string, string> = {};
  if (dates.end_date < dates.start_date) errors.end_date = 'end_date must be on or after start_date';
  else if (notEnded && dates.end_date < earliestTodayAnywhere(now)) errors.end_date = 'end_date must not be in the past';
  return errors;
}

/** Bookings that still hold the trip (its card is charged or an approval is pending). */
export const LIVE_BOOKING_STATUSES = ['PENDING_APPROVAL', 'BOOKED'] as const;
