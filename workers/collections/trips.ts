import { tripEntity, type Trip, type TripFilter, type tripFilterSchema, type TripSort } from '../../schema/entities/trip.ts';
import { QueryEngine } from '../query-engine.ts';
import type { RowShape } from '../rebase.ts';
import { specEngine, specText } from './spec-engine.ts';
import type { WorkerCollection } from './worker-collection.ts';
import { engineTrips, serverTrips, storedTrips } from './generated/trips.ts';

/**
 * trips in the worker (issue 27): built from the definition alone (spec-engine.ts; row shapers
 * generated from its columns, generated/trips.ts), as bills are. A trip's bookings, linked ids
 * and totals are inside its row, so the itinerary reads offline.
 */

export type AnyTripRow = Omit<Trip, 'deleted'> & { deleted?: boolean; server?: Trip };
export type TripEngineRow = Trip & { server: Trip | undefined };

const ROWS: RowShape<AnyTripRow, Trip, TripEngineRow> = {
  server: serverTrips,
  engine: engineTrips,
  apply: (index, entry, row) => index.applyTo(entry, row),
};

export const tripCollection: WorkerCollection<'trips', AnyTripRow, TripEngineRow> = {
  name: 'trips',
  rows: ROWS,
  stored: storedTrips,
  engine: (refs) =>
    new QueryEngine<TripEngineRow, TripFilter, TripSort>(
      specEngine<TripEngineRow, typeof tripFilterSchema, TripSort>(
        tripEntity.query,
        specText<TripEngineRow>(tripEntity.searchText, tripEntity.query.referencedIds, refs),
      ),
    ),
};
