import type { Booking, FlightSegment, HotelStay, Trip } from '../../../schema/entities/trip.ts';
import { MAX_TRIP_DAYS } from '../../../schema/travel-rules.ts';
import { addDays, type SpendClaim, type SpendTransaction } from '../../../schema/travel-spend.ts';
import { DISPLAY_LOCALE } from '../../lib/format.ts';
import { airportDay, localTime } from '../../lib/trip-labels.ts';

/**
 * The trip page's day-by-day timeline, pure: every day of the trip (and any day outside it that
 * has something on it, a flight out the evening before), each with its flights (local times at
 * the airports), the hotel's check-in and check-out, and the linked card spend and claims on
 * their dates. Canceled and rejected bookings are not on it.
 */
export type ItineraryItem =
  | { kind: 'flight'; key: string; time: string; booking: Booking; segment: FlightSegment }
  | { kind: 'check-in' | 'check-out'; key: string; time: string; booking: Booking; hotel: HotelStay }
  | { kind: 'transaction'; key: string; time: null; transaction: SpendTransaction }
  | { kind: 'claim'; key: string; time: null; claim: SpendClaim };

export interface ItineraryDay {
  date: string;
  /** "Day 2" inside the trip; "Before the trip" / "After the trip" outside it. */
  title: string;
  /** "Tue, Mar 10". */
  label: string;
  inTrip: boolean;
  items: ItineraryItem[];
}

const weekdayFormat = new Intl.DateTimeFormat(DISPLAY_LOCALE, { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });
export const dayLabel = (date: string): string => weekdayFormat.format(new Date(`${date}T00:00:00Z`));

/** Items of a day: timed ones by their local time, then card spend and claims. */
const ORDER: Record<ItineraryItem['kind'], number> = { 'check-out': 0, flight: 1, 'check-in': 1, transaction: 2, claim: 3 };
function compareItems(a: ItineraryItem, b: ItineraryItem): number {
  if (a.time !== null && b.time !== null && a.time !== b.time) return a.time < b.time ? -1 : 1;
  return ORDER[a.kind] - ORDER[b.kind] || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

export function buildItinerary(
  trip: Pick<Trip, 'start_date' | 'end_date' | 'bookings' | 'transaction_ids' | 'reimbursement_ids'>,
  linked: { transactions: readonly SpendTransaction[]; claims: readonly SpendClaim[] },
): ItineraryDay[] {
  const items: { date: string; item: ItineraryItem }[] = [];
  for (const b of trip.bookings) {
    if (b.status !== 'BOOKED' && b.status !== 'PENDING_APPROVAL') continue;
    b.segments.forEach((segment, i) =>
      items.push({ date: airportDay(segment.departs_at), item: { kind: 'flight', key: `${b.id}:${i}`, time: localTime(segment.departs_at), booking: b, segment } }),
    );
    if (b.hotel) {
      const hotel = b.hotel;
      items.push({ date: hotel.check_in, item: { kind: 'check-in', key: `${b.id}:in`, time: hotel.check_in_time, booking: b, hotel } });
      items.push({ date: hotel.check_out, item: { kind: 'check-out', key: `${b.id}:out`, time: '', booking: b, hotel } });
    }
  }
  const txIds = new Set(trip.transaction_ids);
  // A booking's own charge is the booking on the timeline, not a second line.
  const charges = new Set(trip.bookings.flatMap((b) => [b.transaction_id, b.refund_transaction_id].filter((x): x is string => x !== null)));
  for (const t of linked.transactions) {
    if (!txIds.has(t.id) || charges.has(t.id)) continue;
    items.push({ date: t.occurred_at.slice(0, 10), item: { kind: 'transaction', key: t.id, time: null, transaction: t } });
  }
  const claimIds = new Set(trip.reimbursement_ids);
  for (const c of linked.claims) {
    if (!claimIds.has(c.id)) continue;
    items.push({ date: c.type === 'PER_DIEM' && c.start_date ? c.start_date : c.transaction_date, item: { kind: 'claim', key: c.id, time: null, claim: c } });
  }
  const dates = new Set<string>();
  // At most MAX_TRIP_DAYS days, whatever the dates say (a row from before the server's limit).
  for (let d = trip.start_date, n = 0; d <= trip.end_date && n < MAX_TRIP_DAYS; d = addDays(d, 1), n++) dates.add(d);
  items.forEach((i) => dates.add(i.date));
  return [...dates].sort().map((date) => {
    const inTrip = date >= trip.start_date && date <= trip.end_date;
    const dayNumber = Math.round((Date.parse(date) - Date.parse(trip.start_date)) / 86_400_000) + 1;
    return {
      date,
      title: inTrip ? `Day ${dayNumber}` : date < trip.start_date ? 'Before the trip' : 'After the trip',
      label: dayLabel(date),
      inTrip,
      items: items.filter((i) => i.date === date).map((i) => i.item).sort(compareItems),
    };
  });
}
