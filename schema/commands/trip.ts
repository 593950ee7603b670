import { z } from 'zod';
import { produce } from 'immer';
import { allInMirror, defineCommand, type BlankContext } from './define-command.ts';
import {
  createTrip, deleteTrip, linkTripSpend, spendEventsBodySchema, tripCreateBodySchema, tripPatchSchema, unlinkTripSpend, patchTrip,
  type SpendEventsBody, type TripCreateBody, type TripPatch,
} from '../api/calls-travel.ts';
import type { Trip } from '../entities/trip.ts';
import { knownCurrencySchema } from '../money.ts';
import { LIVE_BOOKING_STATUSES } from '../travel-rules.ts';
import { airportCity } from '../travel/airports.ts';

/**
 * Trip commands (issue 27): trips and their spend links are made offline and sent once. Each
 * `apply` is pure and is what the server runs too (server/domain/travel/trips.ts), so the row
 * shown offline is the row the server stores. What only the server knows (bookings, totals of
 * linked spend) arrives with its answer (`confirm: 'row'`) or the feed.
 * A move the rules refuse (cancel with live bookings, an edit of a canceled trip) leaves the row
 * as it is: the server refuses by name and the outbox keeps the command for the person to see.
 */

/** A booking that still holds the trip. */
export const hasLiveBookings = (trip: Pick<Trip, 'bookings'>) =>
  trip.bookings.some((b) => (LIVE_BOOKING_STATUSES as readonly string[]).includes(b.status));

/** The city shown for a destination code (the code itself when the list does not know it). */
const destinationName = (code: string) => airportCity(code) ?? code;

/**
 * A trip before its create's `apply`: the actor's, PLANNED, nothing linked. `currency` is the
 * business's (the client knows it from its identity; the server passes its own): the total's
 * and the budget's currency.
 */
export function newTrip(body: TripCreateBody, { id, actor, at }: BlankContext, currency: string): Trip {
  return {
    id, user_id: actor.user_id, name: body.name, destination: body.destination, destination_name: destinationName(body.destination),
    start_date: body.start_date, end_date: body.end_date, purpose: null, status: 'PLANNED', budget: null,
    total: { amount: 0, currency }, totals: [], bookings: [], transaction_ids: [], reimbursement_ids: [], card_id: null,
    canceled_at: null, created_at: at, business_id: actor.business_id, change_seq: 0, updated_at: at, deleted: false,
  };
}

/** A create's fields on the blank row (budget in the trip's currency). */
export function applyTripCreate(row: Trip, body: TripCreateBody): Trip {
  return applyTripPatch(row, { name: body.name, destination: body.destination, start_date: body.start_date, end_date: body.end_date,
    purpose: body.purpose ?? null, budget: body.budget ?? null });
}

/**
 * The trip with `patch` applied as the server applies it. A canceled trip takes nothing; `canceled`
 * cancels at the write's moment (`updated_at`, stamped by the caller) unless a booking still holds it.
 */
export function applyTripPatch(row: Trip, patch: TripPatch): Trip {
  if (row.status === 'CANCELED') return row;
  if (patch.canceled && hasLiveBookings(row)) return row;
  return produce(row, (d) => {
    if (patch.name !== undefined) d.name = patch.name;
    if (patch.destination !== undefined) {
      d.destination = patch.destination;
      d.destination_name = destinationName(patch.destination);
    }
    if (patch.start_date !== undefined) d.start_date = patch.start_date;
    if (patch.end_date !== undefined) d.end_date = patch.end_date;
    if (patch.purpose !== undefined) d.purpose = patch.purpose;
    if (patch.budget !== undefined) d.budget = patch.budget === null ? null : { amount: patch.budget, currency: d.total.currency };
    if (patch.canceled) {
      d.status = 'CANCELED';
      d.canceled_at = d.updated_at;
    }
  });
}

const withAdded = (ids: readonly string[], more: readonly string[]) => [...ids, ...more.filter((id, i) => !ids.includes(id) && more.indexOf(id) === i)];
const withRemoved = (ids: readonly string[], gone: readonly string[]) => ids.filter((id) => !gone.includes(id));

