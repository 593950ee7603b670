import { z } from 'zod';
import type { Trip, TripFilter, TripSort } from '../../../schema/entities/trip.ts';
import { addDays } from '../../../schema/iso-date.ts';
import { parseEachParam } from '../../lib/search-params.ts';

/**
 * /travel's URL state, flat strings (§5): the text search, whose trips (an admin sees everyone's
 * by default, anyone else their own) and the New trip dialog (`new=trip`, a link or the palette).
 * The list is always the latest start first.
 */
export const travelSearchSchema = z.object({
  q: z.string().max(200).optional(),
  who: z.enum(['mine', 'everyone']).optional(),
  new: z.enum(['trip']).optional(),
});
export type TravelSearch = z.infer<typeof travelSearchSchema>;
export const parseTravelSearch = (raw: Record<string, unknown>): TravelSearch => parseEachParam(travelSearchSchema, raw);

/** The list's order (and the trips read for suggestions): latest start first. */
export const TRIP_SORT: TripSort = 'start_desc';

/** The worker's filter: the text, and the viewer's own trips unless an admin asked for everyone's. */
export function tripFilter(search: Pick<TravelSearch, 'q' | 'who'>, viewer: { id: string; admin: boolean }): TripFilter {
  const filter: TripFilter = {};
  const q = search.q?.trim();
  if (q) filter.q = q;
  const everyone = viewer.admin && (search.who ?? 'everyone') === 'everyone';
  if (!everyone) filter.user_ids = [viewer.id];
  return filter;
}

export function tripQueryKey(filter: TripFilter): string {
  return JSON.stringify([TRIP_SORT, filter.q ?? '', filter.user_ids ?? []]);
}

/**
 * The Book page's pre-filled hotel search: from the trip's first day (today once it has begun) to
 * its last, at least one night (a one-day trip checks out the next day).
 */
export function hotelSearchInitial(trip: Pick<Trip, 'destination' | 'start_date' | 'end_date'>, today: string) {
  const checkIn = trip.start_date < today ? today : trip.start_date;
  const nextDay = addDays(checkIn, 1);
  return { city: trip.destination, check_in: checkIn, check_out: trip.end_date > nextDay ? trip.end_date : nextDay };
}
