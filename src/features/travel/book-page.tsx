import { useState, type ReactNode } from 'react';
import { getRouteApi, Link } from '@tanstack/react-router';
import type { FlightSearchBody, HotelSearchBody } from '../../../schema/api/calls-travel.ts';
import type { Booking } from '../../../schema/entities/trip.ts';
import { buttonClass } from '../../components/button.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { FormError } from '../../components/form-error.tsx';
import { PageSkeleton } from '../../components/page-skeleton.tsx';
import { Tabs } from '../../components/tabs.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { localDay as localToday } from '../../lib/bill-labels.ts';
import { errorText } from '../../lib/error-text.ts';
import { bookingSummary } from '../../lib/trip-labels.ts';
import { FlightSearchForm, HotelSearchForm } from './book-forms.tsx';
import { BookDialog, OfferList } from './offer-list.tsx';
import { byPrice, type Offer } from './offers.ts';
import { earnedText } from './rewards-panel.tsx';
import { hotelSearchInitial } from './search-params.ts';
import { useTripRow } from './use-trip.ts';
import { useNow } from '../../lib/use-now.ts';

const routeApi = getRouteApi('/_app/travel/trips/$tripId/book');

type Kind = 'flights' | 'hotels';
type Results = { kind: Kind; offers: Offer[] } | null;


/**
 * Issue 27: /travel/trips/$tripId/book — flight and hotel search over the server's inventory,
 * results cheapest first with policy badges and reasons and each offer's expiry, and the
 * confirmation before money moves. Online only: offline the page says so and disables the forms.
 */
export function BookPage() {
  const { tripId } = routeApi.useParams();
  const client = useDataClient();
  const online = useAppState((s) => s.online);
  const trip = useTripRow(client, tripId, useAppState((s) => s.dataVersion));
  const today = localToday();
  const now = useNow(15_000);
  const [tab, setTab] = useState<Kind>('flights');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [results, setResults] = useState<Results>(null);
  const [booking, setBooking] = useState<Offer | null>(null);
  const [booked, setBooked] = useState<Booking | null>(null);

  if (trip === undefined) return <PageSkeleton title="Book travel" className="page book-page" />;
  if (trip === null) {
    return (
      <div className="page book-page">
        <EmptyState title="Trip not found" level={1} action={<Link to="/travel" className={buttonClass({ variant: 'primary' })}>Go to travel</Link>} />
      </div>
    );
  }

  async function search(kind: Kind, run: () => Promise<{ ok: true; offers: Offer[] } | { ok: false; error: { error_code?: string; message?: string } }>) {
    setBusy(true);
    setError(null);
    setBooked(null);
    try {
      const r = await run();
      if (!r.ok) return setError(errorText(r.error));
      setResults({ kind, offers: byPrice(r.offers) });
    } finally {
      setBusy(false);
    }
  }
  const earned = booked ? earnedText(booked) : null;
  const searchFlights = (body: FlightSearchBody) => void search('flights', () => client.searchFlights(body));
  const searchHotels = (body: HotelSearchBody) => void search('hotels', () => client.searchHotels(body));
  const shown = results && results.kind === tab ? results.offers : null;
  const common = { disabled: !online || trip.status === 'CANCELED', busy, today, tripId };
  const panel = (form: ReactNode) => (
    <div className="book-panel">
      {form}
      <FormError message={error} />
      {shown && <OfferList label={tab === 'flights' ? 'Flight offers' : 'Hotel offers'} offers={shown} now={now} online={online} onBook={setBooking} />}
    </div>
  );

  return (
    <div className="page book-page">
      <div className="trip-layout">
        <nav aria-label="Breadcrumb" className="trip-crumbs">
          <Link to="/travel">Travel</Link> <span aria-hidden="true">/</span>{' '}
          <Link to="/travel/trips/$tripId" params={{ tripId }}>{trip.name}</Link> <span aria-hidden="true">/</span> <span aria-current="page">Book</span>
        </nav>
        <h1>Book travel</h1>
        {!online && (
          <p className="notice notice-warn" role="status">
            You’re offline. Searching and booking need a connection; the trip, its itinerary and confirmation codes are still here.
          </p>
        )}
        {trip.status === 'CANCELED' && <p className="notice" role="note">This trip is canceled: nothing more can be booked on it.</p>}
        {booked && (
          <div className="notice booking-result" role="status" data-testid="booking-result">
            {booked.status === 'BOOKED' ? (
              <>
                Booked: {bookingSummary(booked)}. Confirmation <strong className="mono">{booked.confirmation_code}</strong>.
                {earned && <span className="booking-reward"> {earned}</span>}
              </>
            ) : (
              <>Requested: {bookingSummary(booked)}. It waits for approval; nothing is charged until then.</>
            )}{' '}
            <Link to="/travel/trips/$tripId" params={{ tripId }}>
              Back to the trip
            </Link>
          </div>
        )}
        <Tabs
          label="What to book"
          selected={tab}
          onSelect={(k) => {
            setTab(k);
            setError(null);
          }}
          tabs={[
            {
              key: 'flights',
              label: 'Flights',
              panel: panel(
                <FlightSearchForm
                  {...common}
                  onSearch={searchFlights}
                  initial={{ origin: '', destination: trip.destination, depart_date: trip.start_date < today ? today : trip.start_date, return_date: trip.end_date, cabin: '', passengers: '1' }}
                />,
              ),
            },
            {
              key: 'hotels',
              label: 'Hotels',
              panel: panel(<HotelSearchForm {...common} onSearch={searchHotels} initial={hotelSearchInitial(trip, today)} />),
            },
          ]}
        />
      </div>
      {booking && (
        <BookDialog
          client={client}
          tripId={tripId}
          offer={booking}
          onClose={() => setBooking(null)}
          onBooked={(b) => {
            setBooking(null);
            setBooked(b);
          }}
        />
      )}
    </div>
  );
}