/** Links (`link`) or unlinks the ids on the trip's lists; a canceled trip takes no new link. */
export function applySpendLinks(row: Trip, body: SpendEventsBody, link: boolean): Trip {
  if (link && row.status === 'CANCELED') return row;
  const change = link ? withAdded : withRemoved;
  return produce(row, (d) => {
    d.transaction_ids = change(row.transaction_ids, body.transaction_ids);
    d.reimbursement_ids = change(row.reimbursement_ids, body.reimbursement_ids);
  });
}

/** What the command carries for its optimistic row only: never sent. */
const withoutCurrency = <T extends { currency?: unknown }>({ currency, ...rest }: T): Omit<T, 'currency'> => (void currency, rest);

export const tripCreate = defineCommand({
  name: 'trip.create',
  // `currency`: the business's, for the optimistic row's total and budget (the server uses its own).
  args: tripCreateBodySchema.extend({ id: z.uuid(), currency: knownCurrencySchema.optional() }),
  collection: 'trips',
  entityIds: (a) => [a.id],
  call: createTrip,
  // The id goes with the body: the server creates the trip under it (a repeat answers that trip).
  request: (a) => ({ body: withoutCurrency(a) }),
  apply: (row, a) => applyTripCreate(row, a),
  blank: (a, ctx) => newTrip(a, ctx, a.currency ?? 'USD'),
  confirm: 'row',
});

/** Edits and deletes name a trip the mirror holds (one created offline counts). */
export const tripUpdate = defineCommand({
  name: 'trip.update',
  args: z.object({ trip_id: z.uuid(), patch: tripPatchSchema }),
  collection: 'trips',
  entityIds: (a) => [a.trip_id],
  call: patchTrip,
  request: (a) => ({ params: { trip_id: a.trip_id }, body: a.patch }),
  apply: (row, a) => applyTripPatch(row, a.patch),
  check: (a, mirror) => allInMirror([a.trip_id], mirror),
  confirm: 'row',
});

/** Only a trip with no live booking is deleted (a tombstone at once); the answer carries its seq. */
export const tripDelete = defineCommand({
  name: 'trip.delete',
  args: z.object({ trip_id: z.uuid() }),
  collection: 'trips',
  entityIds: (a) => [a.trip_id],
  call: deleteTrip,
  request: (a) => ({ params: { trip_id: a.trip_id } }),
  apply: (row) => (hasLiveBookings(row) ? row : produce(row, (d) => {
    d.deleted = true;
  })),
  check: (a, mirror) => allInMirror([a.trip_id], mirror),
  confirm: 'change_seq',
});

const spendArgs = z.object({ trip_id: z.uuid() }).extend(spendEventsBodySchema.shape);

/**
 * Linking card transactions and claims to a trip (a taxi receipt's claim, made offline too: the
 * claim's create is ordered first by its id, `after`). The trip's total follows on the server's answer.
 */
export const tripLinkSpend = defineCommand({
  name: 'trip.linkSpend',
  args: spendArgs,
  collection: 'trips',
  entityIds: (a) => [a.trip_id],
  after: (a) => [...a.transaction_ids, ...a.reimbursement_ids],
  call: linkTripSpend,
  request: ({ trip_id, ...body }) => ({ params: { trip_id }, body }),
  apply: (row, a) => applySpendLinks(row, a, true),
  check: (a, mirror) => allInMirror([a.trip_id], mirror),
  confirm: 'row',
});

export const tripUnlinkSpend = defineCommand({
  name: 'trip.unlinkSpend',
  args: spendArgs,
  collection: 'trips',
  entityIds: (a) => [a.trip_id],
  call: unlinkTripSpend,
  request: ({ trip_id, ...body }) => ({ params: { trip_id }, body }),
  apply: (row, a) => applySpendLinks(row, a, false),
  check: (a, mirror) => allInMirror([a.trip_id], mirror),
  confirm: 'row',
});
