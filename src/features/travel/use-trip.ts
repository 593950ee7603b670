import { useEffect, useMemo, useState } from 'react';
import type { Trip } from '../../../schema/entities/trip.ts';
import { addDays, bookingChargeIds, SUGGEST_MARGIN_DAYS, suggestTripSpend, tripSpendSummary, type SpendSuggestion, type TripSpendSummary } from '../../../schema/travel-spend.ts';
import type { ClaimView } from '../../lib/claim-labels.ts';
import type { DataClient, TransactionView } from '../../data-access/types.ts';
import { collectionReads } from '../../lib/list/collection-reads.ts';
import { buildItinerary, type ItineraryDay } from './itinerary.ts';
import type { TripView } from './trip-view.ts';

/** Rows read per look-up: a traveller's claims and trips are far fewer; card spend in a trip's window too. */
const LIMIT = 1000;

export interface TripData {
  trip: TripView;
  /** Linked rows found on this device (card transactions and claims). */
  transactions: TransactionView[];
  claims: ClaimView[];
  /** Linked ids whose rows are not on this device (not downloaded yet, or not visible to the viewer). */
  missing: number;
  itinerary: ItineraryDay[];
  summary: TripSpendSummary;
  suggestions: SpendSuggestion[];
}

/** A trip and what was read around it, before deriving the page's data. */
export type TripRead = Omit<TripData, 'itinerary' | 'summary' | 'suggestions'> & { candidates: { transactions: TransactionView[]; claims: ClaimView[]; trips: Trip[] }; chargeTrips: Trip[] };

async function readLinked(client: DataClient, trip: Trip) {
  const reads = collectionReads(client);
  const [transactions, claims] = await Promise.all([
    Promise.all(trip.transaction_ids.map((id) => client.getTransaction(id))),
    Promise.all(trip.reimbursement_ids.map((id) => reads.get('reimbursements', id) as Promise<ClaimView | null>)),
  ]);
  return { transactions: transactions.filter((t): t is TransactionView => t !== null), claims: claims.filter((c): c is ClaimView => c !== null) };
}

/** The owner's card spend and claims around the trip and their other trips' links, for the suggestions. */
async function readCandidates(client: DataClient, trip: Trip) {
  const reads = collectionReads(client);
  const from = addDays(trip.start_date, -SUGGEST_MARGIN_DAYS);
  const to = addDays(trip.end_date, SUGGEST_MARGIN_DAYS);
  const [transactions, claims, trips] = await Promise.all([
    client.queryTransactions({ filter: { user_ids: [trip.user_id], from, to }, sort: 'occurred_asc', offset: 0, limit: LIMIT }),
    reads.query('reimbursements', { filter: { user_ids: [trip.user_id] }, sort: 'date_desc', offset: 0, limit: LIMIT }),
    reads.query('trips', { filter: { user_ids: [trip.user_id] }, sort: 'start_desc', offset: 0, limit: LIMIT }),
  ]);
  return { transactions: transactions.rows, claims: claims.rows as ClaimView[], trips: trips.rows as Trip[] };
}

/**
 * The trips whose bookings' charges must not count as this trip's linked spend (the server
 * leaves out any booking's charge or refund in the business): the owner's trips, already read for
 * the suggestions, and those of whoever owns a linked transaction (an admin may link anyone's
 * spend; a booking's charge is on its traveller's card, so it is theirs).
 */
async function readChargeTrips(client: DataClient, trip: Trip, transactions: readonly TransactionView[], ownersTrips: readonly Trip[]): Promise<Trip[]> {
  const others = [...new Set(transactions.map((t) => t.user_id))].filter((u) => u !== trip.user_id);
  if (others.length === 0) return [...ownersTrips];
  const more = await collectionReads(client).query('trips', { filter: { user_ids: others }, sort: 'start_desc', offset: 0, limit: LIMIT });
  return [...ownersTrips, ...(more.rows as Trip[])];
}

/**
 * What the trip page shows from what was read, pure: the itinerary, the spend against the budget
 * and the suggestions, every trip's booking charges left out of the linked spend as the server
 * does (schema/travel-spend.ts). Tested.
 */
export function deriveTripData(read: TripRead): TripData {
  const { candidates, chargeTrips, ...d } = read;
  const linked = { transactions: d.transactions, claims: d.claims };
  const otherTrips = chargeTrips.filter((t) => t.id !== d.trip.id);
  // Another trip's booking charge is that trip's booking, there: not a card line on this timeline.
  const elsewhere = bookingChargeIds(otherTrips);
  return {
    ...d,
    itinerary: buildItinerary(d.trip, { ...linked, transactions: d.transactions.filter((t) => !elsewhere.has(t.id)) }),
    summary: tripSpendSummary(d.trip, linked, otherTrips),
    suggestions: suggestTripSpend(d.trip, candidates.transactions, candidates.claims, candidates.trips),
  };
}

/**
 * One trip from the mirror (fully offline) with what is linked to it, its itinerary, its spend
 * against the budget and the suggested spend; re-read on every data change. `undefined` while
 * reading, `null` when the trip is not on this device (or was deleted).
 */
export function useTrip(client: DataClient, tripId: string, version: number): TripData | null | undefined {
  const [state, setState] = useState<{ id: string; data: TripRead | null } | null>(null);
  useEffect(() => {
    let stale = false;
    void (async () => {
      const trip = (await collectionReads(client).get('trips', tripId)) as TripView | null;
      if (!trip || trip.deleted) {
        if (!stale) setState({ id: tripId, data: null });
        return;
      }
      const [linked, candidates] = await Promise.all([readLinked(client, trip), readCandidates(client, trip)]);
      const chargeTrips = await readChargeTrips(client, trip, linked.transactions, candidates.trips);
      const missing = trip.transaction_ids.length + trip.reimbursement_ids.length - linked.transactions.length - linked.claims.length;
      if (!stale) setState({ id: tripId, data: { trip, ...linked, missing, candidates, chargeTrips } });
    })();
    return () => {
      stale = true;
    };
  }, [client, tripId, version]);
  return useMemo(() => {
    if (!state || state.id !== tripId) return undefined;
    if (!state.data) return null;
    return deriveTripData(state.data);
  }, [state, tripId]);
}

/** The trip row alone (the Book page): `undefined` while reading, `null` when not on this device. */
export function useTripRow(client: DataClient, tripId: string, version: number): TripView | null | undefined {
  const [state, setState] = useState<{ id: string; trip: TripView | null } | null>(null);
  useEffect(() => {
    let stale = false;
    void (collectionReads(client).get('trips', tripId) as Promise<TripView | null>).then((trip) => {
      if (!stale) setState({ id: tripId, trip: trip && !trip.deleted ? trip : null });
    });
    return () => {
      stale = true;
    };
  }, [client, tripId, version]);
  return state && state.id === tripId ? state.trip : undefined;
}
