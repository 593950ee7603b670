import { Button } from '../../components/button.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { SyncMark } from '../../components/sync-mark.tsx';
import { listKeyHint } from '../../lib/list/key-hint.ts';
import type { ListColumn, ListFilter, ListSpec } from '../../lib/list/list-spec.ts';
import { tripLine, type TripView } from './trip-view.ts';

/** A trip as a card on a phone (`.grid-cards .trip-row` in travel.css has this height). */
export const TRIP_CARD_HEIGHT = 76;
const KEY_HINT = listKeyHint({});

/** The columns: trip (name, where), dates (latest first), traveller (everyone's trips), total against budget, status. */
export function tripColumns(today: string, userName: ((id: string) => string) | null): readonly ListColumn<TripView>[] {
  return [
    {
      key: 'trip',
      header: 'Trip',
      className: 'cell-trip',
      rowHeader: true,
      cell: (row) => (
        <span className="trip-name">
          <span className="trip-title">{row.name}</span>
          <span className="muted trip-where">{tripLine(row, today).where}</span>
        </span>
      ),
    },
    { key: 'dates', header: 'Dates', className: 'cell-date', sorted: 'descending', cell: (row) => tripLine(row, today).dates },
    ...(userName ? [{ key: 'traveller', header: 'Traveller', className: 'cell-traveller', cell: (row: TripView) => userName(row.user_id) || '—' }] : []),
    {
      key: 'total',
      header: 'Total',
      className: 'cell-amount',
      cell: (row) => {
        const line = tripLine(row, today);
        return (
          <span className="trip-total">
            <span>{line.total}</span>
            {line.budget && <span className="muted trip-budget">{line.budget}</span>}
          </span>
        );
      },
    },
    {
      key: 'status',
      header: 'Status',
      className: 'cell-status',
      cell: (row) => {
        const line = tripLine(row, today);
        return (
          <span className="marks">
            <StatusPill tone={line.tone}>{line.statusLabel}</StatusPill>
            <SyncMark row={row} />
          </span>
        );
      },
    },
  ];
}

export interface TripsSpecOptions {
  columns: readonly ListColumn<TripView>[];
  q: string;
  setQ(q: string): void;
  /** Admins: whose trips (everyone's or their own). */
  who: ListFilter | null;
  filtered: boolean;
  /** The first answer is still to come: no blank state yet (it would flash). */
  waiting: boolean;
  onNew(): void;
}

/** The trips list, declared: search, whose (admins), columns, the blank state with "Plan a trip", cards on a phone. */
export function tripsSpec(o: TripsSpecOptions): ListSpec<TripView> {
  return {
    label: 'Trips',
    rowIdPrefix: 'trip-row',
    rowClassName: o.columns.some((c) => c.key === 'traveller') ? 'trip-row trip-row-people' : 'trip-row',
    gridClassName: 'grid-trips',
    rowHeight: 56,
    phone: { className: 'grid-cards', rowHeight: TRIP_CARD_HEIGHT },
    columns: o.columns,
    pending: (row) => row.pending,
    search: { id: 'trip-search', label: 'Search trips', placeholder: 'Search name, destination…', value: o.q, onChange: o.setQ },
    ...(o.who ? { filters: [o.who] } : {}),
    partialNouns: ['trip', 'trips'],
    countText: (n) => `${n} ${n === 1 ? 'trip' : 'trips'}`,
    emptyText: o.filtered ? 'No trips match.' : 'No trips yet',
    ...(o.filtered ? { emptyHint: 'Try a shorter search.' } : {}),
    ...(o.waiting
      ? {}
      : {
          blank: (
            <EmptyState title="No trips yet" action={<Button variant="primary" onClick={o.onNew}>Plan a trip</Button>}>
              Plan a trip to book flights and hotels inside the travel policy and keep its card spend, claims and itinerary in one place, offline too.
            </EmptyState>
          ),
        }),
    waitingText: 'Opening your saved trips…',
    loadingWhat: 'trips',
    keyHint: KEY_HINT,
  };
}
