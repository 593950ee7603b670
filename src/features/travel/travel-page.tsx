import { useCallback, useEffect, useMemo, useState } from 'react';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { isAdmin } from '../../../schema/roles.ts';
import { Button } from '../../components/button.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { collectionReads } from '../../lib/list/collection-reads.ts';
import type { ListFilter } from '../../lib/list/list-spec.ts';
import { ListPage } from '../../lib/list/list-page.tsx';
import { useListPage } from '../../lib/list/use-list-page.ts';
import { useRows } from '../../lib/list/use-rows.ts';
import { usePageCommands } from '../../lib/page-commands.ts';
import { useReferenceData } from '../../lib/reference-data.ts';
import { useInstantSearch } from '../../lib/use-instant-search.ts';
import { clearNewTripRequest, peekNewTripRequest, planTripCommand } from './commands.ts';
import { NewTripDialog } from './new-trip-dialog.tsx';
import { RewardsPanel } from './rewards-panel.tsx';
import { TRIP_SORT, tripFilter, tripQueryKey, type TravelSearch } from './search-params.ts';
import { localDay as localToday } from '../../lib/bill-labels.ts';
import { tripColumns, tripsSpec } from './trips-list.tsx';
import type { TripView } from './trip-view.ts';

const routeApi = getRouteApi('/_app/travel');

const WHO_OPTIONS = [
  { value: 'everyone', label: 'Everyone’s trips' },
  { value: 'mine', label: 'My trips' },
];

/**
 * Issue 27: /travel, the trips as the declarative list (the viewer's own; an admin's everyone's
 * by default), statuses by the dates (`effectiveTripStatus`), totals per currency against the
 * budget, and "Plan a trip" (a dialog: the `trip.create` command, offline too). A row opens the trip.
 * Above the list, the viewer's travel rewards (rewards-panel.tsx, online).
 */
export function TravelPage() {
  const search = routeApi.useSearch();
  const navigate = routeApi.useNavigate();
  const go = useNavigate();
  const client = useDataClient();
  const session = useAppState((s) => s.session);
  const dataVersion = useAppState((s) => s.dataVersion);
  const reference = useReferenceData(client, useAppState((s) => s.referenceVersion));
  const currency = session?.business.currency ?? 'USD';
  const admin = session ? isAdmin(session.user) : false;
  const today = localToday();

  const setSearch = useCallback(
    (patch: Partial<TravelSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true }),
    [navigate],
  );
  const writeQ = useCallback((next: string | undefined) => setSearch({ q: next }), [setSearch]);
  const [q, setQ] = useInstantSearch(search.q, writeQ);
  const viewer = useMemo(() => ({ id: session?.user.id ?? '', admin }), [session, admin]);
  const filter = useMemo(() => tripFilter({ q, who: search.who }, viewer), [q, search.who, viewer]);
  const everyone = filter.user_ids === undefined;
  const key = tripQueryKey(filter);
  const rows = useRows<TripView>({
    key,
    version: dataVersion,
    what: 'Trips',
    read: (offset, limit) => collectionReads(client).query('trips', { filter, sort: TRIP_SORT, offset, limit }) as Promise<{ rows: TripView[]; total: number }>,
  });

  const [creating, setCreating] = useState(() => peekNewTripRequest() || search.new === 'trip');
  useEffect(clearNewTripRequest, []);
  const openNew = useCallback(() => setCreating(true), []);
  usePageCommands(useMemo(() => [planTripCommand(() => setCreating(true))], []));
  const openTrip = useCallback((row: TripView) => void go({ to: '/travel/trips/$tripId', params: { tripId: row.id } }), [go]);
  const list = useListPage({ key, rows, onOpen: openTrip, dialogOpen: creating });

  const userName = reference.names.user;
  const columns = useMemo(() => tripColumns(today, everyone ? userName : null), [today, everyone, userName]);
  const who = useMemo<ListFilter | null>(
    () => (admin ? { key: 'who', label: 'Whose trips', value: search.who ?? 'everyone', options: WHO_OPTIONS, onChange: (v) => setSearch({ who: v === 'everyone' ? undefined : (v as 'mine') }) } : null),
    [admin, search.who, setSearch],
  );
  const filtered = filter.q !== undefined;
  const waiting = rows.waiting;
  const spec = useMemo(() => tripsSpec({ columns, q, setQ, who, filtered, waiting, onNew: openNew }), [columns, q, setQ, who, filtered, waiting, openNew]);

  return (
    <div className="travel">
      <div className="page-header">
        <h1>Travel</h1>
        <span className="spacer" />
        <Button variant="primary" onClick={openNew}>
          Plan a trip
        </Button>
      </div>
      <RewardsPanel currency={currency} />
      <ListPage spec={spec} list={list} loading={rows.total === null} filtered={filtered} quiet={creating} />
      {creating && (
        <NewTripDialog
          client={client}
          currency={currency}
          today={today}
          onClose={() => {
            setCreating(false);
            if (search.new) setSearch({ new: undefined });
          }}
          onCreated={(id) => {
            setCreating(false);
            void go({ to: '/travel/trips/$tripId', params: { tripId: id } });
          }}
          returnFocus={list.gridElement}
        />
      )}
    </div>
  );
}
