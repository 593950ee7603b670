import type { Booking, BookingStatus, Cabin, FlightSegment, TripStatus } from '../../schema/entities/trip.ts';
import type { PillTone } from '../components/status-pill.tsx';
import { formatDay, formatMoney, formatShortDay } from './format.ts';

/**
 * Issue 27: the words of trips and bookings, shared by the Travel pages and the approvals inbox
 * (an out-of-policy booking waits there). Pure; tested.
 */
export const TRIP_STATUS_LABELS: Record<TripStatus, string> = {
  PLANNED: 'Planned',
  BOOKED: 'Booked',
  IN_PROGRESS: 'In progress',
  COMPLETED: 'Completed',
  CANCELED: 'Canceled',
};
export const TRIP_STATUS_TONES: Record<TripStatus, PillTone> = {
  PLANNED: 'neutral',
  BOOKED: 'info',
  IN_PROGRESS: 'ok',
  COMPLETED: 'neutral',
  CANCELED: 'neutral',
};
export const BOOKING_STATUS_LABELS: Record<BookingStatus, string> = {
  PENDING_APPROVAL: 'Waiting for approval',
  BOOKED: 'Booked',
  REJECTED: 'Rejected',
  CANCELED: 'Canceled',
};
export const BOOKING_STATUS_TONES: Record<BookingStatus, PillTone> = { PENDING_APPROVAL: 'warn', BOOKED: 'ok', REJECTED: 'danger', CANCELED: 'neutral' };
export const CABIN_LABELS: Record<Cabin, string> = { ECONOMY: 'Economy', PREMIUM_ECONOMY: 'Premium economy', BUSINESS: 'Business', FIRST: 'First' };

/** The local wall-clock time of an ISO date-time with offset, as written at that airport ("08:05"). */
export const localTime = (iso: string): string => iso.slice(11, 16);
/** The local calendar day of an ISO date-time with offset (the airport's day, not the viewer's). */
export const airportDay = (iso: string): string => iso.slice(0, 10);

/** "Mar 10 – Mar 14, 2026" (one year shown when both days share it). */
export function tripDates(start: string, end: string): string {
  if (start === end) return formatDay(start);
  if (start.slice(0, 4) === end.slice(0, 4)) return `${formatShortDay(start)} – ${formatDay(end)}`;
  return `${formatDay(start)} – ${formatDay(end)}`;
}

/** "2 h 05 m". */
export function durationText(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h === 0 ? `${m} m` : `${h} h ${String(m).padStart(2, '0')} m`;
}

/** "TP 1234": airline code and number as the boarding pass shows them. */
export const flightNumber = (s: Pick<FlightSegment, 'airline_code' | 'flight_number'>): string =>
  s.flight_number.startsWith(s.airline_code) ? s.flight_number : `${s.airline_code} ${s.flight_number}`;

/** "SFO → LIS" over all legs of a journey ("SFO → JFK → LIS"). */
export function routeText(segments: readonly Pick<FlightSegment, 'origin' | 'destination'>[]): string {
  if (segments.length === 0) return '';
  return [segments[0]!.origin, ...segments.map((s) => s.destination)].join(' → ');
}

/**
 * A booking in one line: "Flight SFO → LIS · Mar 10 · Economy · $612.00" or "Hotel Alfama Suites ·
 * 3 nights from Mar 10 · $540.00".
 */
export function bookingSummary(b: Pick<Booking, 'kind' | 'segments' | 'hotel' | 'price'>): string {
  const price = formatMoney(b.price.amount, b.price.currency);
  if (b.kind === 'HOTEL' && b.hotel) {
    const h = b.hotel;
    return `Hotel ${h.name} · ${h.nights} ${h.nights === 1 ? 'night' : 'nights'} from ${formatShortDay(h.check_in)} · ${price}`;
  }
  const first = b.segments[0];
  if (!first) return `Flight · ${price}`;
  return `Flight ${routeText(b.segments)} · ${formatShortDay(airportDay(first.departs_at))} · ${CABIN_LABELS[first.cabin]} · ${price}`;
}
