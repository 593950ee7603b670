import { useRef, useState } from 'react';
import type { Booking } from '../../../schema/entities/trip.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormError } from '../../components/form-error.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatMoney } from '../../lib/format.ts';
import { expiryText, flightLines, offerPrice, offerTitle, policyBadge, type Offer } from './offers.ts';

export interface OfferListProps {
  label: string;
  offers: readonly Offer[];
  now: number;
  online: boolean;
  onBook(offer: Offer): void;
}

/** Search results, cheapest first: what, price, policy badge and reasons, expiry, Book. */
export function OfferList({ label, offers, now, online, onBook }: OfferListProps) {
  if (offers.length === 0) return <p className="muted">No offers for this search. Try other dates or a nearby airport.</p>;
  return (
    <ul className="offer-list" aria-label={label}>
      {offers.map((o) => {
        const badge = policyBadge(o);
        const expiry = expiryText(o.expires_at, now);
        const title = offerTitle(o);
        return (
          <li key={o.offer_id} className="offer">
            <div className="offer-main">
              <strong className="offer-title">{title}</strong>
              {o.kind === 'FLIGHT' ? (
                flightLines(o).map((line) => (
                  <span key={line} className="offer-line">
                    {line}
                  </span>
                ))
              ) : (
                <span className="offer-line">
                  {'★'.repeat(o.hotel.stars)}
                  <span className="sr-only"> {o.hotel.stars} stars</span> · {o.hotel.address}
                </span>
              )}
              <span className="offer-policy">
                <StatusPill tone={badge.tone}>{badge.label}</StatusPill>
                {o.policy_reasons.length > 0 && <span className="muted offer-reasons">{o.policy_reasons.join(' · ')}</span>}
              </span>
            </div>
            <div className="offer-side">
              <strong className="offer-price">{offerPrice(o)}</strong>
              <span className={expiry.expired ? 'offer-expiry trip-over' : 'offer-expiry muted'}>{expiry.text}</span>
              <Button size="sm" variant={o.in_policy ? 'primary' : 'secondary'} disabled={!online || o.blocked || expiry.expired} onClick={() => onBook(o)}>
                {o.in_policy ? 'Book' : 'Request'}
                <span className="sr-only"> {title}</span>
              </Button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

export interface BookDialogProps {
  client: DataClient;
  tripId: string;
  offer: Offer;
  onClose(): void;
  onBooked(booking: Booking): void;
}

/**
 * The confirmation before money moves: what, price, "charged to the trip's virtual card", the
 * policy outcome. One Idempotency-Key per dialog, so a retried press books and charges once.
 */
export function BookDialog({ client, tripId, offer, onClose, onBooked }: BookDialogProps) {
  const badge = policyBadge(offer);
  const key = useRef(crypto.randomUUID());
  const [error, setError] = useState<string | null>(null);
  async function book(): Promise<boolean> {
    setError(null);
    const r = await client.requestBooking(tripId, offer.offer_id, key.current);
    if (!r.ok) {
      setError(errorText(r.error));
      return false;
    }
    onBooked(r.booking);
    return true;
  }
  return (
    <ConfirmDialog
      title={offer.in_policy ? 'Book and pay?' : 'Request this booking?'}
      description={offerTitle(offer)}
      confirmLabel={offer.in_policy ? `Book for ${formatMoney(offer.price.amount, offer.price.currency)}` : 'Request approval'}
      cancelLabel="Cancel"
      onClose={onClose}
      onConfirm={book}
    >
      <FormError message={error} />
      <dl className="facts">
        <dt>Price</dt>
        <dd>{offerPrice(offer)}</dd>
        <dt>Paid with</dt>
        <dd>Charged to the trip’s virtual card{offer.in_policy ? ' now' : ' when approved'}</dd>
        <dt>Policy</dt>
        <dd>
          <StatusPill tone={badge.tone}>{badge.label}</StatusPill> {badge.outcome}
          {offer.policy_reasons.length > 0 && <span className="muted"> ({offer.policy_reasons.join(' · ')})</span>}
        </dd>
      </dl>
    </ConfirmDialog>
  );
}
