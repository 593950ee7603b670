import { useCallback } from 'react';
import { getRouteApi, Link } from '@tanstack/react-router';
import { isAdmin } from '../../../schema/roles.ts';
import type { SpendSuggestion } from '../../../schema/travel-spend.ts';
import { buttonClass } from '../../components/button.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { PageSkeleton } from '../../components/page-skeleton.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { SyncMark } from '../../components/sync-mark.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { localDay as localToday } from '../../lib/bill-labels.ts';
import { errorText } from '../../lib/error-text.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import { ItineraryView } from './itinerary-view.tsx';
import { SpendSummary, SuggestedSpend } from './trip-spend.tsx';
import { tripLine } from './trip-view.ts';
import { useTrip } from './use-trip.ts';

const routeApi = getRouteApi('/_app/travel/trips/$tripId');

/** The linkSpend / unlinkSpend body for one row. */
const spendBody = (kind: 'transaction' | 'claim', id: string) => ({
  transaction_ids: kind === 'transaction' ? [id] : [],
  reimbursement_ids: kind === 'claim' ? [id] : [],
});

/**
 * Issue 27: /travel/trips/$tripId, read fully offline from the mirror: the header (name, city,
 * dates, status by the dates, total against budget and what it includes), Book and Add per diem,
 * the day-by-day itinerary (flights in local times with codes, the hotel, linked card spend and
 * claims on their days, Unlink) and the suggested spend with Link (commands: offline too).
 */
export function TripPage() {
  const { tripId } = routeApi.useParams();
  const client = useDataClient();
  const session = useAppState((s) => s.session);
  const dataVersion = useAppState((s) => s.dataVersion);
  const data = useTrip(client, tripId, dataVersion);
  const today = localToday();

  const runLink = useCallback(
    async (name: 'trip.linkSpend' | 'trip.unlinkSpend', kind: 'transaction' | 'claim', id: string, label: string) => {
      const result = await client.run(name, { trip_id: tripId, ...spendBody(kind, id) });
      if (!result.ok) return toastError(errorText(result.error));
      toastInfo(`${label} ${name === 'trip.linkSpend' ? 'linked to' : 'unlinked from'} the trip. It syncs in the background.`);
    },
    [client, tripId],
  );
  const onLink = useCallback((s: SpendSuggestion) => void runLink('trip.linkSpend', s.kind, s.id, s.label), [runLink]);
  const onUnlink = useCallback((kind: 'transaction' | 'claim', id: string, label: string) => void runLink('trip.unlinkSpend', kind, id, label), [runLink]);

  if (data === undefined) return <PageSkeleton title="Trip" className="page trip-page" />;
  if (data === null) {
    return (
      <div className="page trip-page">
        <EmptyState title="Trip not found" level={1} action={<Link to="/travel" className={buttonClass({ variant: 'primary' })}>Go to travel</Link>}>
          It may have been deleted, or it has not reached this device yet.
        </EmptyState>
      </div>
    );
  }
  const { trip, summary } = data;
  const line = tripLine(trip, today);
  const mayLink = session !== null && (session.user.id === trip.user_id || isAdmin(session.user)) && trip.status !== 'CANCELED';
  const mine = session?.user.id === trip.user_id;
  const live = trip.status !== 'CANCELED';
  return (
    <div className="page trip-page">
      <div className="trip-layout">
        <nav aria-label="Breadcrumb" className="trip-crumbs">
          <Link to="/travel">Travel</Link> <span aria-hidden="true">/</span> <span aria-current="page">{trip.name}</span>
        </nav>
        <header className="trip-header">
          <div className="trip-heading">
            <h1>{trip.name}</h1>
            <span className="marks">
              <StatusPill tone={line.tone}>{line.statusLabel}</StatusPill>
              <SyncMark row={trip} />
            </span>
          </div>
          <p className="trip-meta">
            {line.where} · {line.dates}
          </p>
          {trip.purpose && <p className="muted trip-purpose">{trip.purpose}</p>}
          <SpendSummary summary={summary} />
          {live && (
            <div className="trip-actions">
              <Link to="/travel/trips/$tripId/book" params={{ tripId }} className={buttonClass({ variant: 'primary' })}>
                Book flights and hotels
              </Link>
              {mine && (
                <Link
                  to="/reimbursements"
                  search={{ new: 'per_diem', location: trip.destination_name, start: trip.start_date, end: trip.end_date, trip: trip.id }}
                  className={buttonClass({})}
                >
                  Add per diem
                </Link>
              )}
            </div>
          )}
        </header>
        <section className="trip-section" aria-labelledby="trip-itinerary">
          <h2 id="trip-itinerary">Itinerary</h2>
          {data.missing > 0 && (
            <p className="muted" role="note">
              {data.missing} linked {data.missing === 1 ? 'item is' : 'items are'} not on this device yet.
            </p>
          )}
          <ItineraryView days={data.itinerary} onUnlink={mayLink ? onUnlink : undefined} />
        </section>
        {mayLink && (
          <section className="trip-section" aria-labelledby="trip-suggested">
            <h2 id="trip-suggested">Suggested spend</h2>
            <p className="muted">Card transactions and claims of the traveller dated within the trip (a day either side), linked to no trip yet.</p>
            <SuggestedSpend suggestions={data.suggestions} onLink={onLink} />
          </section>
        )}
      </div>
    </div>
  );
}
