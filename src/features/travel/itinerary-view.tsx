import type { BookingStatus } from '../../../schema/entities/trip.ts';
import { claimLabel } from '../../../schema/travel-spend.ts';
import { StatusPill } from '../../components/status-pill.tsx';
import { STATUS_LABELS, STATUS_TONES } from '../../lib/claim-labels.ts';
import { formatMoney } from '../../lib/format.ts';
import { BOOKING_STATUS_LABELS, BOOKING_STATUS_TONES, CABIN_LABELS, durationText, flightNumber, localTime } from '../../lib/trip-labels.ts';
import { Button } from '../../components/button.tsx';
import type { ItineraryDay, ItineraryItem } from './itinerary.ts';

export interface ItineraryViewProps {
  days: readonly ItineraryDay[];
  /** Unlink a card transaction or claim (the owner or an admin); absent: read only. */
  onUnlink?: ((kind: 'transaction' | 'claim', id: string, label: string) => void) | undefined;
}

function Confirmation({ code }: { code: string | null }) {
  if (!code) return null;
  return (
    <span className="trip-confirmation">
      Confirmation <strong className="mono">{code}</strong>
    </span>
  );
}

function BookingState({ status }: { status: BookingStatus }) {
  if (status === 'BOOKED') return null;
  return <StatusPill tone={BOOKING_STATUS_TONES[status]}>{BOOKING_STATUS_LABELS[status]}</StatusPill>;
}

function Item({ item, onUnlink }: { item: ItineraryItem; onUnlink: ItineraryViewProps['onUnlink'] }) {
  switch (item.kind) {
    case 'flight': {
      const s = item.segment;
      return (
        <li className="itinerary-item itinerary-flight">
          <span className="itinerary-kind">Flight</span>
          <span className="itinerary-main">
            <strong>
              {localTime(s.departs_at)} {s.origin} → {localTime(s.arrives_at)} {s.destination}
            </strong>{' '}
            <span className="muted">local times · {durationText(s.duration_minutes)}</span>
          </span>
          <span className="itinerary-detail">
            {s.airline_name} {flightNumber(s)} · {CABIN_LABELS[s.cabin]} <Confirmation code={item.booking.confirmation_code} />{' '}
            <BookingState status={item.booking.status} />
          </span>
        </li>
      );
    }
    case 'check-in':
    case 'check-out': {
      const h = item.hotel;
      const checkIn = item.kind === 'check-in';
      return (
        <li className="itinerary-item itinerary-hotel">
          <span className="itinerary-kind">Hotel</span>
          <span className="itinerary-main">
            <strong>
              {checkIn ? `Check in from ${h.check_in_time}` : 'Check out'} · {h.name}
            </strong>
          </span>
          <span className="itinerary-detail">
            {checkIn && (
              <>
                {h.address} · {h.nights} {h.nights === 1 ? 'night' : 'nights'} <Confirmation code={item.booking.confirmation_code} />{' '}
                <BookingState status={item.booking.status} />
              </>
            )}
            {!checkIn && <span className="muted">{h.address}</span>}
          </span>
        </li>
      );
    }
    case 'transaction': {
      const t = item.transaction;
      return (
        <li className="itinerary-item itinerary-spend">
          <span className="itinerary-kind">Card</span>
          <span className="itinerary-main">
            <strong>{t.merchant_name}</strong> <span className="itinerary-amount">{formatMoney(t.amount, t.currency)}</span>
          </span>
          {onUnlink && (
            <Button size="sm" variant="ghost" onClick={() => onUnlink('transaction', t.id, t.merchant_name)}>
              Unlink<span className="sr-only"> {t.merchant_name}</span>
            </Button>
          )}
        </li>
      );
    }
    case 'claim': {
      const c = item.claim;
      const label = claimLabel(c);
      return (
        <li className="itinerary-item itinerary-spend">
          <span className="itinerary-kind">Claim</span>
          <span className="itinerary-main">
            <strong>{label}</strong> <span className="itinerary-amount">{formatMoney(c.amount, c.currency)}</span>{' '}
            <StatusPill tone={STATUS_TONES[c.status]}>{STATUS_LABELS[c.status]}</StatusPill>
          </span>
          {onUnlink && (
            <Button size="sm" variant="ghost" onClick={() => onUnlink('claim', c.id, label)}>
              Unlink<span className="sr-only"> {label}</span>
            </Button>
          )}
        </li>
      );
    }
  }
}

/** The day-by-day timeline: a list of days, each a heading and its items in order. */
export function ItineraryView({ days, onUnlink }: ItineraryViewProps) {
  return (
    <ol className="itinerary">
      {days.map((day) => (
        <li key={day.date} className={day.inTrip ? 'itinerary-day' : 'itinerary-day itinerary-outside'}>
          <h3 className="itinerary-day-title">
            {day.title} <span className="muted">· {day.label}</span>
          </h3>
          {day.items.length === 0 ? (
            <p className="muted itinerary-empty">Nothing planned.</p>
          ) : (
            <ul className="itinerary-items">
              {day.items.map((item) => (
                <Item key={item.key} item={item} onUnlink={onUnlink} />
              ))}
            </ul>
          )}
        </li>
      ))}
    </ol>
  );
}
