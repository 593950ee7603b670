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
